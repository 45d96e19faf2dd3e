#include "cli/health_check_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "cli/exit_codes.h"
#include "cli/slurm_node.h"
#include "facts/facts_document.h"
#include "output/health_line.h"
#include "platform/bounded_call.h"
#include "rules/knowledge.h"

namespace rocmdoc {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// The check itself, in the bounded child: its summary, or {"fail": why}.
Json checked_summary(const MachineOptions& machine, const CheckOptions& check) {
  Knowledge knowledge = load_knowledge({check.rules_dir});
  if (!knowledge.errors.empty()) {
    size_t n = knowledge.errors.size();
    return {{"fail", knowledge.errors.front().str() + " (" + std::to_string(n) + (n == 1 ? " error" : " errors") +
                         " in the rules; nothing was checked)"}};
  }
  std::optional<std::string> rocm;
  if (!check.rocm.empty()) {
    rocm = knowledge.matrix->resolve_release(check.rocm);
    if (!rocm) return {{"fail", "--rocm " + check.rocm + " is not a release in the matrix"}};
  }
  auto loaded = machine_facts(machine, check.facts_file);
  if (!loaded) return {{"fail", loaded.error()}};
  return health_summary(run_check(std::move(loaded.value().facts), knowledge, rocm));
}

std::string seconds(double s) { return fmt::format("{:g} s", s); }

}  // namespace

void add_health_check_options(CLI::App* check, HealthCheckOptions& options) {
  check->add_flag("--health-check", options.enabled,
                  "For Slurm's HealthCheckProgram or NHC's check_cmd_status: one line, exit 0 when no error is "
                  "found (warnings are fine), 1 on an error or the timeout (docs/fleet.md)");
  check->add_flag("--drain", options.drain,
                  "With --health-check: drain this Slurm node (scontrol, reason \"rocmdoc: ID: title\") on an error "
                  "or the timeout, and resume it when healthy again if rocmdoc drained it; a node drained for any "
                  "other reason is left as it is. Warnings never drain");
  check->add_option_function<double>(
           "--timeout",
           [&options](double s) {
             options.timeout_seconds = s;
             options.timeout_given = true;
           },
           "With --health-check: the whole run's limit in seconds, scontrol included (default 10); a probe still "
           "reading then (a hung GPU's sysfs file) is killed and the run fails")
      ->type_name("SECONDS")
      ->check(CLI::Range(0.5, 3600.0));
  check->add_option("--node", options.node,
                    "With --drain: the Slurm node name (default: SLURMD_NODENAME, else the short host name)")
      ->type_name("NAME");
}

int run_health_check_command(const MachineOptions& machine, const CheckOptions& check,
                             const HealthCheckOptions& options, ProcessRunner& scontrol, std::ostream& out,
                             std::ostream& err) {
  if (!options.enabled) {
    err << "rocmdoc: --drain, --timeout and --node go with --health-check\n";
    return kExitUsage;
  }
  if (check.json || machine.probe.deep) {
    err << "rocmdoc: --health-check prints one line and runs the quick check: not with --json or --deep\n";
    return kExitUsage;
  }
  if (options.drain && slurm_node_name(options.node).empty()) {
    err << "rocmdoc: --drain: no node name (give --node NAME)\n";
    return kExitUsage;
  }
  return run_health_check(options, [&] { return checked_summary(machine, check); }, scontrol, out);
}

int run_health_check(const HealthCheckOptions& options, const std::function<Json()>& check, ProcessRunner& scontrol,
                     std::ostream& out) {
  std::string node = options.drain ? slurm_node_name(options.node) : "";
  auto timeout = milliseconds(static_cast<long long>(options.timeout_seconds * 1000));
  auto deadline = Clock::now() + timeout;
  // With --drain, scontrol keeps a quarter of the time (at most 2 s) even
  // when the check takes all the rest.
  milliseconds reserve = options.drain ? std::min(milliseconds(2000), timeout / 4) : milliseconds(0);
  BoundedCallResult call =
      call_with_deadline([&] { return facts_to_string(check(), -1); }, timeout - reserve);

  std::string line;
  int code = kExitOk;
  std::optional<std::string> reason;  // set: drain with it
  if (call.timed_out) {
    line = "TIMEOUT the check did not finish in " + seconds(options.timeout_seconds) +
           " (a probe hung: a stuck GPU, driver or filesystem read?)";
    reason = "rocmdoc: timeout: the check did not finish in " + seconds(options.timeout_seconds);
    code = kExitProblems;
  } else {
    Json summary = call.finished ? Json::parse(call.answer, nullptr, false) : Json();
    bool whole = summary.is_object() && (summary.contains("fail") || summary.contains("errors"));
    if (!call.finished || !whole || summary.contains("fail")) {
      std::string why = !call.finished ? "the check " + call.error
                        : !whole       ? "the check's answer is not a summary"
                                       : summary["fail"].get<std::string>();
      // An input error is the operator's to fix; it says nothing of the node,
      // so it never drains.
      out << "rocmdoc: cannot check: " << why << "\n";
      return kExitUsage;
    }
    line = health_line(summary);
    if (!summary.at("errors").empty()) {
      reason = health_drain_reason(summary);
      code = kExitProblems;
    }
  }
  if (options.drain) {
    SlurmNode slurm(scontrol, node, deadline);
    NodeUpdate update = reason ? slurm.drain(drain_reason(*reason)) : slurm.resume_if_ours();
    if (!update.said.empty()) line += "; " + update.said;
    if (!update.ok) code = std::max(code, static_cast<int>(kExitUsage));
  }
  out << "rocmdoc: " << line << "\n";
  return code;
}

}  // namespace rocmdoc
