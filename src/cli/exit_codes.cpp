#include "cli/exit_codes.h"

#include "install/run/run.h"

namespace rocmdoc {

int exit_code_for(const RunReport& report) {
  if (report.input_error) return kExitUsage;
  switch (report.outcome) {
    case RunOutcome::finished: return kExitOk;
    case RunOutcome::reboot_needed: return kExitRebootNeeded;
    case RunOutcome::declined: return kExitDeclined;
    case RunOutcome::failed: return kExitStepFailed;
  }
  return kExitStepFailed;
}

}  // namespace rocmdoc
