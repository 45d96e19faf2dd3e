// rocmdoc fix: the fixes of the findings `check` reports here (automatic
// when every step has a command, print-only otherwise), and applying one
// through the install executor, with the same consent, journal and log
// (docs/fix.md).
#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "rocmdoc/check_report.h"
#include "rocmdoc/cli_options.h"
#include "rocmdoc/install_run.h"

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
// The fix as plan steps: one per command, as root where it says sudo and as
// the target user otherwise; the last step of each finding is done when its
// verify command succeeds as the target user.
InstallPlan plan_for_fix(const FixCandidate& fix, const std::string& user);

// For tests: the machine, the changer and the consent to use instead of the
// live ones (then --root is not needed for a real run).
struct FixHooks {
  Machine* machine = nullptr;
  SystemChanger* changer = nullptr;
  Consent* consent = nullptr;
};

struct FixOptions {
  std::string id;            // empty: list the fixes
  bool dry_run = false;
  bool yes = false;
  std::string facts_file;    // --facts FILE (only with --dry-run or the list)
  std::string rules_dir;
  bool stdin_is_terminal = false;
  std::string state_dir = "/var/lib/rocmdoc";  // journals: fix-<id>.json
  std::string log_dir = "/var/log/rocmdoc";
  FixHooks hooks;
};

// 0 applied (or listed, or the dry run shown), 1 not applicable here (the
// finding does not fire, or its fix is print-only), 2 usage error or an
// unknown id, 3 declined, 4 a step failed, 5 reboot needed.
int run_fix_command(const MachineOptions& machine, const FixOptions& options, std::istream& in, std::ostream& out,
                    std::ostream& err);

}  // namespace rocmdoc
