#include "install/run/step_check.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <variant>

#include <re2/re2.h>

#include "install/run/gpg_home.h"
#include "formats/gpg_key_listing.h"
#include "install/run/step_check_system.h"
#include "formats/accounts.h"
#include "formats/dpkg_status.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? sep : std::string()) + items[i];
  return out;
}

StepEvaluation done(std::string why) { return {StepState::done, std::move(why)}; }
StepEvaluation todo(std::string why) { return {StepState::todo, std::move(why)}; }
StepEvaluation unknown_state(std::string why) { return {StepState::unknown, std::move(why)}; }

std::string octal(unsigned mode) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "%04o", mode);
  return buffer;
}

// The file's mode, when the check names one. nullopt: it matches (or no
// mode is asked for).
std::optional<StepEvaluation> mode_mismatch(const StepCheck& check, FileSystem& fs) {
  if (check.mode == 0) return std::nullopt;
  FileStat st = fs.stat_follow(check.path);
  if (!st.error.empty()) return unknown_state(check.path + ": " + st.error);
  if (st.mode != check.mode) return todo(check.path + " has mode " + octal(st.mode) + ", not " + octal(check.mode));
  return std::nullopt;
}

StepEvaluation file_equals(const StepCheck& check, Machine& machine) {
  FileSystem& fs = *machine.fs;
  FileStat st = fs.stat_follow(check.path);
  if (st.type == FileType::missing)
    return st.error.empty() ? todo(check.path + " does not exist") : unknown_state(check.path + ": " + st.error);
  auto content = fs.read_file(check.path, std::max<size_t>(kDefaultReadLimit, check.content.size() + 1));
  if (!content) return unknown_state(content.error());
  if (*content != check.content) return todo(check.path + " has other content");
  if (auto bad = mode_mismatch(check, fs)) return *bad;
  return done(check.path + " is as planned");
}

StepEvaluation path_exists(const StepCheck& check, Machine& machine) {
  FileStat st = machine.fs->stat(check.path);
  if (st.type != FileType::missing) return done(check.path + " exists");
  return st.error.empty() ? todo(check.path + " does not exist") : unknown_state(check.path + ": " + st.error);
}

Result<DpkgStatus> read_dpkg(Machine& machine) {
  auto text = machine.fs->read_file(kDpkgStatusPath, kDpkgStatusMaxBytes);
  if (!text) return Result<DpkgStatus>::fail("the package database cannot be read: " + text.error());
  return Result<DpkgStatus>::ok(parse_dpkg_status(*text));
}

// The installed stanza of a package (any architecture), or nullptr.
const DpkgPackage* installed_package(const DpkgStatus& status, const std::string& name) {
  for (auto& p : status.packages)
    if (p.name == name && p.installed()) return &p;
  return nullptr;
}

StepEvaluation packages_installed(const StepCheck& check, Machine& machine) {
  auto status = read_dpkg(machine);
  if (!status) return unknown_state(status.error());
  std::vector<std::string> missing;
  for (auto& name : check.names)
    if (!installed_package(*status, name)) missing.push_back(name);
  if (missing.empty()) return done("installed: " + join(check.names, " "));
  return todo("not installed: " + join(missing, " "));
}

// dpkg versions may carry an epoch ("1:2.3"); the plan names versions as
// the repository lists them, without it.
std::string without_epoch(const std::string& version) {
  auto colon = version.find(':');
  return colon == std::string::npos ? version : version.substr(colon + 1);
}

StepEvaluation package_version(const StepCheck& check, Machine& machine) {
  if (check.names.empty()) return unknown_state("the check names no package");
  auto status = read_dpkg(machine);
  if (!status) return unknown_state(status.error());
  const std::string& name = check.names[0];
  const DpkgPackage* p = installed_package(*status, name);
  if (!p) return todo(name + " is not installed");
  if (!starts_with(p->version, check.value) && !starts_with(without_epoch(p->version), check.value))
    return todo(name + " " + p->version + " is installed, not " + check.value + "*");
  return done(name + " " + p->version + " is installed");
}

StepEvaluation user_in_groups(const StepCheck& check, Machine& machine) {
  const std::string& user = check.value;
  if (user.empty()) return unknown_state("the target user is not known");
  auto group_text = machine.fs->read_file("/etc/group");
  if (!group_text) return unknown_state(group_text.error());
  auto passwd_text = machine.fs->read_file("/etc/passwd");
  if (!passwd_text) return unknown_state(passwd_text.error());
  auto users = parse_passwd(*passwd_text);
  const PasswdEntry* entry = find_user(users, user);
  // usermod only changes local accounts; a directory-service user cannot be judged from these files.
  if (!entry) return unknown_state("user " + user + " is not in /etc/passwd (a directory-service account?)");
  auto groups = parse_group(*group_text);
  std::vector<std::string> missing;
  for (auto& name : check.names) {
    const GroupEntry* g = find_group(groups, name);
    bool member = g && (g->gid == entry->gid ||
                        std::find(g->members.begin(), g->members.end(), user) != g->members.end());
    if (!member) missing.push_back(g ? name : name + " (no such group)");
  }
  if (missing.empty()) return done(user + " is in " + join(check.names, ", "));
  return todo(user + " is not in " + join(missing, ", "));
}

std::vector<std::string> as_target_user(const std::vector<std::string>& argv, bool as_user, const Machine& machine,
                                        const std::string& user) {
  if (!as_user || user.empty() || (machine.user.known && machine.user.name == user)) return argv;
  std::vector<std::string> wrapped = {"runuser", "-u", user, "--"};
  wrapped.insert(wrapped.end(), argv.begin(), argv.end());
  return wrapped;
}

// A tool that did not start: on a live machine the command simply fails
// (the program is not there yet: todo); a recording that lacks the command
// cannot say (unknown).
StepEvaluation not_started(const std::string& command, const ProcessResult& r, const Machine& machine) {
  if (machine.live) return todo(command + " could not start: " + r.error);
  return unknown_state(command + ": " + (r.error.empty() ? "not recorded" : r.error));
}

// Runs a check's command (as the target user when asked). The result, or
// the state to report when it did not run to an exit code.
std::variant<ProcessResult, StepEvaluation> run_check_command(const StepCheck& check, Machine& machine,
                                                              const CheckInputs& inputs) {
  if (check.argv.empty()) return unknown_state("the check names no command");
  if (check.as_user && inputs.user.empty()) return unknown_state("the target user is not known");
  ProcessResult r = machine.runner->run(as_target_user(check.argv, check.as_user, machine, inputs.user), inputs.timeout);
  std::string command = join(check.argv, " ");
  if (!r.started) return not_started(command, r, machine);
  if (r.timed_out) return unknown_state(command + " did not finish in time");
  return r;
}

StepEvaluation command_succeeds(const StepCheck& check, Machine& machine, const CheckInputs& inputs) {
  auto ran = run_check_command(check, machine, inputs);
  if (auto* state = std::get_if<StepEvaluation>(&ran)) return *state;
  auto& r = std::get<ProcessResult>(ran);
  std::string command = join(check.argv, " ");
  if (r.exit_code != 0) return todo(command + " exits " + std::to_string(r.exit_code));
  return done(command + " succeeds");
}

StepEvaluation output_contains(const StepCheck& check, Machine& machine, const CheckInputs& inputs) {
  auto ran = run_check_command(check, machine, inputs);
  if (auto* state = std::get_if<StepEvaluation>(&ran)) return *state;
  auto& r = std::get<ProcessResult>(ran);
  std::string command = join(check.argv, " ");
  if (r.exit_code != 0) return todo(command + " exits " + std::to_string(r.exit_code));
  if (r.out.find(check.value) == std::string::npos) return todo(command + " does not print \"" + check.value + "\"");
  return done(command + " prints \"" + check.value + "\"");
}

StepEvaluation apt_simulation(const StepCheck& check, Machine& machine, const CheckInputs& inputs) {
  auto ran = run_check_command(check, machine, inputs);
  if (auto* state = std::get_if<StepEvaluation>(&ran)) return *state;
  auto& r = std::get<ProcessResult>(ran);
  std::string command = join(check.argv, " ");
  if (r.exit_code != 0) return todo(command + " fails (exit " + std::to_string(r.exit_code) + "): apt cannot install it");
  std::vector<std::string> unagreed;
  for (auto& name : simulated_removals(r.out))
    if (std::find(check.names.begin(), check.names.end(), name) == check.names.end()) unagreed.push_back(name);
  if (!unagreed.empty()) return todo("the install would remove " + join(unagreed, " "));
  return done("the simulated install removes nothing else");
}

StepEvaluation packages_absent(const StepCheck& check, Machine& machine) {
  auto status = read_dpkg(machine);
  if (!status) return unknown_state(status.error());
  std::vector<std::string> present;
  for (auto& name : check.names) {
    const DpkgPackage* p = installed_package(*status, name);
    // `value` spares AMD's own builds ("~24.04" in the version): only the distribution's count.
    if (p && (check.value.empty() || p->version.find(check.value) == std::string::npos))
      present.push_back(name + " " + p->version);
  }
  if (present.empty()) return done("none installed: " + join(check.names, " "));
  return todo("installed: " + join(present, " "));
}

std::vector<std::string> plain_gpg(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"gpg"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

StepEvaluation key_fingerprint(const StepCheck& check, Machine& machine, const CheckInputs& inputs) {
  // A key is only ever judged against a fingerprint (the recipe's or --trust-key).
  if (check.value.empty()) return unknown_state("no fingerprint to check " + check.path + " against (confirm one with --trust-key)");
  FileStat st = machine.fs->stat_follow(check.path);
  if (st.type == FileType::missing)
    return st.error.empty() ? todo(check.path + " does not exist") : unknown_state(check.path + ": " + st.error);
  if (auto bad = mode_mismatch(check, *machine.fs)) return *bad;
  std::vector<std::string> args = {"--show-keys", "--with-colons", check.path};
  // On the live machine gpg gets a home of its own (it writes there); a
  // recording answers the plain command.
  std::optional<TemporaryGpgHome> home;
  if (machine.live) home.emplace();
  if (home && !home->ok()) return unknown_state(home->error());
  ProcessResult r = machine.runner->run(home ? home->gpg(args) : plain_gpg(args), inputs.timeout);
  if (!r.started || r.timed_out)
    return unknown_state("gpg --show-keys " + check.path + ": " + (r.error.empty() ? "did not finish" : r.error));
  if (r.exit_code != 0) return todo("gpg cannot read " + check.path + " as keys");
  std::string wanted = normalize_fingerprint(check.value);
  for (auto& key : parse_gpg_colons(r.out)) {
    if (key.fingerprint != wanted) continue;
    if (key.unusable(static_cast<int64_t>(std::time(nullptr))))
      return todo("the key " + wanted + " in " + check.path + " is expired or revoked");
    return done(check.path + " holds the key " + wanted);
  }
  return todo(check.path + " does not hold the key " + wanted);
}

StepEvaluation path_absent(const StepCheck& check, Machine& machine) {
  FileStat st = machine.fs->stat(check.path);
  if (st.type != FileType::missing) return todo(check.path + " exists");
  return st.error.empty() ? done(check.path + " does not exist") : unknown_state(check.path + ": " + st.error);
}

// The file's text, or the state to report: a missing file is todo (the line
// cannot be there), an unreadable one unknown.
std::variant<std::string, StepEvaluation> file_text(const std::string& path, Machine& machine) {
  FileStat st = machine.fs->stat_follow(path);
  if (st.type == FileType::missing)
    return st.error.empty() ? todo(path + " does not exist") : unknown_state(path + ": " + st.error);
  auto text = machine.fs->read_file(path);
  if (!text) return unknown_state(text.error());
  return *text;
}

StepEvaluation file_has_line(const StepCheck& check, Machine& machine) {
  RE2 pattern(check.value, RE2::Quiet);
  if (!pattern.ok()) return unknown_state("the check's pattern " + check.value + " is not valid: " + pattern.error());
  auto read = file_text(check.path, machine);
  if (auto* state = std::get_if<StepEvaluation>(&read)) return *state;
  for (auto& line : split_lines(std::get<std::string>(read)))
    if (RE2::FullMatch(line, pattern)) return done(check.path + " has the line " + line);
  return todo("no line of " + check.path + " matches " + check.value);
}

StepEvaluation file_byte_equals(const StepCheck& check, Machine& machine) {
  auto want = parse_uint(check.value);
  if (!want || *want > 255) return unknown_state("the check's byte value is not 0-255: " + check.value);
  auto read = file_text(check.path, machine);
  if (auto* state = std::get_if<StepEvaluation>(&read)) return *state;
  const std::string& bytes = std::get<std::string>(read);
  if (check.offset >= bytes.size())
    return unknown_state(check.path + " has " + std::to_string(bytes.size()) + " bytes, none at offset " +
                         std::to_string(check.offset));
  unsigned got = static_cast<unsigned char>(bytes[check.offset]);
  std::string at = "the byte at offset " + std::to_string(check.offset) + " of " + check.path + " is ";
  if (got != *want) return todo(at + std::to_string(got) + ", not " + check.value);
  return done(at + check.value);
}

constexpr const char* kDpkgUpdates = "/var/lib/dpkg/updates";

// dpkg journals each status change as a numbered file here and folds them
// into the status file when a run completes; apt refuses to start while one
// is left ("dpkg was interrupted").
bool is_dpkg_journal_entry(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

StepEvaluation dpkg_settled(Machine& machine) {
  auto entries = machine.fs->list_dir(kDpkgUpdates);
  if (!entries && machine.fs->stat(kDpkgUpdates).type != FileType::missing)
    return unknown_state(std::string(kDpkgUpdates) + ": " + entries.error());
  if (entries && std::any_of(entries->begin(), entries->end(), is_dpkg_journal_entry))
    return todo(std::string("dpkg was interrupted: its journal ") + kDpkgUpdates + " is not empty");
  auto status = read_dpkg(machine);
  if (!status) return unknown_state(status.error());
  // What `dpkg --configure -a` finishes. A half-installed package (killed in
  // its unpack) needs its files again: the step that installs it reinstalls
  // it (apt_install), so it does not block this step.
  static const std::vector<std::string> kUnfinished = {"unpacked", "half-configured", "triggers-awaited",
                                                       "triggers-pending"};
  std::vector<std::string> unfinished;
  for (auto& p : status->packages)
    if (std::find(kUnfinished.begin(), kUnfinished.end(), p.state()) != kUnfinished.end())
      unfinished.push_back(p.name + " (" + p.state() + ")");
  if (!unfinished.empty()) return todo("dpkg left packages half done: " + join(unfinished, ", "));
  return done("dpkg has nothing half done");
}

StepEvaluation boot_changed(Machine& machine, const CheckInputs& inputs) {
  if (!inputs.journal || inputs.journal->reboot_requested_in_boot.empty())
    return todo("no reboot has been requested yet");
  auto now = read_boot_id(*machine.fs, inputs.boot_id_path);
  if (!now) return unknown_state(now.error());
  if (*now == inputs.journal->reboot_requested_in_boot) return todo("the machine has not rebooted since the request");
  return done("rebooted since the request");
}

}  // namespace

Result<std::string> read_boot_id(FileSystem& fs, const std::string& path) {
  auto text = fs.read_file(path, 4096);
  if (!text) return Result<std::string>::fail("the boot id cannot be read: " + text.error());
  std::string id = trim(*text);
  if (id.empty()) return Result<std::string>::fail("the boot id is empty: " + path);
  return Result<std::string>::ok(id);
}

StepEvaluation evaluate_check(const StepCheck& check, Machine& machine, const CheckInputs& inputs) {
  using K = StepCheck::Kind;
  switch (check.kind) {
    case K::always_todo: return todo("always runs");
    case K::file_equals: return file_equals(check, machine);
    case K::packages_installed: return packages_installed(check, machine);
    case K::package_version: return package_version(check, machine);
    case K::key_fingerprint: return key_fingerprint(check, machine, inputs);
    case K::user_in_groups: return user_in_groups(check, machine);
    case K::command_succeeds: return command_succeeds(check, machine, inputs);
    case K::boot_changed: return boot_changed(machine, inputs);
    case K::path_exists: return path_exists(check, machine);
    case K::packages_absent: return packages_absent(check, machine);
    case K::free_space: return check_free_space(check, machine, inputs.timeout);
    case K::lock_free: return check_lock_free(check, machine);
    case K::apt_simulation: return apt_simulation(check, machine, inputs);
    case K::output_contains: return output_contains(check, machine, inputs);
    case K::file_has_line: return file_has_line(check, machine);
    case K::file_byte_equals: return file_byte_equals(check, machine);
    case K::path_absent: return path_absent(check, machine);
    case K::dpkg_settled: return dpkg_settled(machine);
  }
  return unknown_state("unknown kind of check");
}

bool has_real_checks(const PlanStep& step) {
  return std::any_of(step.checks.begin(), step.checks.end(),
                     [](const StepCheck& c) {
                       return c.kind != StepCheck::Kind::always_todo && c.kind != StepCheck::Kind::boot_changed;
                     });
}

StepEvaluation evaluate_step(const PlanStep& step, Machine& machine, const CheckInputs& inputs) {
  if (step.checks.empty()) return todo("nothing to check: always runs");
  std::optional<StepEvaluation> first_unknown;
  std::vector<std::string> done_reasons;
  for (auto& check : step.checks) {
    auto result = evaluate_check(check, machine, inputs);
    if (result.first == StepState::todo) return result;
    if (result.first == StepState::unknown && !first_unknown) first_unknown = result;
    if (result.first == StepState::done) done_reasons.push_back(result.second);
  }
  if (first_unknown) return *first_unknown;
  return done(join(done_reasons, "; "));
}

StepEvaluation evaluate_step(const PlanStep& step, Machine& machine, const Journal* journal) {
  CheckInputs inputs;
  inputs.journal = journal;
  return evaluate_step(step, machine, inputs);
}

}  // namespace rocmdoc
