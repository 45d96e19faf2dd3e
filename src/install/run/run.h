// The executor: runs an install plan (or a fix) through a SystemChanger,
// asking the Consent before each change and keeping the journal, so a
// reboot, Ctrl-C, a kill or a power cut loses nothing and a re-run repeats
// nothing that was done (install_executor.h has the types).
//
// For each step, in order:
//   1. evaluate its checks: done -> skip (recorded in the journal); a step
//      without real checks (only always_todo) counts as done once the
//      journal of this plan records it;
//   2. a gate (no actions) not done -> stop, failed, with the check's reason;
//   3. ask consent (no -> stop, declined, nothing of this step changed);
//   4. run its actions in order; a downloaded key must carry the step's
//      fingerprint before anything uses it; a non-zero exit -> failed, with
//      the step, the command and the tail of its output;
//   5. evaluate again (a step with real checks still not done -> failed);
//   6. write the journal (atomically, with the boot id and the time; only
//      when it changed). A journal that cannot be written (a full disk, a
//      read-only /var) stops the run, failed: the file keeps what was
//      recorded before, and the message says what is not recorded.
// The journal is keyed on plan_key(plan) (install_planner.h): a journal of
// another plan (release, distro, driver, torch) is started afresh.
// A reboot action saves the boot id in the journal and stops (reboot_needed);
// the next run sees another boot id, so the reboot step's boot_changed
// check is done, and carries on.
#pragma once

#include <istream>
#include <memory>
#include <ostream>
#include <string>

#include "install/run/executor.h"
#include "install/run/progress.h"

namespace rocmdoc {

// Progress goes to `out`: plain lines, or with style.live a status line
// redrawn in place (progress.h).
RunReport run_plan(const InstallPlan& plan, Machine& machine, SystemChanger& changer, Consent& consent,
                   const ExecutorPaths& paths, std::ostream& out, const ProgressStyle& style = {});

const char* run_outcome_name(RunOutcome outcome);

// Prints the report's outcome for a person: what happened, where the log is.
void print_run_report(const RunReport& report, std::ostream& out);

// Consent (consent.cpp). On a terminal: shows the step and exactly what it
// changes, and asks y/N. --yes: always yes. Neither: always no, and the run
// changes nothing (kNoTerminalMessage says so).
class TerminalConsent : public Consent {
 public:
  TerminalConsent(std::istream& in, std::ostream& out) : in_(in), out_(out) {}
  bool ask(const PlanStep& step) override;

 private:
  std::istream& in_;
  std::ostream& out_;
};
class YesConsent : public Consent {
 public:
  bool ask(const PlanStep&) override { return true; }
};
class NoTerminalConsent : public Consent {
 public:
  bool ask(const PlanStep&) override { return false; }
};
constexpr const char* kNoTerminalMessage =
    "no terminal and no --yes: nothing was changed (run it on a terminal to be asked, or add --yes)";
// --yes, else a terminal on standard input (prompts on `out`), else no.
std::unique_ptr<Consent> choose_consent(bool yes, bool stdin_is_terminal, std::istream& in, std::ostream& out);
// The lines a prompt and --dry-run show for a step's changes.
std::string describe_changes(const PlanStep& step);

// The live SystemChanger (system_changer.cpp): files under "/" written
// atomically (parent directories made 0755 when missing), processes without a
// shell (as_user: runuser -u USER --), downloads with curl to a temporary file
// then renamed, keys through gpg. Needs root for most of what plans do.
class LiveSystemChanger : public SystemChanger {
 public:
  explicit LiveSystemChanger(std::string boot_id_path = "/proc/sys/kernel/random/boot_id")
      : boot_id_path_(std::move(boot_id_path)) {}
  Result<bool> write_file(const std::string& path, const std::string& content, unsigned mode) override;
  Result<int> run(const std::vector<std::string>& argv, const std::string& as_user,
                  const std::function<void(std::string_view)>& output) override;
  Result<bool> download(const std::string& url, const std::string& path) override;
  Result<std::vector<std::string>> key_fingerprints(const std::string& path) override;
  Result<bool> dearmor_key(const std::string& source, const std::string& path) override;
  std::string boot_id() override;

 private:
  std::string boot_id_path_;
};

}  // namespace rocmdoc
