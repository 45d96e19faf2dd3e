// Constructors for declarative checks and actions: one place that fills the
// fields each kind uses (install_plan.h), so the step builders read as data.
#include "install/plan/planner_internal.h"

namespace rocmdoc::plan {

namespace {
StepCheck check(StepCheck::Kind kind) {
  StepCheck c;
  c.kind = kind;
  return c;
}
StepAction action(StepAction::Kind kind) {
  StepAction a;
  a.kind = kind;
  return a;
}
}  // namespace

StepCheck packages_installed(std::vector<std::string> names) {
  StepCheck c = check(StepCheck::Kind::packages_installed);
  c.names = std::move(names);
  return c;
}

StepCheck packages_absent(std::vector<std::string> names, std::string except_version_containing) {
  StepCheck c = check(StepCheck::Kind::packages_absent);
  c.names = std::move(names);
  c.value = std::move(except_version_containing);
  return c;
}

StepCheck package_version(const std::string& name, const std::string& prefix) {
  StepCheck c = check(StepCheck::Kind::package_version);
  c.names = {name};
  c.value = prefix;
  return c;
}

StepCheck file_equals(const std::string& path, const std::string& content, unsigned mode) {
  StepCheck c = check(StepCheck::Kind::file_equals);
  c.path = path;
  c.content = content;
  c.mode = mode;
  return c;
}

StepCheck path_exists(const std::string& path) {
  StepCheck c = check(StepCheck::Kind::path_exists);
  c.path = path;
  return c;
}

StepCheck command_succeeds(std::vector<std::string> argv, bool as_user) {
  StepCheck c = check(StepCheck::Kind::command_succeeds);
  c.argv = std::move(argv);
  c.as_user = as_user;
  return c;
}

StepCheck output_contains(std::vector<std::string> argv, const std::string& text, bool as_user) {
  StepCheck c = check(StepCheck::Kind::output_contains);
  c.argv = std::move(argv);
  c.value = text;
  c.as_user = as_user;
  return c;
}

StepCheck user_in_groups(const std::string& user, std::vector<std::string> groups) {
  StepCheck c = check(StepCheck::Kind::user_in_groups);
  c.value = user;
  c.names = std::move(groups);
  return c;
}

StepCheck key_fingerprint(const std::string& keyring, const std::string& fingerprint) {
  StepCheck c = check(StepCheck::Kind::key_fingerprint);
  c.path = keyring;
  c.value = fingerprint;
  return c;
}

StepCheck free_space(const std::string& path, uint64_t bytes) {
  StepCheck c = check(StepCheck::Kind::free_space);
  c.path = path;
  c.value = std::to_string(bytes);
  return c;
}

StepCheck lock_free(std::vector<std::string> files) {
  StepCheck c = check(StepCheck::Kind::lock_free);
  c.names = std::move(files);
  return c;
}

StepCheck apt_simulation(std::vector<std::string> argv, std::vector<std::string> allowed_removals) {
  StepCheck c = check(StepCheck::Kind::apt_simulation);
  c.argv = std::move(argv);
  c.names = std::move(allowed_removals);
  return c;
}

StepCheck boot_changed() { return check(StepCheck::Kind::boot_changed); }

StepCheck file_has_line(const std::string& path, const std::string& pattern) {
  StepCheck c = check(StepCheck::Kind::file_has_line);
  c.path = path;
  c.value = pattern;
  return c;
}

StepCheck file_byte_equals(const std::string& path, uint64_t offset, unsigned byte) {
  StepCheck c = check(StepCheck::Kind::file_byte_equals);
  c.path = path;
  c.offset = offset;
  c.value = std::to_string(byte);
  return c;
}

StepCheck path_absent(const std::string& path) {
  StepCheck c = check(StepCheck::Kind::path_absent);
  c.path = path;
  return c;
}

StepCheck dpkg_settled() { return check(StepCheck::Kind::dpkg_settled); }

StepAction run(std::vector<std::string> argv, bool as_user) {
  StepAction a = action(StepAction::Kind::run);
  a.argv = std::move(argv);
  a.as_user = as_user;
  return a;
}

StepAction write_file(const std::string& path, const std::string& content, unsigned mode) {
  StepAction a = action(StepAction::Kind::write_file);
  a.path = path;
  a.content = content;
  a.mode = mode;
  return a;
}

StepAction download_key(const std::string& url, const std::string& path, const std::string& fingerprint) {
  StepAction a = action(StepAction::Kind::download);
  a.url = url;
  a.path = path;
  a.fingerprint = fingerprint;
  return a;
}

StepAction dearmor_key(const std::string& source, const std::string& path) {
  StepAction a = action(StepAction::Kind::dearmor_key);
  a.source = source;
  a.path = path;
  a.mode = 0644;
  return a;
}

StepAction reboot() { return action(StepAction::Kind::reboot); }

StepAction apt_install(const std::vector<std::string>& packages) {
  return run(concat({"apt-get", "install", "-y", "--no-install-recommends", "--reinstall"}, packages));
}

std::vector<std::string> apt_simulate_install(const std::vector<std::string>& packages) {
  return concat({"apt-get", "-s", "install", "-y", "--no-install-recommends"}, packages);
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::string joined(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

}  // namespace rocmdoc::plan
