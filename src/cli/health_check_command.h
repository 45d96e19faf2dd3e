// `rocmdoc check --health-check [--drain] [--timeout SECONDS] [--node NAME]`:
// the check as Slurm's HealthCheckProgram (or NHC's check_cmd_status) wants
// it: one line, exit 0 when healthy, a hard overall timeout, and with
// --drain the node drained for an error and resumed when healthy again
// (docs/fleet.md, Slurm).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <ostream>
#include <string>

#include "cli/cli_options.h"
#include "cli/commands.h"
#include "platform/process_runner.h"

namespace rocmdoc {

struct HealthCheckOptions {
  bool enabled = false;         // --health-check
  bool drain = false;           // --drain
  double timeout_seconds = 10;  // --timeout: well inside slurmd's 60 s
  bool timeout_given = false;
  std::string node;             // --node NAME
};

// Adds the options above to `check`.
void add_health_check_options(CLI::App* check, HealthCheckOptions& options);

// True when any of them was given: then main runs the health check.
inline bool wants_health_check(const HealthCheckOptions& o) {
  return o.enabled || o.drain || o.timeout_given || !o.node.empty();
}

// Exit codes: 0 healthy (warnings allowed), 1 an error finding or the
// timeout, 2 the check could not run (bad options, rules or root) or --drain
// could not update the node. `scontrol` runs Slurm's scontrol.
int run_health_check_command(const MachineOptions& machine, const CheckOptions& check,
                             const HealthCheckOptions& options, ProcessRunner& scontrol, std::ostream& out,
                             std::ostream& err);

// The part after the options are checked, for tests to give it any check:
// `check` runs in a child process bounded by the timeout and returns
// output/health_line.h's summary, or {"fail": why} when it cannot check.
int run_health_check(const HealthCheckOptions& options, const std::function<Json()>& check, ProcessRunner& scontrol,
                     std::ostream& out);

}  // namespace rocmdoc
