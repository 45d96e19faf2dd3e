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
  std::vector<ControlStanza> stanzas;
  ControlStanza current;
  bool open = false;
  auto close = [&] {
    if (open && (!current.fields.empty() || current.malformed_count > 0)) stanzas.push_back(std::move(current));
    current = ControlStanza{};
    open = false;
  };
  LineReader reader(text);
  std::string_view line;
  while (reader.next(line)) {
    if (is_blank(line)) {
      close();
      continue;
    }
    if (line.front() == '#') continue;
    if (!open) {
      open = true;
      current.line = reader.number();
    }
    if (line.front() == ' ' || line.front() == '\t') {
      // A continuation belongs to the field above; with none, it is junk.
      if (current.fields.empty()) {
        note_malformed(current, reader.number());
        continue;
      }
      auto& value = current.fields.back().value;
      value += '\n';
      value += trim(line);
      continue;
    }
    size_t colon = line.find(':');
    std::string_view name = colon == std::string_view::npos ? line : line.substr(0, colon);
    if (colon == std::string_view::npos || !valid_field_name(name)) {
      note_malformed(current, reader.number());
      continue;
    }
    current.fields.push_back(ControlField{std::string(name), trim(line.substr(colon + 1)), reader.number()});
  }
  close();
  return stanzas;
}

std::string DpkgPackage::state() const {
  auto words = split_words(status);
  return words.size() == 3 ? words[2] : "";
}

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

// The same reading as parse_control_stanzas (same stanzas, same malformed
// lines, the first of repeated fields), but keeping only the six fields a
// package needs, as views into the text until the stanza ends: a status
// file is ~1 MB of mostly descriptions, and only the packages `keep`
// accepts become strings.
DpkgStatus parse_dpkg_status(std::string_view text, const std::function<bool(std::string_view)>& keep) {
  DpkgStatus result;
  std::string_view fields[kWanted];
  bool seen[kWanted] = {};
  size_t stanza_line = 0;
  bool open = false, has_field = false, has_malformed = false;
  auto close = [&] {
    if (open && (has_field || has_malformed)) {
      std::string_view name = fields[0];
      if (name.empty()) {
        ++result.stanzas_without_package;
      } else if (++result.package_count, !keep || keep(name)) {
        DpkgPackage p;
        for (size_t i = 0; i < kWanted; ++i) p.*kWantedFields[i].member = std::string(fields[i]);
        p.line = stanza_line;
        result.packages.push_back(std::move(p));
      }
    }
    std::fill(std::begin(fields), std::end(fields), std::string_view{});
    std::fill(std::begin(seen), std::end(seen), false);
    open = has_field = has_malformed = false;
  };
  LineReader reader(text);
  std::string_view line;
  while (reader.next(line)) {
    if (is_blank(line)) {
      close();
      continue;
    }
    if (line.front() == '#') continue;
    if (!open) open = true, stanza_line = reader.number();
    if (line.front() == ' ' || line.front() == '\t') {
      // Only first lines are kept; a continuation without a field is junk.
      if (!has_field) ++result.malformed_lines, has_malformed = true;
      continue;
    }
    size_t colon = line.find(':');
    std::string_view name = colon == std::string_view::npos ? line : line.substr(0, colon);
    if (colon == std::string_view::npos || !valid_field_name(name)) {
      ++result.malformed_lines, has_malformed = true;
      continue;
    }
    has_field = true;
    for (size_t i = 0; i < kWanted; ++i)
      if (!seen[i] && iequals(name, kWantedFields[i].name)) {
        seen[i] = true;
        fields[i] = trim_view(line.substr(colon + 1));
        break;  // the six names differ
      }
  }
  close();
  return result;
}

}  // namespace rocmdoc
