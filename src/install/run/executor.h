// Runs an install plan (or a fix) step by step: re-checks each step, asks
// before a change (or takes --yes), applies its actions, re-checks, and
// records it in the journal, so a reboot, Ctrl-C, a kill or a power cut
// loses nothing and a re-run repeats nothing that was done.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "install/plan/plan.h"
#include "machine/machine.h"
#include "base/result.h"

namespace rocmdoc {

// The executor's only door to change the machine. The live one writes under
// "/" and runs processes; tests use a recording fake over a MemoryFileSystem.
class SystemChanger {
 public:
  virtual ~SystemChanger() = default;
  // Whole and atomic (temp, fsync, rename); never appends.
  virtual Result<bool> write_file(const std::string& path, const std::string& content, unsigned mode) = 0;
  // argv without a shell; output streamed to `output` as it comes (the full
  // log and the progress tail), and an empty piece at least once a second
  // while the command is silent (the heartbeat that moves a status line's
  // clock). as_user: run as that user (runuser -u U --).
  virtual Result<int> run(const std::vector<std::string>& argv, const std::string& as_user,
                          const std::function<void(std::string_view)>& output) = 0;
  // url -> a file at path (https only); never executed.
  virtual Result<bool> download(const std::string& url, const std::string& path) = 0;
  // The fingerprints of the OpenPGP keys in a key file (gpg --show-keys --with-colons).
  virtual Result<std::vector<std::string>> key_fingerprints(const std::string& path) = 0;
  // ASCII-armoured key -> binary keyring, whole and atomic.
  virtual Result<bool> dearmor_key(const std::string& source, const std::string& path) = 0;
  // /proc/sys/kernel/random/boot_id
  virtual std::string boot_id() = 0;
};

// Asks before each change on a terminal; --yes answers yes; with neither a
// terminal nor --yes every question is "no" and nothing changes.
class Consent {
 public:
  virtual ~Consent() = default;
  virtual bool ask(const PlanStep& step) = 0;
};

// What the journal keeps (under /var/lib/rocmdoc/, written atomically after
// every step).
struct JournalEntry {
  std::string step;
  std::string finished_at;  // ISO 8601 UTC
  std::string boot_id;
};
struct Journal {
  std::string plan_key;          // "install ubuntu-24.04 rocm-7.2.4 driver-30.30.4 torch": another plan starts afresh
  std::vector<JournalEntry> done;
  std::string reboot_requested_in_boot;  // set by a reboot step; a different boot id means it happened
  // The step that asked for it (not in journals before this field): a plan
  // made again after the reboot may not have that step any more (the
  // kernel-reboot, once the listed kernel runs), and its request is then met.
  std::string reboot_requested_by;
  std::string started_at;

  // A reboot step asks for a reboot in this boot; the journal keeps both.
  void request_reboot(std::string boot, std::string by) {
    reboot_requested_in_boot = std::move(boot);
    reboot_requested_by = std::move(by);
  }
  // No reboot pending any more (it happened and was counted, or no longer stands).
  void clear_reboot_request() {
    reboot_requested_in_boot.clear();
    reboot_requested_by.clear();
  }
};
Result<Journal> read_journal(FileSystem& fs, const std::string& path);  // missing file: an empty journal
std::string journal_to_string(const Journal& j);

enum class RunOutcome {
  finished,         // every step done and verified
  reboot_needed,    // stopped at a reboot step: reboot, then `rocmdoc install` resumes
  declined,         // the user said no (or no terminal and no --yes): nothing further changed
  failed,           // a step failed; what and why in `message`, the log path in `log`
};

struct RunReport {
  RunOutcome outcome = RunOutcome::failed;
  std::string step;     // the step it stopped at
  std::string message;
  std::string log;      // the full log file
  size_t steps_run = 0, steps_skipped = 0;
  bool input_error = false;  // the journal could not be read: exit 2, nothing ran
};

struct ExecutorPaths {
  std::string journal = "/var/lib/rocmdoc/install.json";
  std::string log_dir = "/var/log/rocmdoc";
  // The log is <log_dir>/<log_prefix>-<UTC time>.log.
  std::string log_prefix = "install";
  // Where the boot id is read (through the machine's files and by the live
  // SystemChanger); tests and the integration test fake a reboot here.
  std::string boot_id = "/proc/sys/kernel/random/boot_id";
};

}  // namespace rocmdoc
