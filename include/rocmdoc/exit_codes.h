// Exit codes, documented in --help and README.md.
#pragma once

namespace rocmdoc {

enum ExitCode : int {
  kExitOk = 0,            // no problems (check) / done
  kExitProblems = 1,      // problems found (check), nothing recognised (explain)
  kExitUsage = 2,         // usage or input error: bad flags, bad file, bad rules
};

}  // namespace rocmdoc
