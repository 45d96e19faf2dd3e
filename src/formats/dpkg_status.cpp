#include "formats/dpkg_status.h"

#include <algorithm>
#include <array>
#include <iterator>

#include "base/text.h"

namespace rocmdoc {

namespace {

bool is_space_or_tab(char c) { return c == ' ' || c == '\t'; }

// Asked of every line of a ~1 MB status file: most lines start with a
// letter and are decided by their first byte.
bool is_blank(std::string_view line) {
  for (char c : line)
    if (!is_space_or_tab(c)) return false;
  return true;
}

inline char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Field names are case-insensitive, and dpkg writes them as documented: the
// length and the first letter settle most comparisons, an exact match the
// rest, and only a differently cased name is folded byte by byte.
inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  if (a.empty()) return true;
  if (ascii_lower(a[0]) != ascii_lower(b[0])) return false;
  if (a == b) return true;
  for (size_t i = 1; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

// deb822(5): a field name is printable ASCII without spaces or colons and
// does not start with '-' (or '#', which makes the line a comment). A table
// lookup per byte: this runs for every field line of a ~1 MB status file.
constexpr auto kFieldNameByte = [] {
  std::array<bool, 256> allowed{};
  for (int c = '!'; c <= '~'; ++c) allowed[static_cast<size_t>(c)] = c != ':';
  return allowed;
}();

bool valid_field_name(std::string_view name) {
  if (name.empty() || name.front() == '-') return false;
  bool ok = true;
  for (char c : name) ok &= kFieldNameByte[static_cast<unsigned char>(c)];
  return ok;
}

void note_malformed(ControlStanza& stanza, size_t line) {
  if (stanza.malformed_count++ < ControlStanza::kMalformedLinesKept) stanza.malformed_lines.push_back(line);
}

// The one reading of deb822 text, under both parsers below. A stanza opens
// at its first line that is not blank or a comment and closes at a blank
// line or the end. For each line, in file order, it calls
//   v.field(name, rest, line)    "Name: value" (rest: after the colon, untrimmed),
//   v.continuation(text, line)   a line starting with a blank, below a field,
//   v.malformed(line)            a line that is neither, or a continuation before any field,
// and v.stanza(first_line) when a stanza closes.
template <class Visitor>
void read_control_text(std::string_view text, Visitor& v) {
  size_t stanza_line = 0;
  bool open = false, has_field = false;
  LineReader reader(text);
  std::string_view line;
  while (reader.next(line)) {
    if (is_blank(line)) {
      if (open) v.stanza(stanza_line);
      open = has_field = false;
      continue;
    }
    if (line.front() == '#') continue;
    if (!open) open = true, stanza_line = reader.number();
    if (line.front() == ' ' || line.front() == '\t') {
      if (has_field) v.continuation(line, reader.number());
      else v.malformed(reader.number());
      continue;
    }
    size_t colon = line.find(':');
    std::string_view name = colon == std::string_view::npos ? line : line.substr(0, colon);
    if (colon == std::string_view::npos || !valid_field_name(name)) {
      v.malformed(reader.number());
      continue;
    }
    has_field = true;
    v.field(name, line.substr(colon + 1), reader.number());
  }
  if (open) v.stanza(stanza_line);
}

// Builds every stanza with all its fields.
struct StanzaBuilder {
  std::vector<ControlStanza> stanzas;
  ControlStanza current;

  void field(std::string_view name, std::string_view rest, size_t line) {
    current.fields.push_back(ControlField{std::string(name), trim(rest), line});
  }
  void continuation(std::string_view text, size_t) {
    auto& value = current.fields.back().value;
    value += '\n';
    value += trim_view(text);
  }
  void malformed(size_t line) { note_malformed(current, line); }
  void stanza(size_t first_line) {
    current.line = first_line;
    stanzas.push_back(std::move(current));
    current = ControlStanza{};
  }
};

// The fields a DpkgPackage keeps, and where each goes.
struct WantedField {
  std::string_view name;
  std::string DpkgPackage::*member;
};
constexpr WantedField kWantedFields[] = {
    {"Package", &DpkgPackage::name},          {"Architecture", &DpkgPackage::architecture},
    {"Version", &DpkgPackage::version},       {"Status", &DpkgPackage::status},
    {"Maintainer", &DpkgPackage::maintainer}, {"Source", &DpkgPackage::source},
};
constexpr size_t kWanted = std::size(kWantedFields);

// Keeps the first line of the six fields a package needs (the first of
// repeated ones), as views until the stanza closes: a status file is ~1 MB
// of mostly descriptions, which are never copied.
struct PackageBuilder {
  DpkgStatus result;
  std::string_view fields[kWanted] = {};
  bool seen[kWanted] = {};

  void field(std::string_view name, std::string_view rest, size_t) {
    for (size_t i = 0; i < kWanted; ++i)
      if (!seen[i] && iequals(name, kWantedFields[i].name)) {
        seen[i] = true;
        fields[i] = trim_view(rest);
        return;  // the six names differ
      }
  }
  void continuation(std::string_view, size_t) {}
  void malformed(size_t) { ++result.malformed_lines; }
  void stanza(size_t first_line) {
    std::string_view name = fields[0];
    if (name.empty()) {
      ++result.stanzas_without_package;
    } else {
      DpkgPackage p;
      for (size_t i = 0; i < kWanted; ++i) p.*kWantedFields[i].member = std::string(fields[i]);
      p.line = first_line;
      result.packages.push_back(std::move(p));
    }
    std::fill(std::begin(fields), std::end(fields), std::string_view{});
    std::fill(std::begin(seen), std::end(seen), false);
  }
};

}  // namespace

const ControlField* ControlStanza::find(std::string_view name) const {
  for (auto& f : fields)
    if (iequals(f.name, name)) return &f;
  return nullptr;
}

std::string ControlStanza::first_line(std::string_view name) const {
  const ControlField* f = find(name);
  if (!f) return "";
  return f->value.substr(0, f->value.find('\n'));
}

std::vector<ControlStanza> parse_control_stanzas(std::string_view text) {
  StanzaBuilder builder;
  read_control_text(text, builder);
  return std::move(builder.stanzas);
}

std::string DpkgPackage::state() const {
  auto words = split_words(status);
  return words.size() == 3 ? words[2] : "";
}

DpkgStatus parse_dpkg_status(std::string_view text) {
  PackageBuilder builder;
  read_control_text(text, builder);
  return std::move(builder.result);
}

}  // namespace rocmdoc
