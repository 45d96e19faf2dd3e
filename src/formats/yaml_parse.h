// Parsing YAML text (user rule files: --rules DIR, /etc/rocmdoc/rules.d) into
// a YamlTree with yaml-cpp, keeping every node's line and column.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/yaml_tree.h"

namespace rocmdoc {

// The tree before it gets its final address: records and the scalar text
// they point into. The build-time packer writes this form into the binary.
struct YamlRecords {
  std::vector<YamlRecord> records;
  std::string text;
};

struct YamlSyntaxError {
  int line = 0, column = 0;  // 1-based
  std::string message;       // yaml-cpp's words: "illegal block entry"
};

// The first document of `text` (an empty document is one null node), or
// where and why it is not YAML.
struct YamlParsed {
  std::optional<YamlRecords> records;
  YamlSyntaxError error;
};
YamlParsed parse_yaml_records(std::string_view text);

// The same, as a tree that owns its text.
struct YamlParsedTree {
  std::optional<YamlTree> tree;
  YamlSyntaxError error;
};
YamlParsedTree parse_yaml_tree(std::string_view text);

}  // namespace rocmdoc
