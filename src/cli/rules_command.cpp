#include <fmt/format.h>

#include "rules/knowledge.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "install/plan/recipe.h"
#include "explain/log_scanner.h"
#include "rules/rule_engine.h"

namespace rocmdoc {

namespace {

// Examples must prove both directions: a rule that never fires in its own
// examples, or always fires, shows nothing.
std::vector<std::string> missing_examples(const RuleSet& rules) {
  std::vector<std::string> out;
  auto check = [&](const Rule& r, const char* what) {
    bool fire = false, pass = false;
    for (auto& e : r.examples) fire |= e.expect == "fire", pass |= e.expect == "pass";
    if (!fire || !pass)
      out.push_back(fmt::format("{}: {} '{}' needs an example that {}", r.where.str(), what, r.id, !fire ? "fires" : "passes"));
  };
  for (auto& r : rules.rules) check(r, "rule");
  // A cause decided by the text alone has nothing to prove with facts.
  for (auto& c : rules.causes)
    if (c.rule.when) check(c.rule, "cause");
  for (auto& s : rules.signatures) {
    bool match = false, no_match = false;
    for (auto& e : s.examples) match |= e.match, no_match |= !e.match;
    if (!match || !no_match)
      out.push_back(fmt::format("{}: signature '{}' needs a {} example", s.where.str(), s.id, !match ? "match" : "no_match"));
  }
  return out;
}

// The causes with a condition, as a rule set run_examples can run.
RuleSet cause_rules(const RuleSet& errors) {
  RuleSet set;
  for (auto& c : errors.causes)
    if (c.rule.when) set.rules.push_back(c.rule);
  return set;
}

Knowledge load_all(const std::string& dir, InstallRecipes* recipes_out = nullptr) {
  RuleSources sources{dir, ""};
  sources.errors = true;
  Knowledge k = load_knowledge(sources);
  // The install recipes are rules too: lint validates them strictly.
  InstallRecipes recipes = load_install_recipes_from(dir, k.errors);
  if (recipes_out) *recipes_out = std::move(recipes);
  return k;
}

}  // namespace

int run_rules_lint(const std::string& dir, std::ostream& out, std::ostream& err) {
  InstallRecipes recipes;
  Knowledge k = load_all(dir, &recipes);
  if (!k.errors.empty()) {
    print_load_errors(k.errors, err);
    return kExitUsage;
  }
  // Warnings, not errors: the matrix may not know a release's distributions yet.
  for (auto& w : recipe_pairs_missing_from_matrix(recipes, *k.matrix)) err << w.where.str() << ": warning: " << w.message << "\n";
  auto missing = missing_examples(k.rules), missing_errors = missing_examples(k.error_rules);
  missing.insert(missing.end(), missing_errors.begin(), missing_errors.end());
  for (auto& m : missing) err << m << "\n";
  if (!missing.empty()) return kExitUsage;
  out << fmt::format("{} rules, {} lists, {} macros; {} signatures, {} causes; matrix as of {}: no problems\n",
                     k.rules.rules.size(), k.rules.lists.size(), k.rules.macros.size(), k.error_rules.signatures.size(),
                     k.error_rules.causes.size(), k.matrix->as_of());
  return kExitOk;
}

int run_rules_patterns(const std::string& dir, std::ostream& out, std::ostream& err) {
  Knowledge k = load_all(dir);
  if (!k.errors.empty()) {
    print_load_errors(k.errors, err);
    return kExitUsage;
  }
  for (auto& s : k.error_rules.signatures) out << s.pattern << "\n";
  return kExitOk;
}

int run_rules_test(const std::string& dir, std::ostream& out, std::ostream& err) {
  Knowledge k = load_all(dir);
  if (!k.errors.empty()) {
    print_load_errors(k.errors, err);
    return kExitUsage;
  }
  size_t run = 0, cause_run = 0, signature_run = 0;
  RuleSet causes = cause_rules(k.error_rules);
  auto failures = run_examples(k.rules, k.functions, &run);
  auto cause_failures = run_examples(causes, k.functions, &cause_run);
  failures.insert(failures.end(), cause_failures.begin(), cause_failures.end());
  for (auto& f : failures)
    err << fmt::format("{}: rule '{}', example '{}': expected {}, got {}{}\n", f.example->where.str(), f.rule->id,
                       f.example->name, f.example->expect, f.got, f.detail.empty() ? "" : " (" + f.detail + ")");
  auto signature_failures = run_signature_examples(k.error_rules.signatures, &signature_run);
  for (auto& f : signature_failures) err << f << "\n";
  auto missing = missing_examples(k.rules), missing_errors = missing_examples(k.error_rules);
  for (auto& m : missing) err << m << "\n";
  for (auto& m : missing_errors) err << m << "\n";
  size_t total = run + cause_run + signature_run, failed = failures.size() + signature_failures.size();
  out << fmt::format("{} passed, {} failed ({} rule, {} cause and {} signature examples)\n", total - failed, failed, run,
                     cause_run, signature_run);
  return failed == 0 && missing.empty() && missing_errors.empty() ? kExitOk : kExitProblems;
}

}  // namespace rocmdoc
