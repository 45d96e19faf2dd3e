#include <fmt/format.h>

#include "rules/knowledge.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "install/plan/recipe.h"
#include "explain/log_scanner.h"
#include "rules/rule_engine.h"

namespace rocmdoc {

namespace {

// Whether a rule's examples show it holding (expect: fire) and not (pass).
struct BothWays {
  bool fire = false, pass = false;
};
BothWays both_ways(const std::vector<RuleExample>& examples) {
  BothWays b;
  for (auto& e : examples) b.fire |= e.expect == "fire", b.pass |= e.expect == "pass";
  return b;
}

// Examples must prove both directions: a rule that never fires in its own
// examples, or always fires, shows nothing.
std::vector<std::string> missing_examples(const RuleSet& rules) {
  std::vector<std::string> out;
  // A problem only a text decides has nothing to prove with facts.
  for (auto& p : rules.problems) {
    auto [fire, pass] = both_ways(p.rule.examples);
    // A rule-out alone never confirms: it needs an example that it rules out.
    if (!p.rule.when && !p.when_in_text) {
      if (p.ruled_out_in_text && !pass)
        out.push_back(fmt::format("{}: problem '{}' needs an example that its ruled_out_in_text rules out (expect: pass)",
                                  p.rule.where.str(), p.rule.id));
      continue;
    }
    if (!fire || !pass)
      out.push_back(fmt::format("{}: problem '{}' needs an example that {}", p.rule.where.str(), p.rule.id,
                                !fire ? "fires" : "passes"));
  }
  for (auto& s : rules.symptoms) {
    if (!s.not_here.when) continue;
    auto [fire, pass] = both_ways(s.not_here.examples);
    if (!fire || !pass)
      out.push_back(fmt::format("{}: symptom '{}' needs a not_here example that {}", s.not_here.where.str(), s.id,
                                !fire ? "holds (expect: fire)" : "does not (expect: pass)"));
  }
  // A signature's and a fragment's lines: one it matches and one it does not.
  auto both_lines = [&](const std::vector<SignatureExample>& examples, const SourceLocation& where, const char* kind,
                        const std::string& name) {
    bool match = false, no_match = false;
    for (auto& e : examples) match |= e.match, no_match |= !e.match;
    if (!match || !no_match)
      out.push_back(fmt::format("{}: {} '{}' needs a {} example", where.str(), kind, name, !match ? "match" : "no_match"));
  };
  for (auto& s : rules.signatures) both_lines(s.examples, s.where, "signature", s.id);
  for (auto& [name, f] : rules.fragments) both_lines(f.examples, f.where, "fragment", name);
  return out;
}

// A title that names facts reads as "(path not known) ..." wherever they are
// not known (explain without a machine, a candidate the facts do not reach):
// such a problem says what it is without them too.
std::vector<std::string> missing_summaries(const RuleSet& rules) {
  std::vector<std::string> out;
  for (auto& p : rules.problems)
    if (!p.rule.title.placeholders.empty() && p.rule.summary.empty())
      out.push_back(fmt::format("{}: problem '{}' needs a summary: its title names facts ({{{}}}), and the summary is "
                                "what explain shows when they are not known",
                                p.rule.where.str(), p.rule.id, p.rule.title.placeholders.front()));
  return out;
}

Knowledge load_all(const std::string& dir, InstallRecipes* recipes_out = nullptr) {
  RuleSources sources{dir, ""};
  sources.compile_patterns = true;
  sources.examples = true;
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
  auto missing = missing_examples(k.catalogue);
  auto summaries = missing_summaries(k.catalogue);
  missing.insert(missing.end(), summaries.begin(), summaries.end());
  for (auto& m : missing) err << m << "\n";
  if (!missing.empty()) return kExitUsage;
  auto& c = k.catalogue;
  size_t checked = std::count_if(c.problems.begin(), c.problems.end(), [](const Problem& p) { return p.checked(); });
  out << fmt::format("{} problems ({} checked on facts), {} symptoms, {} signatures, {} lists, {} macros, "
                     "{} fragments; matrix as of {}: no problems\n",
                     c.problems.size(), checked, c.symptoms.size(), c.signatures.size(), c.lists.size(),
                     c.macros.size(), c.fragments.size(), k.matrix->as_of());
  return kExitOk;
}

int run_rules_patterns(const std::string& dir, std::ostream& out, std::ostream& err) {
  Knowledge k = load_all(dir);
  if (!k.errors.empty()) {
    print_load_errors(k.errors, err);
    return kExitUsage;
  }
  // One line each, for a tool that matches lines: a signature that also
  // needs its line before (`after`), or a line without its denial
  // (`unless`), is no single-line pattern, and left out.
  for (auto& s : k.catalogue.signatures)
    if (s.after.empty() && s.unless.empty()) out << s.pattern << "\n";
  return kExitOk;
}

int run_rules_test(const std::string& dir, std::ostream& out, std::ostream& err) {
  Knowledge k = load_all(dir);
  if (!k.errors.empty()) {
    print_load_errors(k.errors, err);
    return kExitUsage;
  }
  ExamplesRun run;
  size_t signature_run = 0;
  auto failures = run_examples(k.catalogue, k.functions, &run);
  for (auto& f : failures)
    err << fmt::format("{}: {} '{}', {}example '{}': expected {}, got {}{}\n", f.example->where.str(),
                       f.not_here ? "symptom" : "problem", f.rule->id, f.not_here ? "not_here " : "", f.example->name,
                       f.example->expect, f.got, f.detail.empty() ? "" : " (" + f.detail + ")");
  auto signature_failures = run_signature_examples(k.catalogue.signatures, &signature_run);
  for (auto& f : signature_failures) err << f << "\n";
  size_t fragment_run = 0;
  auto fragment_failures = run_fragment_examples(k.catalogue.fragments, &fragment_run);
  for (auto& f : fragment_failures) err << f << "\n";
  auto missing = missing_examples(k.catalogue);
  for (auto& m : missing) err << m << "\n";
  size_t total = run.problem + run.not_here + signature_run + fragment_run;
  size_t failed = failures.size() + signature_failures.size() + fragment_failures.size();
  out << fmt::format("{} passed, {} failed ({} problem, {} not_here, {} signature and {} fragment examples)\n",
                     total - failed, failed, run.problem, run.not_here, signature_run, fragment_run);
  return failed == 0 && missing.empty() ? kExitOk : kExitProblems;
}

}  // namespace rocmdoc
