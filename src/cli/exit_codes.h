// Exit codes, documented in --help and README.md.
#pragma once

namespace rocmdoc {

struct RunReport;

enum ExitCode : int {
  kExitOk = 0,            // no problems (check) / done
  kExitProblems = 1,      // problems found (check), nothing recognised (explain)
  kExitUsage = 2,         // usage or input error: bad flags, bad file, bad rules, a corrupt journal
  kExitDeclined = 3,      // install/fix: the user said no (or no terminal and no --yes): nothing further changed
  kExitStepFailed = 4,    // install/fix: a step failed; the message names it, the log has its output
  kExitRebootNeeded = 5,  // install/fix: reboot, then run the same command again to carry on
};

// An install or fix run's outcome as its exit code: 0 finished, 3 declined,
// 4 failed, 5 reboot needed, 2 when the journal could not be read.
int exit_code_for(const RunReport& report);

}  // namespace rocmdoc
