// A rule file's YAML: one door for built-in (packed at build time) and user
// files (parsed now), so the loader and the matrix read both the same way.
#include "rules/rule_loader.h"
#include "formats/yaml_parse.h"
#include "formats/yaml_tree_codec.h"

namespace rocmdoc {

std::optional<YamlTree> rule_file_tree(const RuleFile& file, std::vector<LoadError>& errors) {
  if (!file.packed.empty()) {
    auto tree = decode_yaml_tree(file.packed);
    if (!tree) {
      errors.push_back({{file.name, 0, 0}, "built-in rules are damaged: " + tree.error()});
      return std::nullopt;
    }
    return std::move(tree.value());
  }
  YamlParsedTree parsed = parse_yaml_tree(file.text);
  if (!parsed.tree)
    errors.push_back({{file.name, parsed.error.line, parsed.error.column},
                      (parsed.error.over_limit ? "refused: " : "YAML syntax error: ") + parsed.error.message});
  return std::move(parsed.tree);
}

}  // namespace rocmdoc
