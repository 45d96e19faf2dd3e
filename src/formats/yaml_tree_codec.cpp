#include "formats/yaml_tree_codec.h"

#include <bit>
#include <cstring>

namespace rocmdoc {

namespace {

constexpr char kMagic[4] = {'R', 'D', 'Y', 'T'};
constexpr std::uint32_t kVersion = 1;
constexpr size_t kHeaderWords = 4;  // magic, version, node count, text size
constexpr size_t kRecordWords = 5;

void put(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

std::uint32_t get(std::string_view in, size_t word) {
  // One load where the host is little-endian (the packing's order), bytes
  // otherwise: ~125k words are read at every start.
  if constexpr (std::endian::native == std::endian::little) {
    std::uint32_t v;
    std::memcpy(&v, in.data() + 4 * word, sizeof v);
    return v;
  }
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(in[4 * word + static_cast<size_t>(i)]);
  return v;
}

// Whether record i may be trusted: a known kind, text inside the text block,
// children inside the node block and after i (so walking the tree ends).
// nullptr when it may.
const char* record_problem(const YamlRecord& r, size_t i, size_t nodes, size_t text_size) {
  std::uint64_t end = std::uint64_t{r.first} + r.count;
  switch (r.kind) {
    case YamlKind::null: return r.count == 0 ? nullptr : "a null node with children";
    case YamlKind::scalar: return end <= text_size ? nullptr : "scalar text past the end";
    case YamlKind::map:
      if (r.count % 2 != 0) return "a map with half a pair";
      [[fallthrough]];
    case YamlKind::sequence:
      if (r.count > 0 && r.first <= i) return "children before their parent";
      return end <= nodes ? nullptr : "children past the end";
  }
  return "unknown node kind";
}

}  // namespace

std::string encode_yaml_tree(const YamlRecords& tree) {
  std::string out(kMagic, sizeof kMagic);
  put(out, kVersion);
  put(out, static_cast<std::uint32_t>(tree.records.size()));
  put(out, static_cast<std::uint32_t>(tree.text.size()));
  for (const YamlRecord& r : tree.records) {
    put(out, static_cast<std::uint32_t>(r.kind) | (r.quoted ? 0x100u : 0u));
    for (std::uint32_t v : {r.line, r.column, r.first, r.count}) put(out, v);
  }
  return out + tree.text;
}

Result<YamlTree> decode_yaml_tree(std::string_view packed) {
  using R = Result<YamlTree>;
  if (packed.size() < 4 * kHeaderWords || std::memcmp(packed.data(), kMagic, sizeof kMagic) != 0)
    return R::fail("not a packed YAML tree");
  if (get(packed, 1) != kVersion) return R::fail("packed YAML tree version " + std::to_string(get(packed, 1)));
  std::uint64_t nodes = get(packed, 2), text_size = get(packed, 3);
  if (nodes == 0) return R::fail("packed YAML tree without a root");
  if (4 * (kHeaderWords + kRecordWords * nodes) + text_size != packed.size())
    return R::fail("packed YAML tree of " + std::to_string(packed.size()) + " bytes is truncated or has extra bytes");
  // Each record is checked before it is linked: a child index is only
  // pointed at once it is known to lie inside the tree.
  YamlTree tree(nodes, packed.substr(packed.size() - text_size));
  for (size_t i = 0; i < nodes; ++i) {
    size_t w = kHeaderWords + kRecordWords * i;
    std::uint32_t kind = get(packed, w);
    if ((kind & ~0x1ffu) != 0 || (kind & 0xff) > static_cast<std::uint32_t>(YamlKind::map))
      return R::fail("packed YAML node " + std::to_string(i) + ": unknown node kind");
    YamlRecord r{static_cast<YamlKind>(kind & 0xff), (kind & 0x100) != 0, get(packed, w + 1), get(packed, w + 2),
                 get(packed, w + 3), get(packed, w + 4)};
    if (const char* problem = record_problem(r, i, nodes, text_size))
      return R::fail("packed YAML node " + std::to_string(i) + ": " + problem);
    tree.set(i, r);
  }
  return R::ok(std::move(tree));
}

}  // namespace rocmdoc
