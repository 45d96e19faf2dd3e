// An install plan: the ordered steps that take this machine to a working
// ROCm (driver, repositories, packages, PyTorch), each with a check that says
// whether it is already done, so re-running a plan repeats nothing
// (docs/install.md; the step model of the reference's install procedure).
//
// Steps are data: checks and actions are declarative, so --dry-run can print
// exactly what would change and the executor can re-check after a reboot or
// a crash. Nothing here touches the machine.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/fact.h"

namespace rocmdoc {

// Whether a step is already done: evaluated on the machine (files through the
// FileSystem, packages from dpkg's status, commands through the ProcessRunner).
struct StepCheck {
  enum class Kind {
    always_todo,        // nothing to check (a reboot request, a verification that must run)
    file_equals,        // path's content is exactly `content` (and mode, when set)
    packages_installed, // every package in `names` is installed (dpkg status)
    package_version,    // package `names[0]` is installed with a version starting `value`
    key_fingerprint,    // the keyring at `path` holds the key `value` (gpg --show-keys), not expired
    user_in_groups,     // user `value` is in every group of `names` (/etc/group)
    command_succeeds,   // `argv` exits 0 (as_user: run as the target user)
    boot_changed,       // the boot id differs from the one the journal saved at the reboot request
    path_exists,        // `path` exists
    // Added by the planner (pre-flight gates and checks that need a negation
    // or a command's output):
    packages_absent,    // no package in `names` is installed (dpkg status); with `value` set, one
                        // whose version contains `value` does not count (AMD's own build: "~24.04")
    free_space,         // the filesystem holding `path` (or its nearest existing parent) has at
                        // least `value` bytes free (decimal)
    lock_free,          // no process holds a lock on any file in `names` (fcntl F_GETLK, as apt and
                        // dpkg lock them); a missing file counts as free
    apt_simulation,     // `argv` (an `apt-get -s ...` simulation, no root needed) exits 0 and its
                        // `Remv <pkg>` lines name only packages in `names` (the agreed removals)
    output_contains,    // `argv` exits 0 and its standard output contains `value` (as_user: as the
                        // target user)
    // Read through the machine's files, so a recorded machine (--root) answers
    // them as the live one does:
    file_has_line,      // a line of `path` matches the RE2 pattern `value` in full
    file_byte_equals,   // the byte at `offset` of `path` is the decimal `value` (an EFI variable:
                        // 4 bytes of attributes, then its data)
    path_absent,        // `path` does not exist (not even as a dangling link)
    dpkg_settled,       // dpkg finished its last run: nothing pending in /var/lib/dpkg/updates and
                        // no package left unpacked, half-configured or awaiting triggers (after a
                        // kill or a power cut apt refuses until `dpkg --configure -a`); a
                        // half-installed package is left to the step that installs it
  };
  Kind kind = Kind::always_todo;
  std::string path;
  std::string content;
  unsigned mode = 0;                // 0: not checked
  std::vector<std::string> names;
  std::string value;
  std::vector<std::string> argv;
  bool as_user = false;
  uint64_t offset = 0;              // file_byte_equals
  std::string describe() const;     // "done when /etc/apt/preferences.d/rocm-pin-600 is exactly: ..."
};

// One change to the machine. Every kind is done without a shell.
struct StepAction {
  enum class Kind {
    run,         // argv (as_user: as the target user)
    write_file,  // path gets `content` whole and atomically, with `mode`
    download,    // url -> path (a file; never executed); `fingerprint` set: the file is a
                 // signing key and must carry that fingerprint before anything uses it
    dearmor_key, // the downloaded ASCII key at `source` -> binary keyring at `path` (atomically)
    reboot,      // ask for a reboot: the journal saves the boot id; the run stops here
  };
  Kind kind = Kind::run;
  std::vector<std::string> argv;
  bool as_user = false;
  std::string path;
  std::string source;
  std::string content;
  unsigned mode = 0644;
  std::string url;
  std::string fingerprint;
  std::string describe() const;    // the exact change, as --dry-run prints it
};

enum class StepState { done, todo, unknown };
const char* step_state_name(StepState s);

struct PlanStep {
  std::string id;                   // stable: "key", "rocm-list", "amdgpu-dkms" (the journal keys on it)
  std::string title;
  std::vector<StepCheck> checks;    // done when all are done; empty: always todo
  std::vector<StepAction> actions;  // empty: a gate that only checks (stops the run when not done)
  bool needs_root = false;
  bool reboot_after = false;
  // What to do when its actions ran, or its reboot happened, and it is
  // still not done (the run stops with it in parentheses); empty: nothing.
  std::string if_still_not_done;
  bool changes_machine() const { return !actions.empty(); }
  // Filled when the plan is shown: the state found by evaluating `checks`.
  StepState state = StepState::todo;
  std::string state_reason;
};

struct InstallOptions {
  std::string rocm;            // --rocm X.Y.Z; empty: the newest the matrix allows here
  bool driver = true;          // --no-driver: user space only
  // --keep-kernel: build the driver for the running kernel even where the
  // release does not list it (default: boot a kernel it lists first, where
  // the distribution's package for one is known).
  bool listed_kernel = true;
  bool torch = true;           // --no-torch
  std::string venv;            // --venv PATH; empty: ~U/rocm-venv
  std::string user;            // --user; empty: SUDO_USER, else the invoking user
  // --trust-key: the signing key fingerprint the user confirmed, for a release
  // whose recipe does not know it (the Core SDK line); 40 hex digits.
  std::string trusted_key;
  // --from: "amd" (AMD's repositories), "distro" (the distribution's own
  // ROCm packages); empty: AMD's, unless the recipe documents the
  // distribution's as the simpler path and they are built for this GPU.
  std::string from;
};

// Why rocmdoc will not install here, and what to do instead.
struct InstallRefusal {
  std::string id;              // "no-amd-gpu", "wsl2", "unsupported-distro", ...
  std::string reason;
  std::string instead;
  // The other reasons that refuse the install here, less fundamental ones
  // later: fixing the first alone would only meet the next.
  std::vector<InstallRefusal> also;

  InstallRefusal() = default;
  InstallRefusal(std::string id_, std::string reason_, std::string instead_)
      : id(std::move(id_)), reason(std::move(reason_)), instead(std::move(instead_)) {}
};

struct InstallPlan {
  std::string from = "amd";    // whose packages: "amd" (AMD's repositories) or "distro" (the distribution's own)
  std::string distro;          // "ubuntu 24.04" (the journal's plan key reads it)
  std::string distro_label;    // "Ubuntu 24.04", as check names it: the text report's heading
  std::string codename;        // AMD's repository codename (Debian 12 uses jammy); the distribution's own with --from distro
  std::string rocm;            // the release installed
  std::string driver;          // the amdgpu driver repository version ("30.30.4"), empty with --no-driver
  std::string user;            // the target user
  std::string venv;
  std::vector<PlanStep> steps;
  std::vector<std::string> notes;  // things the user should know (unconfirmed data, inferred paths)
  // Why the plan has no PyTorch though --no-torch was not given ("no wheel
  // has gfx1152's code"), for the heading; the notes say more. Empty otherwise.
  std::string torch_left_out;
  std::vector<std::string> gives_up;  // --from distro: what it gives up compared with AMD's repository
  // Set when the plan may be shown but not run: the signing key's fingerprint
  // is not known and the user has not confirmed one (--trust-key).
  std::optional<InstallRefusal> blocked;
};


}  // namespace rocmdoc
