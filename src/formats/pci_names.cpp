#include "formats/pci_names.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>
#include <vector>

#include "base/build_info.h"

namespace rocmdoc {

// A top-level line's id and where it starts (index_top_lines below). Not in
// the anonymous namespace: Impl holds these, and a class with a member of
// an internal type draws -Wsubobject-linkage wherever this file is
// included, as the sanitizer build's unity batches do.
struct PciTopLine {
  uint32_t id;
  uint32_t offset;
};

namespace {

// pci.ids, read whole (1.3 MB: a plain read, as every other file).
std::optional<std::string> read_ids(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof()) return std::nullopt;
  return std::move(text).str();
}

// The file to read: for a ".gz" name, the plain file beside it (compressed
// pci.ids would need zlib, so gives no names).
std::string plain_ids_path(const std::string& path) {
  return path.ends_with(".gz") ? path.substr(0, path.size() - 3) : path;
}

std::string hex(unsigned value, int digits) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%0*x", digits, value);
  return buffer;
}

bool blank(char c) { return c == ' ' || c == '\t'; }

// The line starting at pos (without its newline), and pos moved past it.
std::string_view next_line(std::string_view text, size_t& pos) {
  size_t end = text.find('\n', pos);
  if (end == std::string_view::npos) end = text.size();
  std::string_view line = text.substr(pos, end - pos);
  pos = end < text.size() ? end + 1 : text.size();
  return line;
}

// "<prefix><id><blanks><name>" gives the name (trailing blanks and \r
// dropped, as libpci does), else nothing.
std::optional<std::string> entry_name(std::string_view line, std::string_view prefix_and_id) {
  if (!line.starts_with(prefix_and_id) || line.size() <= prefix_and_id.size() || !blank(line[prefix_and_id.size()]))
    return std::nullopt;
  line.remove_prefix(prefix_and_id.size());
  while (!line.empty() && blank(line.front())) line.remove_prefix(1);
  while (!line.empty() && (blank(line.back()) || line.back() == '\r')) line.remove_suffix(1);
  if (line.empty()) return std::nullopt;
  return std::string(line);
}

// A top-level line's four-character id ("1002", "C 03") as one number.
uint32_t packed_id(std::string_view id) {
  uint32_t v = 0;
  for (char c : id.substr(0, 4)) v = v << 8 | static_cast<unsigned char>(c);
  return v;
}

// Each top-level line's id and where it starts, in file order, so that the
// first of repeated ids wins as a scan from the top would find it. Top-level
// lines (vendors, classes) begin with neither a tab nor '#'. Classes and
// missing ids lie at the end of the file, so one pass on the first lookup
// beats a search per lookup (pci probe, 6 devices: 1.4 ms; a memmem each, 9.7 ms).
std::vector<PciTopLine> index_top_lines(std::string_view text) {
  std::vector<PciTopLine> index;
  if (text.size() > UINT32_MAX) return index;  // no pci.ids is 4 GB: no names from one that is
  for (size_t pos = 0; pos < text.size();) {
    size_t start = pos;
    std::string_view line = next_line(text, pos);
    // Both kinds of id are four characters: "1002" (a vendor), "C 03" (a class).
    if (line.size() > 4 && line[0] != '\t' && line[0] != '#' && blank(line[4]))
      index.push_back({packed_id(line), static_cast<uint32_t>(start)});
  }
  return index;
}

// The name of the one-tab child "<tab><id>" in the block below the top-level
// line at top (its lines start with a tab; comments and blank lines may sit
// between), else nothing.
std::optional<std::string> child_name(std::string_view text, size_t top, const std::string& id) {
  const std::string prefix = "\t" + id;  // once, not once per line of a long block (Intel's has thousands)
  size_t pos = top;
  next_line(text, pos);
  while (pos < text.size()) {
    std::string_view line = next_line(text, pos);
    if (line.empty() || line.front() == '#') continue;
    if (line.front() != '\t') break;  // the next top-level entry
    if (auto name = entry_name(line, prefix)) return name;
  }
  return std::nullopt;
}

}  // namespace

// Names are looked up here rather than through libpci's pci_lookup_name():
// that parses all of pci.ids into a hash on its first lookup, ~10 ms, more
// than a whole check (bench/pci-names-vs-libpci.sh).
struct PciNameDatabase::Impl {
  std::string path;
  bool loaded = false;
  std::string text;  // empty: no readable database
  std::vector<PciTopLine> top;

  // Where the top-level line `head` starts, or nothing. The file is read
  // and indexed on the first lookup: a run that needs no names reads none.
  std::optional<size_t> find_top(const std::string& head) {
    if (!loaded) {
      loaded = true;
      if (auto ids = read_ids(plain_ids_path(path))) text = std::move(*ids), top = index_top_lines(text);
    }
    uint32_t id = packed_id(head);
    for (const PciTopLine& line : top)
      if (line.id == id) return line.offset;
    return std::nullopt;
  }

  std::optional<std::string> top_name(const std::string& head) {
    auto at = find_top(head);
    if (!at) return std::nullopt;
    return entry_name(next_line(text, *at), head);
  }

  std::optional<std::string> child(const std::string& head, const std::string& id) {
    auto at = find_top(head);
    if (!at) return std::nullopt;
    return child_name(text, *at, id);
  }
};

PciNameDatabase::PciNameDatabase(const std::string& ids_path) : impl_(std::make_unique<Impl>()) {
  impl_->path = ids_path.empty() ? pci_ids_path() : ids_path;
}

PciNameDatabase::~PciNameDatabase() = default;

std::optional<std::string> PciNameDatabase::vendor(uint16_t vendor_id) { return impl_->top_name(hex(vendor_id, 4)); }

std::optional<std::string> PciNameDatabase::device(uint16_t vendor_id, uint16_t device_id) {
  return impl_->child(hex(vendor_id, 4), hex(device_id, 4));
}

std::optional<std::string> PciNameDatabase::class_name(uint32_t class_code) {
  // libpci's rule: the subclass's name, else the base class's.
  std::string base = "C " + hex((class_code >> 16) & 0xff, 2);
  if (auto sub = impl_->child(base, hex((class_code >> 8) & 0xff, 2))) return sub;
  return impl_->top_name(base);
}

PciNameDatabase& system_pci_names() {
  static PciNameDatabase database;
  return database;
}

}  // namespace rocmdoc
