// Loading rule files: strict, with file:line:column for every problem.
// Unknown keys, wrong types, unknown facts or functions in a condition and
// duplicate ids are errors; a rule set with errors is not used at all.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/cause.h"
#include "rules/rule.h"
#include "rules/signature.h"
#include "formats/strict_yaml.h"
#include "formats/yaml_tree.h"

namespace rocmdoc {

struct RuleFile {
  // A constructor rather than an aggregate: {name, text} stays the way to
  // make a file read at run time, without -Wmissing-field-initializers.
  RuleFile() = default;
  RuleFile(std::string name_, std::string text_, std::string_view packed_ = {})
      : name(std::move(name_)), text(std::move(text_)), packed(packed_) {}
  std::string name;  // shown in messages: "rules/checks/access.yaml"
  std::string text;
  // Built-in rules: the YAML already parsed at build time (yaml_tree_codec.h),
  // static data; empty for files read at run time, whose text is parsed.
  std::string_view packed;
};

struct RuleSet {
  std::vector<Rule> rules;
  std::vector<Signature> signatures;  // rules/errors/ only
  std::vector<Cause> causes;          // rules/errors/ only
  std::vector<Origin> origins;        // rules/errors/ only
  std::vector<LoadError> errors;
  std::map<std::string, Json> lists;
  std::map<std::string, ExprPtr> macros;
  bool ok() const { return errors.empty(); }
};

// The file's YAML as a tree, or nothing after adding a file:line:column
// error (a syntax error, or a damaged packed tree) to errors.
std::optional<YamlTree> rule_file_tree(const RuleFile& file, std::vector<LoadError>& errors);

// Loads the check rules of `builtin`, then `local` (which may replace a
// built-in rule by id; such rules are marked local_override).
RuleSet load_rule_set(const std::vector<RuleFile>& builtin, const std::vector<RuleFile>& local,
                      const Vocabulary& vocabulary);

// Loads the explain knowledge of rules/errors/: signatures, causes and
// origins (and their lists and macros); `local` may replace a cause by id.
// Patterns are compiled at load, so a bad one is a file:line:column error.
RuleSet load_error_rule_set(const std::vector<RuleFile>& builtin, const std::vector<RuleFile>& local,
                            const Vocabulary& vocabulary);

// The rule files compiled into the binary (rules/ at build time).
const std::vector<RuleFile>& embedded_rule_files();
// Every *.yaml below dir (recursively, sorted), named relative to dir's parent
// so messages read "myrules/checks/x.yaml:3:1"; fails on an unreadable dir.
Result<std::vector<RuleFile>> read_rule_files(const std::string& dir);
// Only the files whose name contains "/checks/" (or "/matrix/" ...).
std::vector<RuleFile> files_under(const std::vector<RuleFile>& files, const std::string& folder);

}  // namespace rocmdoc
