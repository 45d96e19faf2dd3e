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
  bool over_limit = false;   // valid YAML, but past a limit below
};

// Limits on one parsed document, far above any real rule file (the largest
// shipped file has under 9,000 nodes and 12 levels; docs/rules.md). They are
// counted after aliases are expanded, so an alias bomb or an alias inside its
// own anchor is a syntax error at the node where the limit was passed.
constexpr int kMaxYamlDepth = 100;
constexpr size_t kMaxYamlNodes = 1'000'000;
constexpr size_t kMaxYamlExpandedText = 64u << 20;

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
