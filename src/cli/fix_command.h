// rocmdoc fix: lists the fixes of what `check` reports here (fix/fix.h), or
// applies one through the install executor, with the same consent, journal
// and log (docs/fix.md).
#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_options.h"
#include "fix/fix.h"
#include "install/run/run.h"

namespace rocmdoc {

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
  bool stdin_is_terminal = false;   // decided by main (terminal_habits.h), as are:
  bool stdout_is_terminal = false;  // the running step is a status line redrawn in place
  size_t width = 0;                 // the columns to wrap the list to; 0: not wrapped
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
