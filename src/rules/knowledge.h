// One `rocmdoc check` run: the facts, the rules, what each rule said, and
// the target release. Renderers (text, JSON) read it; nothing here prints.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rules/finding.h"
#include "rules/kernel_log_signatures.h"
#include "rules/matrix.h"
#include "rules/rule_loader.h"

namespace rocmdoc {

struct RuleSources {
  std::string rules_dir;         // --rules DIR, or empty for the built-in rules
  std::string local_rules_dir = "/etc/rocmdoc/rules.d";
  // Only explain and `rules` read text: check, fix and install skip
  // compiling the signatures' patterns (all but the few that opt in to the
  // kernel log, which every command with a catalogue compiles).
  bool compile_patterns = false;
  bool compile_built_in_patterns = true;  // LoadOptions
  bool examples = false;         // keep the examples: only `rules` runs them
  bool catalogue = true;         // install needs only the matrix
};

// Everything a check needs besides the facts, loaded and validated.
struct Knowledge {
  RuleSet catalogue;              // rules/catalogue/: problems, signatures, symptoms
  // On the heap: the matrix functions in `functions` point at it, so moving
  // a Knowledge must not move the matrix.
  std::unique_ptr<Matrix> matrix = std::make_unique<Matrix>();
  std::map<std::string, Function> functions;
  // The signatures that opt in to the kernel log, compiled for check and
  // explain alike (null without a catalogue).
  std::unique_ptr<KernelLogSignatures> kernel_log;
  std::vector<LoadError> errors;  // any error: nothing runs
};

Knowledge load_knowledge(const RuleSources& sources);

struct CheckReport {
  Json facts;                     // with the derived sections
  std::vector<RuleOutcome> outcomes;
  size_t errors = 0, warnings = 0, infos = 0, unknowns = 0;
  bool has_problems() const { return errors + warnings > 0; }
};

// The derived facts of `facts`: gpus and target (add_derived_facts), and
// the kernel-log signatures' matches. check and explain both call it.
void derive_facts(Json& facts, const Knowledge& knowledge, const std::optional<std::string>& rocm);

CheckReport run_check(Json facts, const Knowledge& knowledge, const std::optional<std::string>& rocm);

}  // namespace rocmdoc
