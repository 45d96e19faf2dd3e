#include "probe/pci/resource.h"

#include <cstdio>

#include "base/text.h"

namespace rocmdoc {

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

const char* region_kind(uint64_t flags) {
  if (flags & kIoResourceMem) return "memory";
  if (flags & kIoResourceIo) return "io";
  return "other";
}

bool parse_triple(const std::vector<std::string>& words, uint64_t* start, uint64_t* end, uint64_t* flags) {
  if (words.size() != 3) return false;
  auto s = parse_hex(words[0]), e = parse_hex(words[1]), f = parse_hex(words[2]);
  if (!s || !e || !f) return false;
  *start = *s, *end = *e, *flags = *f;
  return true;
}

}  // namespace

Result<std::vector<PciRegion>> parse_pci_resources(std::string_view text) {
  using R = Result<std::vector<PciRegion>>;
  std::vector<PciRegion> regions;
  auto lines = split_lines(text);
  // The kernel writes a fixed number of lines (under 20); far more is not
  // its resource file.
  if (lines.size() > 64) return R::fail("more lines than a resource file has (" + std::to_string(lines.size()) + ")");
  for (size_t i = 0; i < lines.size(); ++i) {
    auto words = split_words(lines[i]);
    if (words.empty() && i + 1 == lines.size()) break;  // the final newline
    std::string where = "line " + std::to_string(i + 1);
    uint64_t start = 0, end = 0, flags = 0;
    if (!parse_triple(words, &start, &end, &flags))
      return R::fail(where + " is not three hex numbers: " + quote_for_reason(lines[i]));
    if (start == 0 && end == 0) continue;  // an unused region
    if (end < start) return R::fail(where + " ends before it starts");
    if (end - start == UINT64_MAX) return R::fail(where + " spans the whole address space");
    regions.push_back({static_cast<unsigned>(i), start, end - start + 1, flags});
  }
  return R::ok(std::move(regions));
}

Json pci_regions_json(const std::vector<PciRegion>& regions) {
  Json bars = Json::array();
  for (auto& r : regions) {
    Json bar = Json::object();
    bar["index"] = r.index;
    bar["start"] = hex(r.start);
    bar["size_bytes"] = r.size;
    bar["flags"] = hex(r.flags);
    bar["kind"] = region_kind(r.flags);
    bar["prefetchable"] = (r.flags & kIoResourcePrefetch) != 0;
    bar["rom"] = r.index == kPciRomIndex;
    bars.push_back(bar);
  }
  return bars;
}

}  // namespace rocmdoc
