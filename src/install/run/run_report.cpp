#include "install/run/run.h"

namespace rocmdoc {

const char* run_outcome_name(RunOutcome outcome) {
  switch (outcome) {
    case RunOutcome::finished: return "finished";
    case RunOutcome::reboot_needed: return "reboot_needed";
    case RunOutcome::declined: return "declined";
    case RunOutcome::failed: return "failed";
  }
  return "failed";
}

void print_run_report(const RunReport& report, std::ostream& out) {
  if (report.input_error) {
    out << "rocmdoc: " << report.message << "\n";
    return;
  }
  switch (report.outcome) {
    case RunOutcome::finished:
      out << "Done: " << report.steps_run << " step" << (report.steps_run == 1 ? "" : "s") << " run, "
          << report.steps_skipped << " already done.\n";
      break;
    case RunOutcome::reboot_needed: out << "Reboot needed (at " << report.step << "): " << report.message << "\n"; break;
    case RunOutcome::declined: out << "Stopped: " << report.message << "\n"; break;
    case RunOutcome::failed: out << "Failed at step " << report.step << ": " << report.message << "\n"; break;
  }
  if (!report.log.empty()) out << "Full log: " << report.log << "\n";
}

}  // namespace rocmdoc
