// Loading rule files: strict, with file:line:column for every problem.
// Unknown keys, wrong types, unknown facts or functions in a condition and
// duplicate ids are errors; a rule set with errors is not used at all.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/pattern_fragments.h"
#include "rules/problem.h"
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
  std::string name;  // shown in messages: "rules/catalogue/access.yaml"
  std::string text;
  // Built-in rules: the YAML already parsed at build time (yaml_tree_codec.h),
  // static data; empty for files read at run time, whose text is parsed.
  std::string_view packed;
};

// The catalogue: every problem, the signatures and symptoms that point to
// them, the lists and macros their conditions use and the fragments their
// patterns use.
struct RuleSet {
  std::vector<Problem> problems;      // in file order; check runs those with a condition
  std::vector<Signature> signatures;
  std::vector<Symptom> symptoms;
  std::vector<Origin> origins;
  std::vector<LoadError> errors;
  std::map<std::string, Json> lists;
  std::map<std::string, ExprPtr> macros;
  PatternFragments fragments;  // already expanded in every pattern above
  bool ok() const { return errors.empty(); }
  // The problem with this id or alias, or null.
  const Problem* find(const std::string& id) const;
};

// The YAML as a tree, or nothing after adding a file:line:column
// error (a syntax error, or a damaged packed tree) to errors.
std::optional<YamlTree> rule_file_tree(const RuleFile& file, std::vector<LoadError>& errors);

struct LoadOptions {
  // Compile every pattern at load, so a bad one is a file:line:column error.
  // check reads no text and skips it; explain and `rules` do not.
  bool compile_patterns = true;
  // ...also those of the built-in (packed) files. explain and report skip
  // them and rely on the suite: its `rules lint` (check_cli_test) compiles
  // every built-in pattern and checks its capture names, with its file:line.
  // The scanner's set still parses each pattern (a syntax error ends the
  // command), but no longer compiles a widened pattern's exact form
  // (Signature::compiles). At load they were a third of a short explain's
  // instructions (callgrind, 1.10 G in all with 439 signatures;
  // bench/README.md).
  bool compile_built_in_patterns = true;
  // Keep the examples of problems and signatures after checking them. Only
  // `rules test` and `rules lint` read them; without them the parsed YAML of
  // each catalogue file (about 1.4 MiB in all, which the problems' examples
  // point into) is freed once the file is read.
  bool keep_examples = true;
};

// Loads the catalogue files of `builtin`, then `local` (which may replace a
// built-in problem by id; such problems are marked local_override).
RuleSet load_rule_set(const std::vector<RuleFile>& builtin, const std::vector<RuleFile>& local,
                      const Vocabulary& vocabulary, const LoadOptions& options = {});

// A rule file read from disk larger than this is refused (the largest
// shipped file is under 90 KB; docs/rules.md).
constexpr size_t kMaxRuleFileBytes = 4u << 20;

// The rule files compiled into the binary (rules/ at build time).
const std::vector<RuleFile>& embedded_rule_files();
// Every *.yaml below dir (recursively, sorted), named relative to dir's parent
// so messages read "myrules/catalogue/x.yaml:3:1"; fails on an unreadable dir
// or file, one over kMaxRuleFileBytes, and, when run as root, on a file or
// directory that anyone but root could write (as sudo treats sudoers).
Result<std::vector<RuleFile>> read_rule_files(const std::string& dir);
// Only the files whose name contains "/catalogue/" (or "/matrix/" ...).
std::vector<RuleFile> files_under(const std::vector<RuleFile>& files, const std::string& folder);

}  // namespace rocmdoc
