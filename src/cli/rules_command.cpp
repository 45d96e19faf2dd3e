#include <fmt/format.h>

#include "rocmdoc/check_report.h"
#include "rocmdoc/commands.h"
#include "rocmdoc/exit_codes.h"
#include "rocmdoc/rule_engine.h"

namespace rocmdoc {

void print_load_errors(const std::vector<LoadError>& errors, std::ostream& err);

namespace {

// Examples must prove both directions: a rule that never fires in its own
// examples, or always fires, shows nothing.
std::vector<std::string> missing_examples(const RuleSet& rules) {
  std::vector<std::string> out;
  for (auto& r : rules.rules) {
    bool fire = false, pass = false;
    for (auto& e : r.examples) fire |= e.expect == "fire", pass |= e.expect == "pass";
    if (!fire || !pass)
      out.push_back(fmt::format("{}: rule '{}' needs an example that {}", r.where.str(), r.id, !fire ? "fires" : "passes"));
  }
  return out;
}

}  // namespace

int run_rules_lint(const std::string& dir, std::ostream& out, std::ostream& err) {
  Knowledge k = load_knowledge({dir, ""});
  if (!k.errors.empty()) {
    print_load_errors(k.errors, err);
    return kExitUsage;
  }
  auto missing = missing_examples(k.rules);
  for (auto& m : missing) err << m << "\n";
  if (!missing.empty()) return kExitUsage;
  out << fmt::format("{} rules, {} lists, {} macros, matrix as of {}: no problems\n", k.rules.rules.size(),
                     k.rules.lists.size(), k.rules.macros.size(), k.matrix.as_of());
  return kExitOk;
}

int run_rules_test(const std::string& dir, std::ostream& out, std::ostream& err) {
  Knowledge k = load_knowledge({dir, ""});
  if (!k.errors.empty()) {
    print_load_errors(k.errors, err);
    return kExitUsage;
  }
  size_t run = 0;
  auto failures = run_examples(k.rules, k.functions, &run);
  for (auto& f : failures)
    err << fmt::format("{}: rule '{}', example '{}': expected {}, got {}{}\n", f.example->where.str(), f.rule->id,
                       f.example->name, f.example->expect, f.got, f.detail.empty() ? "" : " (" + f.detail + ")");
  auto missing = missing_examples(k.rules);
  for (auto& m : missing) err << m << "\n";
  out << fmt::format("{} passed, {} failed\n", run - failures.size(), failures.size());
  return failures.empty() && missing.empty() ? kExitOk : kExitProblems;
}

}  // namespace rocmdoc
