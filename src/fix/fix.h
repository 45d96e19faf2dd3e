// The fix domain: the fixes of the findings `check` reports (automatic when
// every step has a command, print-only otherwise), an explain cause's fix
// rendered on the facts, and either as plan steps for the install executor
// (docs/fix.md). Returns data; the CLI prints.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "install/plan/plan.h"
#include "rules/knowledge.h"

namespace rocmdoc {

// One fix: a fired check rule's findings (one per item it fired for), or an
// explain cause's fix rendered on the facts.
struct FixCandidate {
  std::string id;                  // the rule or cause id
  std::string title;               // the first finding's title
  bool automatic = false;          // every step has a command
  bool from_explain = false;
  std::vector<RenderedStep> steps; // all findings' steps, identical ones once
  std::vector<std::vector<std::string>> verify;  // per finding: shows its fix worked
  bool reboot = false, relogin = false;
};

std::vector<FixCandidate> fixes_from_report(const CheckReport& report);

// Why an explain cause's fix cannot be applied by `rocmdoc fix`.
enum class CauseFixRefusal {
  needs_text,    // its fix depends on the error text explain judged it on
  needs_person,  // a step has no command
  ruled_out,     // this machine's facts rule the cause out
};
std::variant<FixCandidate, CauseFixRefusal> fix_from_cause(const Problem& cause, const Json& facts,
                                                          const std::map<std::string, Function>& functions);

// The fix as plan steps: one per command, as root where it says sudo and as
// the target user otherwise; the last step of each finding is done when its
// verify command succeeds as the target user.
InstallPlan plan_for_fix(const FixCandidate& fix, const std::string& user);

}  // namespace rocmdoc
