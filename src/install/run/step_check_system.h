// The step checks that ask the system itself (df, fcntl locks) and the
// reading of apt's simulation; split from step_check.cpp to keep it short.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "install/run/step_check.h"

namespace rocmdoc {

std::string nearest_existing(FileSystem& fs, const std::string& path);
StepEvaluation check_free_space(const StepCheck& check, Machine& machine, std::chrono::milliseconds timeout);
StepEvaluation check_lock_free(const StepCheck& check, Machine& machine);
// The packages `apt-get -s` would remove ("Remv pkg [ver]" and "Purg" lines).
std::vector<std::string> simulated_removals(const std::string& apt_output);

}  // namespace rocmdoc
