// deep: the workloads `rocmdoc check --deep` runs, as the user who will run
// ROCm: each interpreter that imports a torch runs a small fixed script
// (import, devices, one tensor op per device), and rocminfo and amd-smi run
// where they are installed. Every other probe reads files; this one is the
// only one that runs the user's software, so it runs only when asked
// (ProbeOptions::deep) and each command has a timeout.
//
// The argv builders are here so that tests (and a recorded machine) key the
// same commands the probe runs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "probe/probe.h"

namespace rocmdoc {

// What the section says when --deep was not given.
constexpr const char* kDeepNotRun = "not run: rocmdoc check --deep runs the workloads";

// Output kept in the facts per stream: enough for any error and its
// traceback, and a runaway tool cannot swell the document.
constexpr size_t kDeepOutputLimit = 64 * 1024;

// The Python program each interpreter runs with -c. It prints one line,
// kDeepResultMarker followed by a JSON object, last on standard output.
const std::string& deep_torch_script();
constexpr const char* kDeepResultMarker = "ROCMDOC-DEEP-RESULT ";

// The argv for one interpreter or tool, behind `run_as` (empty, or the
// runuser prefix that switches to the target user).
std::vector<std::string> deep_torch_argv(const std::vector<std::string>& run_as, const std::string& interpreter);
std::vector<std::string> deep_tool_argv(const std::vector<std::string>& run_as, const std::vector<std::string>& tool);

// How the workloads reach the target user, from the access section's
// `user`: no prefix when rocmdoc already runs as them, runuser's when root
// runs them for the sudo user; otherwise `refused` says why they cannot run.
struct DeepRunAs {
  std::vector<std::string> prefix;
  std::string user;
  std::optional<std::string> switched_by;
  std::string refused;
};
DeepRunAs deep_run_as(ProbeContext& ctx, const Json& access_user);

// Text kept from a stream: the first and last halves of `limit` around a
// note of what was cut (an error is at the start of a tool's output, a
// traceback at the end of Python's).
std::string bounded_output(const std::string& text, size_t limit = kDeepOutputLimit);

}  // namespace rocmdoc
