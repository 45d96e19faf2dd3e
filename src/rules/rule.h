// A diagnosis rule, as loaded from rules/checks/*.yaml (docs/rules.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rules/expression.h"
#include "formats/strict_yaml.h"
#include "formats/yaml_tree.h"

namespace rocmdoc {

enum class Severity { error, warning, info };
const char* severity_name(Severity s);

// Text with {fact.path} placeholders, checked at load. A placeholder may
// also call a function ({library_package(text.library, distro.id)}): it is
// then parsed at load like a condition and kept in `calls`.
struct Template {
  std::string text;
  std::vector<std::string> placeholders;  // paths as written ("it.path", "access.user.target")
  std::vector<ExprPtr> calls;             // per placeholder: the parsed call, or null for a path
};

struct FixStep {
  Template text;                 // what a person reads (always set)
  std::vector<Template> argv;    // the command, when one can be run; empty for manual steps
  bool sudo = false;
  // Shown only where this holds (true; false or unknown leave it out): a
  // fix that knows the package names it, and says how to look it up otherwise.
  ExprPtr when;
};

struct Fix {
  std::vector<FixStep> steps;
  bool reboot = false;
  bool relogin = false;
  std::vector<Template> verify;  // a command whose success shows the fix worked
};

struct RuleExample {
  std::string name;
  // A partial facts document, kept as YAML: only `rules test` runs examples,
  // so `check` does not pay for turning them into JSON.
  std::shared_ptr<const YamlTree> tree;
  const YamlNode* facts_yaml = nullptr;  // a map inside tree
  Json facts() const;
  std::string expect;            // "fire", "pass" or "unknown"
  // With "fire": how many fix steps the finding shows for these facts, so an
  // example can show a step's `when` leaving it out (or not); -1: not said.
  std::int64_t fix_steps = -1;
  SourceLocation where;
};

struct Rule {
  std::string id;
  std::string area;              // system, gpu, driver, access, firmware, rocm, python
  Severity severity = Severity::error;
  std::vector<std::string> platforms;  // empty: every platform
  std::string for_each;          // fact path of a list, or empty
  std::string when_text;
  ExprPtr when;
  Template title;
  // The title without this machine's values ("A user cannot open the GPU's
  // device nodes: not in their group"): shown instead of a title that names a
  // fact which is not known, where "(path not known) (owner (owner not
  // known), ...)" would say nothing. It never has placeholders itself.
  std::string summary;
  Template why;
  Fix fix;
  std::vector<std::string> sources;
  std::vector<RuleExample> examples;
  SourceLocation where;
  bool local_override = false;   // replaced a built-in rule of the same id
};

// The areas of the report, in the order `check` prints them.
const std::vector<std::pair<std::string, std::string>>& rule_areas();

}  // namespace rocmdoc
