#include "install/run/run.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>

#include "formats/gpg_key_listing.h"
#include "install/run/progress.h"
#include "install/run/run_log.h"
#include "install/plan/planner.h"  // plan_key: the journal's key
#include "install/run/step_check.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

std::string joined(const std::vector<std::string>& argv) {
  std::string out;
  for (size_t i = 0; i < argv.size(); ++i) out += (i ? " " : "") + argv[i];
  return out;
}

std::string seconds_since(std::chrono::steady_clock::time_point start) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1fs", static_cast<double>(ms) / 1000.0);
  return buffer;
}

// The state of one run: the plan, the doors to the machine, the journal.
class Executor {
 public:
  Executor(const InstallPlan& plan, Machine& machine, SystemChanger& changer, Consent& consent,
           const ExecutorPaths& paths, Progress& progress, Journal journal, std::string journal_on_disk)
      : plan_(plan), machine_(machine), changer_(changer), consent_(consent), paths_(paths), progress_(progress),
        journal_(std::move(journal)), journal_on_disk_(std::move(journal_on_disk)),
        log_(changer, *machine.fs, paths, utc_timestamp()) {
    inputs_.journal = &journal_;
    inputs_.user = plan.user;
    inputs_.boot_id_path = paths.boot_id;
  }

  RunReport run();

 private:
  // false: the run stops here (report_ says why).
  bool run_step(size_t index);
  enum class Skip { not_done, skipped, stopped };
  Skip skip_if_done(const PlanStep& step, const std::string& counter);
  bool apply(const PlanStep& step, const StepAction& action);
  bool run_command(const PlanStep& step, const StepAction& action);
  bool verify_key(const PlanStep& step, const std::string& path, const std::string& fingerprint);
  std::string expected_fingerprint(const PlanStep& step, const std::string& source) const;
  bool recorded(const std::string& step_id) const;
  // false: the journal could not be written, and the run stopped.
  bool record(const PlanStep& step);
  bool save_journal(const PlanStep& step, const std::string& unrecorded);
  void finish_log();
  bool stop(RunOutcome outcome, const PlanStep& step, std::string message);

  const InstallPlan& plan_;
  Machine& machine_;
  SystemChanger& changer_;
  Consent& consent_;
  const ExecutorPaths& paths_;
  Progress& progress_;
  Journal journal_;
  std::string journal_on_disk_;  // its text as last read or written: an unchanged journal is not rewritten
  RunLog log_;
  CheckInputs inputs_;
  std::string boot_id_;
  RunReport report_;
};

bool has_reboot(const PlanStep& step) {
  return std::any_of(step.actions.begin(), step.actions.end(),
                     [](const StepAction& a) { return a.kind == StepAction::Kind::reboot; });
}

// The step's way on, for a stop where it is still not done: " (...)", or
// nothing where the step has none.
std::string still_not_done_advice(const PlanStep& step) {
  return step.if_still_not_done.empty() ? "" : " (" + step.if_still_not_done + ")";
}

bool Executor::recorded(const std::string& step_id) const {
  return std::any_of(journal_.done.begin(), journal_.done.end(), [&](const JournalEntry& e) { return e.step == step_id; });
}

// A journal that cannot be written stops the run: going on would leave
// work a later run cannot see (a step without checks would run twice, a
// reboot request would be forgotten). The write is atomic, so the file on
// disk still holds everything recorded before.
bool Executor::save_journal(const PlanStep& step, const std::string& unrecorded) {
  std::string text = journal_to_string(journal_);
  if (text == journal_on_disk_) return true;
  auto written = changer_.write_file(paths_.journal, text, 0644);
  if (written) {
    journal_on_disk_ = std::move(text);
    return true;
  }
  return stop(RunOutcome::failed, step,
              "the journal " + paths_.journal + " could not be written (" + written.error() + "): " + unrecorded +
                  ". It still holds what earlier steps recorded: free space there (or make it writable), then run the "
                  "same command again");
}

bool Executor::record(const PlanStep& step) {
  if (!recorded(step.id)) journal_.done.push_back({step.id, utc_timestamp(), boot_id_});
  // A reboot step is done once: a later reboot step waits for its own reboot.
  if (has_reboot(step)) journal_.clear_reboot_request();
  return save_journal(step, step.id + " is done but not recorded");
}

bool Executor::stop(RunOutcome outcome, const PlanStep& step, std::string message) {
  report_.outcome = outcome;
  report_.step = step.id;
  report_.message = std::move(message);
  progress_.step_stopped(outcome == RunOutcome::reboot_needed ? "reboot needed" : run_outcome_name(outcome));
  log_.line("stopped at " + step.id + ": " + report_.message);
  finish_log();
  return false;
}

// The log could not be written (a read-only /var/log, no root): the report
// says so instead of naming a file that is not there.
void Executor::finish_log() {
  log_.flush();
  if (log_.write_error().empty()) return;
  report_.log.clear();
  report_.message += " (the log could not be written: " + log_.write_error() + ")";
}

Executor::Skip Executor::skip_if_done(const PlanStep& step, const std::string& counter) {
  auto [state, why] = evaluate_step(step, machine_, inputs_);
  bool done = state == StepState::done || (!has_real_checks(step) && recorded(step.id));
  if (!done) return Skip::not_done;
  if (state != StepState::done) why = "done in an earlier run";
  progress_.line(counter + step.title + ": already done (" + why + ")");
  log_.line(counter + step.id + ": already done: " + why);
  if (!recorded(step.id) && !record(step)) return Skip::stopped;
  ++report_.steps_skipped;
  return Skip::skipped;
}

std::string Executor::expected_fingerprint(const PlanStep& step, const std::string& source) const {
  for (auto& a : step.actions)
    if (a.kind == StepAction::Kind::download && a.path == source && !a.fingerprint.empty()) return a.fingerprint;
  for (auto& c : step.checks)
    if (c.kind == StepCheck::Kind::key_fingerprint && !c.value.empty()) return c.value;
  return "";
}

bool Executor::verify_key(const PlanStep& step, const std::string& path, const std::string& fingerprint) {
  if (fingerprint.empty())
    return stop(RunOutcome::failed, step, "no fingerprint to check " + path + " against: refusing to use it as a key");
  auto found = changer_.key_fingerprints(path);
  if (!found) return stop(RunOutcome::failed, step, "the key " + path + " cannot be read: " + found.error());
  std::string wanted = normalize_fingerprint(fingerprint);
  // The keyring gets every key of the file: one more key beside the right
  // one would be trusted for the repository too.
  if (found->size() > 1)
    return stop(RunOutcome::failed, step,
                "the key file " + path + " holds " + std::to_string(found->size()) + " keys (" + joined(*found) +
                    "), not just " + wanted + ": refusing to use it");
  if (found->size() == 1 && normalize_fingerprint(found->front()) == wanted) {
    log_.line("  the key " + path + " carries " + wanted);
    return true;
  }
  std::string got = found->empty() ? "no key at all" : joined(*found);
  return stop(RunOutcome::failed, step,
              "the key " + path + " has the fingerprint " + got + ", not " + wanted + ": refusing to use it");
}

bool Executor::run_command(const PlanStep& step, const StepAction& action) {
  log_.start_command();
  // On disk before it runs: after a kill or a power cut in a long command
  // (a DKMS build), the log says which step and command were running.
  log_.flush();
  std::string user = action.as_user ? plan_.user : "";
  auto started = std::chrono::steady_clock::now();
  std::string command = joined(action.argv);
  progress_.command(command);
  // Each piece of output, and the changer's heartbeat while the command is
  // silent, moves the status line's clock.
  auto status = changer_.run(action.argv, user, [&](std::string_view data) {
    log_.output(data);
    progress_.tick();
  });
  log_.flush();
  std::string tail = log_.tail(5);
  if (!status) return stop(RunOutcome::failed, step, "`" + command + "` could not run: " + status.error());
  // On a terminal the status line showed it run; a failure's last lines are
  // in the report.
  if (!progress_.live()) {
    for (auto& line : split_lines(tail)) progress_.line("    | " + line);
    progress_.line("    `" + command + "` exited " + std::to_string(*status) + " after " + seconds_since(started));
  }
  if (*status != 0)
    return stop(RunOutcome::failed, step,
                "`" + command + "` exited " + std::to_string(*status) + (tail.empty() ? "" : "; its last lines:\n" + tail));
  return true;
}

bool Executor::apply(const PlanStep& step, const StepAction& action) {
  using K = StepAction::Kind;
  log_.line("  " + action.describe());
  switch (action.kind) {
    case K::run: return run_command(step, action);
    case K::write_file: {
      auto w = changer_.write_file(action.path, action.content, action.mode);
      return w ? true : stop(RunOutcome::failed, step, "writing " + action.path + " failed: " + w.error());
    }
    case K::download: {
      // Downloads are signing keys: without a fingerprint to check, none is fetched.
      if (action.fingerprint.empty())
        return stop(RunOutcome::failed, step, "no fingerprint to check " + action.url + " against: not downloading it");
      auto d = changer_.download(action.url, action.path);
      if (!d) return stop(RunOutcome::failed, step, "downloading " + action.url + " failed: " + d.error());
      return verify_key(step, action.path, action.fingerprint);
    }
    case K::dearmor_key: {
      // Checked again right before use: the file is the one that is used.
      if (!verify_key(step, action.source, expected_fingerprint(step, action.source))) return false;
      auto k = changer_.dearmor_key(action.source, action.path);
      return k ? true : stop(RunOutcome::failed, step, "converting the key to " + action.path + " failed: " + k.error());
    }
    case K::reboot: break;
  }
  return true;
}

bool Executor::run_step(size_t index) {
  const PlanStep& step = plan_.steps[index];
  std::string counter = "[" + std::to_string(index + 1) + "/" + std::to_string(plan_.steps.size()) + "] ";
  switch (skip_if_done(step, counter)) {
    case Skip::skipped: return true;
    case Skip::stopped: return false;
    case Skip::not_done: break;
  }
  auto [state, why] = evaluate_step(step, machine_, inputs_);
  if (!step.changes_machine()) {
    progress_.line(counter + step.title + ": not ready");
    return stop(RunOutcome::failed, step, step.title + ": " + why);
  }
  bool reboots = has_reboot(step);
  if (reboots && journal_.reboot_requested_in_boot == boot_id_) {
    // The pending reboot is this step's now: asked for by a step the plan
    // dropped (kernel-reboot, before --keep-kernel), it would be cleared
    // after the reboot as that step's and this one asked for again.
    if (journal_.reboot_requested_by != step.id) {
      journal_.reboot_requested_by = step.id;
      if (!save_journal(step, "the reboot request is not recorded, so do not reboot yet")) return false;
    }
    return stop(RunOutcome::reboot_needed, step, "the reboot asked for earlier has not happened yet: reboot, then run again");
  }
  // Its reboot happened and it is still not done (the kernel-reboot booted
  // another kernel than the listed one): another reboot would do the same.
  if (reboots && !journal_.reboot_requested_in_boot.empty() && journal_.reboot_requested_by == step.id)
    return stop(RunOutcome::failed, step,
                "the machine rebooted, and " + step.title + " is still not done: " + why + still_not_done_advice(step));
  if (!consent_.ask(step)) return stop(RunOutcome::declined, step, "declined at \"" + step.title + "\": it was not changed");
  progress_.start_step(counter, step.title);
  log_.line(counter + step.id + ": " + step.title + " (" + why + ")");
  auto started = std::chrono::steady_clock::now();
  for (auto& action : step.actions) {
    if (action.kind == StepAction::Kind::reboot) {
      journal_.request_reboot(boot_id_, step.id);
      if (!save_journal(step, "the reboot request is not recorded, so do not reboot yet")) return false;
      return stop(RunOutcome::reboot_needed, step, "reboot now; then run the same command again to carry on");
    }
    if (!apply(step, action)) return false;
  }
  // A change that needs a reboot, made now: a reboot of an earlier boot
  // came before it and does not count for the reboot step after it (the
  // driver rebuilt for the kernel that reboot booted must be loaded by
  // another). record() saves the journal.
  if (step.reboot_after && !journal_.reboot_requested_in_boot.empty() && journal_.reboot_requested_in_boot != boot_id_) {
    log_.line("  the reboot " + journal_.reboot_requested_by + " asked for came before this change: a new one is needed");
    journal_.clear_reboot_request();
  }
  if (has_real_checks(step)) {
    auto [after, after_why] = evaluate_step(step, machine_, inputs_);
    if (after != StepState::done)
      return stop(RunOutcome::failed, step, "its actions ran, but it is still not done: " + after_why + still_not_done_advice(step));
  }
  progress_.step_done(seconds_since(started));
  ++report_.steps_run;
  return record(step);
}

RunReport Executor::run() {
  boot_id_ = changer_.boot_id();
  report_.log = log_.path();
  log_.line("rocmdoc run of " + journal_.plan_key + " at " + utc_timestamp() + ", boot " + boot_id_);
  // A reboot asked for by a step this plan no longer has, in an earlier
  // boot, happened: the plan made after it needs that step no more. Left
  // set, the next reboot step would count it as its own and be skipped.
  if (!journal_.reboot_requested_in_boot.empty() && journal_.reboot_requested_in_boot != boot_id_ &&
      !journal_.reboot_requested_by.empty() &&
      std::none_of(plan_.steps.begin(), plan_.steps.end(), [&](const PlanStep& s) { return s.id == journal_.reboot_requested_by; })) {
    log_.line("the reboot " + journal_.reboot_requested_by + " asked for has happened");
    journal_.clear_reboot_request();
  }
  for (size_t i = 0; i < plan_.steps.size(); ++i)
    if (!run_step(i)) return report_;
  report_.outcome = RunOutcome::finished;
  report_.message = "every step is done";
  log_.line("finished");
  finish_log();
  return report_;
}

}  // namespace

RunReport run_plan(const InstallPlan& plan, Machine& machine, SystemChanger& changer, Consent& consent,
                   const ExecutorPaths& paths, std::ostream& out, const ProgressStyle& style) {
  // The command refuses a blocked plan first; this is the executor's own guard.
  if (plan.blocked) {
    RunReport report;
    report.input_error = true;
    report.message = "the plan cannot run: " + plan.blocked->reason;
    return report;
  }
  auto read = read_journal(*machine.fs, paths.journal);
  if (!read) {
    RunReport report;
    report.input_error = true;
    report.message = read.error();
    return report;
  }
  Journal journal = *read;
  std::string key = plan_key(plan);
  // What is on disk, as this run would write it: nothing to rewrite until a step is recorded.
  std::string on_disk = journal.plan_key.empty() ? "" : journal_to_string(journal);
  if (journal.plan_key != key) {
    journal = Journal{};
    journal.plan_key = key;
    journal.started_at = utc_timestamp();
  }
  Progress progress(out, style);
  Executor executor(plan, machine, changer, consent, paths, progress, std::move(journal), std::move(on_disk));
  return executor.run();
}

}  // namespace rocmdoc
