// rocmdoc install: plan from the facts, show it (--dry-run, --json), or run
// it through the executor with consent, journal and log (docs/install.md).
#pragma once

#include <istream>
#include <ostream>
#include <string>

#include "cli/cli_options.h"

namespace rocmdoc {

struct InstallCommandOptions {
  bool auto_install = false;  // --auto: carry the plan out
  bool dry_run = false;       // --dry-run: show each step's state and what would change; change nothing
  bool json = false;          // --json: the plan (or refusal) as JSON
  bool yes = false;           // --yes: no questions
  bool resume = false;        // --resume: carry on a journal's plan (after a reboot or an interruption)
  std::string rocm;           // --rocm X.Y.Z (or X.Y: the newest X.Y.z covered)
  bool no_driver = false;
  bool no_torch = false;
  bool keep_kernel = false;
  std::string venv;
  std::string user;
  std::string trust_key;      // --trust-key FINGERPRINT (spaces allowed, any case)
  std::string from;           // --from amd|distro; empty: AMD's unless the recipe prefers the distribution's here
  std::string facts_file;     // --facts FILE (with --dry-run)
  std::string rules_dir;      // --rules DIR
  bool color = false;              // decided by main for standard output (terminal_habits.h), as are:
  size_t width = 0;                // the columns to wrap the plan to; 0: not wrapped
  bool stdout_is_terminal = false; // the running step is a status line redrawn in place
  bool stdin_is_terminal = false;  // consent can be asked
};

int run_install_command(const MachineOptions& machine, const InstallCommandOptions& options, std::istream& in,
                        std::ostream& out, std::ostream& err);

}  // namespace rocmdoc
