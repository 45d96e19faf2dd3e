// Whether a plan step is already done, decided on the machine itself: files
// through machine.fs, packages from dpkg's status file, keys and commands
// through machine.runner. The same evaluation serves `--dry-run` (the state
// column) and the executor (skip what is done, verify what it just did).
//
// Three answers, never a guess: done, todo (with what is missing), or
// unknown (with why it could not be read: an unreadable file, a tool that
// did not start on a recorded machine, a timeout).
#pragma once

#include <chrono>
#include <string>
#include <utility>

#include "install/run/executor.h"
#include "install/plan/plan.h"
#include "machine/machine.h"

namespace rocmdoc {

// Where the kernel tells this boot apart from the last one.
constexpr const char* kBootIdPath = "/proc/sys/kernel/random/boot_id";

struct CheckInputs {
  const Journal* journal = nullptr;  // for boot_changed: the boot id saved at the reboot request
  std::string user;                  // the target user (as_user commands; empty: as this process)
  std::string boot_id_path = kBootIdPath;  // read through machine.fs (tests point it elsewhere)
  std::chrono::milliseconds timeout{std::chrono::seconds(60)};  // per command a check runs
};

using StepEvaluation = std::pair<StepState, std::string>;

// One check. The reason says what was found: "done: ...", what is missing,
// or why it could not be read.
StepEvaluation evaluate_check(const StepCheck& check, Machine& machine, const CheckInputs& inputs);

// A step is done when every check is done; todo when one is todo (the first
// such reason); otherwise unknown (the first unknown reason). A step with no
// checks, or only always_todo ones, is todo.
StepEvaluation evaluate_step(const PlanStep& step, Machine& machine, const CheckInputs& inputs);
StepEvaluation evaluate_step(const PlanStep& step, Machine& machine, const Journal* journal);

// True when the step has a check that reads the machine's state (anything
// but always_todo and boot_changed, which only compares with the journal);
// such a step's state is decided by its checks, while a step without one
// counts as done once the journal records it.
bool has_real_checks(const PlanStep& step);

// The current boot id (trimmed), or the reason it cannot be read.
Result<std::string> read_boot_id(FileSystem& fs, const std::string& path = kBootIdPath);

}  // namespace rocmdoc
