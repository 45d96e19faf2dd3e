#include "fix/fix.h"

#include <algorithm>

#include "base/text.h"
#include "rules/rule_engine.h"

namespace rocmdoc {

namespace {

void add_finding(FixCandidate& fix, const Finding& finding) {
  if (fix.title.empty()) fix.title = finding.title;
  for (auto& step : finding.steps)
    if (std::find(fix.steps.begin(), fix.steps.end(), step) == fix.steps.end()) fix.steps.push_back(step);
  if (std::find(fix.verify.begin(), fix.verify.end(), finding.verify) == fix.verify.end())
    fix.verify.push_back(finding.verify);
}

bool all_automatic(const std::vector<RenderedStep>& steps) {
  return !steps.empty() &&
         std::all_of(steps.begin(), steps.end(), [](const RenderedStep& s) { return !s.argv.empty() && !s.incomplete; });
}

bool is_text_path(const std::string& p) { return starts_with(p, "text.") || p == "text"; }

bool reads_text(const Expr& e) {
  for (auto& p : referenced_paths(e))
    if (is_text_path(p)) return true;
  return false;
}

bool uses_text(const std::vector<Template>& templates) {
  for (auto& t : templates)
    for (size_t i = 0; i < t.placeholders.size(); ++i)
      if (i < t.calls.size() && t.calls[i] ? reads_text(*t.calls[i]) : is_text_path(t.placeholders[i])) return true;
  return false;
}

}  // namespace

std::vector<FixCandidate> fixes_from_report(const CheckReport& report) {
  std::vector<FixCandidate> fixes;
  for (auto& outcome : report.outcomes) {
    if (outcome.verdict != Verdict::fired || outcome.findings.empty()) continue;
    FixCandidate fix;
    fix.id = outcome.rule->id;
    fix.reboot = outcome.rule->fix.reboot;
    fix.relogin = outcome.rule->fix.relogin;
    for (auto& finding : outcome.findings) add_finding(fix, finding);
    fix.automatic = all_automatic(fix.steps);
    fixes.push_back(std::move(fix));
  }
  return fixes;
}

InstallPlan plan_for_fix(const FixCandidate& fix, const std::string& user) {
  InstallPlan plan;
  plan.distro = "fix " + fix.id;
  plan.user = user;
  for (size_t i = 0; i < fix.steps.size(); ++i) {
    const RenderedStep& rendered = fix.steps[i];
    PlanStep step;
    step.id = fix.id + "-" + std::to_string(i + 1);
    step.title = rendered.text;
    step.needs_root = rendered.sudo;
    StepAction action;
    action.kind = StepAction::Kind::run;
    action.argv = rendered.argv;
    action.as_user = !rendered.sudo;
    step.actions.push_back(std::move(action));
    plan.steps.push_back(std::move(step));
  }
  // The fix is verified once all its commands ran: the last step is done
  // when every finding's verify command succeeds (as the user it is for).
  if (!plan.steps.empty())
    for (auto& verify : fix.verify) {
      if (verify.empty()) continue;
      StepCheck check;
      check.kind = StepCheck::Kind::command_succeeds;
      check.argv = verify;
      check.as_user = true;
      plan.steps.back().checks.push_back(std::move(check));
    }
  if (!plan.steps.empty()) plan.steps.back().reboot_after = fix.reboot;
  return plan;
}

std::variant<FixCandidate, CauseFixRefusal> fix_from_cause(const Problem& cause, const Json& facts,
                                                          const std::map<std::string, Function>& functions) {
  const Rule& rule = cause.rule;
  bool needs_text = uses_text(rule.fix.verify);
  bool manual = rule.fix.steps.empty();
  for (auto& step : rule.fix.steps) {
    needs_text = needs_text || uses_text(step.argv) || uses_text({step.text}) || (step.when && reads_text(*step.when));
    manual = manual || step.argv.empty();
  }
  if (manual) return CauseFixRefusal::needs_person;
  if (needs_text) return CauseFixRefusal::needs_text;
  RuleOutcome outcome = judge_problem(cause, facts, functions);
  if (outcome.verdict == Verdict::passed || outcome.verdict == Verdict::not_applicable)
    return CauseFixRefusal::ruled_out;
  FixCandidate fix;
  Finding finding = describe_rule(rule, facts, functions);
  fix.id = rule.id;
  fix.from_explain = true;
  fix.reboot = rule.fix.reboot;
  fix.relogin = rule.fix.relogin;
  add_finding(fix, finding);
  fix.automatic = all_automatic(fix.steps);
  return fix;
}

}  // namespace rocmdoc
