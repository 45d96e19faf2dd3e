// The one line `check --health-check` prints (for Slurm's
// HealthCheckProgram or NHC's check_cmd_status), and the drain reason it
// gives Slurm. The check runs in a child process (platform/bounded_call.h),
// so what it found crosses over as a small JSON summary.
#pragma once

#include <string>

#include "rules/knowledge.h"

namespace rocmdoc {

// {"errors": [{"id", "title"}...], "warnings": N, "infos": N}
Json health_summary(const CheckReport& report);

// "healthy (0 errors, 2 warnings)" or "ERROR amdgpu-blacklisted: <title> (+1 more error)".
std::string health_line(const Json& summary);

// "rocmdoc: amdgpu-blacklisted: <title> (+1 more error)": what a drain sets
// as the node's reason. It starts with "rocmdoc:" so a later healthy run
// knows the drain is its own.
std::string health_drain_reason(const Json& summary);

}  // namespace rocmdoc
