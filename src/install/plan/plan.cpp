// How checks, actions and states read in --dry-run and the journal's log:
// exact paths, argv and contents, so the user sees precisely what changes.
#include "install/plan/plan.h"

#include <fmt/format.h>

#include "base/text.h"

namespace rocmdoc {

namespace {

// An argv as a reader would type it (base/text.h: safe to paste).
std::string shown(const std::vector<std::string>& argv) { return shell_words(argv, false); }

std::string list(const std::vector<std::string>& items) {
  std::string out;
  for (auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

// File contents shown as their lines, each on its own indented line.
std::string lines(const std::string& content) {
  std::string out;
  size_t start = 0;
  while (start < content.size()) {
    size_t end = content.find('\n', start);
    if (end == std::string::npos) end = content.size();
    out += "\n    | " + content.substr(start, end - start);
    start = end + 1;
  }
  return out;
}

std::string as(bool as_user) { return as_user ? " (as the target user)" : ""; }

}  // namespace

const char* step_state_name(StepState s) {
  switch (s) {
    case StepState::done: return "done";
    case StepState::todo: return "todo";
    case StepState::unknown: return "unknown";
  }
  return "unknown";
}

std::string StepCheck::describe() const {
  using K = Kind;
  switch (kind) {
    case K::always_todo: return "always runs";
    case K::file_equals:
      return "done when " + path + " is exactly" + (mode ? fmt::format(" (mode {:04o})", mode) : "") + ":" + lines(content);
    case K::packages_installed: return "done when installed: " + list(names);
    case K::package_version:
      return "done when " + (names.empty() ? std::string("?") : names[0]) + " is installed at a version starting " + value;
    case K::key_fingerprint:
      return "done when " + path + " holds the unexpired key " + (value.empty() ? "you confirm with --trust-key" : value);
    case K::user_in_groups: return "done when user " + value + " is in the groups " + list(names);
    case K::command_succeeds: return "done when `" + shown(argv) + "` succeeds" + as(as_user);
    case K::boot_changed: return "done when the machine has rebooted since the reboot was asked for";
    case K::path_exists: return "done when " + path + " exists";
    case K::packages_absent:
      return "done when none is installed: " + list(names) + (value.empty() ? "" : " (AMD's builds, version with " + value + ", excepted)");
    case K::free_space: return "done when the filesystem of " + path + " has " + value + " bytes free";
    case K::lock_free: return "done when no process holds " + list(names);
    case K::apt_simulation:
      return "done when `" + shown(argv) + "` succeeds and removes " +
             (names.empty() ? std::string("no package") : "only " + list(names));
    case K::output_contains: return "done when `" + shown(argv) + "` prints \"" + value + "\"" + as(as_user);
    case K::file_has_line: return "done when a line of " + path + " matches " + value;
    case K::file_byte_equals: return fmt::format("done when the byte at offset {} of {} is {}", offset, path, value);
    case K::path_absent: return "done when " + path + " does not exist";
    case K::dpkg_settled:
      return "done when dpkg has nothing left half done (/var/lib/dpkg/updates empty, no package unpacked or "
             "half-configured)";
  }
  return "?";
}

std::string StepAction::describe() const {
  switch (kind) {
    case Kind::run: return "run " + shown(argv) + as(as_user);
    case Kind::write_file: return fmt::format("write {} (mode {:04o}, whole and atomic):", path, mode) + lines(content);
    case Kind::download:
      return "download " + url + " to " + path + (fingerprint.empty() ? "" : " and check its key fingerprint is " + fingerprint);
    case Kind::dearmor_key: return fmt::format("convert the key {} to the keyring {} (mode {:04o})", source, path, mode);
    case Kind::reboot: return "reboot (the journal keeps the boot id; run `rocmdoc install` again afterwards)";
  }
  return "?";
}

}  // namespace rocmdoc
