// The packed form of a YamlTree that the build writes into the binary for
// the built-in rules (tools/embed_rules.cpp), and reading it back at run
// time without copying: the tree's scalars are views into the packed bytes.
//
// Layout, all integers little-endian u32:
//   "RDYT" version node_count text_size
//   node_count x { kind | quoted << 8, line, column, first, count }
//   text_size bytes of scalar text
// Decoding checks every field (kinds, bounds, children after their parent so
// the tree has no cycles, maps with whole pairs), so a damaged or hostile
// blob is refused with a reason instead of being trusted.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "formats/yaml_parse.h"
#include "formats/yaml_tree.h"

namespace rocmdoc {

std::string encode_yaml_tree(const YamlRecords& tree);

// `packed` must outlive the tree (the embedded rules are static data).
Result<YamlTree> decode_yaml_tree(std::string_view packed);

}  // namespace rocmdoc
