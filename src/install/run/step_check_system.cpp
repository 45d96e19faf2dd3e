// Checks that ask the running system rather than a file: free space (df)
// and the apt/dpkg locks (fcntl, live machines only).
#include "install/run/step_check_system.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/text.h"

namespace rocmdoc {

// The nearest existing directory: df needs a path that exists, and the
// plan names /opt/rocm before it does.
std::string nearest_existing(FileSystem& fs, const std::string& path) {
  std::string p = path_normalize(path);
  while (p != "/" && fs.stat_follow(p).type == FileType::missing) p = path_dirname(p);
  return p;
}

StepEvaluation check_free_space(const StepCheck& check, Machine& machine, std::chrono::milliseconds timeout) {
  auto need = parse_uint(check.value);
  if (!need) return {StepState::unknown, "the check's byte count is not a number: " + check.value};
  std::string where = nearest_existing(*machine.fs, check.path);
  ProcessResult r = machine.runner->run({"df", "-B1", "--output=avail", where}, timeout);
  if (!r.succeeded())
    return {StepState::unknown, "df " + where + ": " + (r.error.empty() ? "exit " + std::to_string(r.exit_code) : r.error)};
  auto lines = split_lines(r.out);
  std::optional<uint64_t> avail = lines.size() >= 2 ? parse_uint(trim(lines[1])) : std::nullopt;
  if (!avail) return {StepState::unknown, "df " + where + " printed no byte count"};
  std::string gib = std::to_string(*avail >> 30) + " GiB free on " + where;
  if (*avail < *need) return {StepState::todo, "only " + gib + ", " + std::to_string(*need >> 30) + " GiB needed"};
  return {StepState::done, gib};
}

namespace {

// Who holds a conflicting lock on the file: fcntl F_GETLK asks without
// taking one (dpkg and apt lock with fcntl; OFD locks answer with pid -1).
StepEvaluation lock_holder(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT) return {StepState::done, path + " does not exist"};
    return {StepState::unknown, path + ": " + std::strerror(errno)};
  }
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  int rc = ::fcntl(fd, F_GETLK, &lock);
  int err = errno;
  ::close(fd);
  if (rc != 0) return {StepState::unknown, path + ": " + std::strerror(err)};
  if (lock.l_type == F_UNLCK) return {StepState::done, path + " is not locked"};
  std::string who = lock.l_pid > 0 ? " by process " + std::to_string(lock.l_pid) : "";
  return {StepState::todo, path + " is locked" + who + " (another package manager is running)"};
}

}  // namespace

StepEvaluation check_lock_free(const StepCheck& check, Machine& machine) {
  if (!machine.live || machine.root != "/") return {StepState::unknown, "locks are only visible on the live machine"};
  for (auto& path : check.names) {
    auto held = lock_holder(path);
    if (held.first != StepState::done) return held;
  }
  return {StepState::done, "no package manager holds its locks"};
}

std::vector<std::string> simulated_removals(const std::string& apt_output) {
  std::vector<std::string> removed;
  for (auto& line : split_lines(apt_output)) {
    auto words = split_words(line);
    if (words.size() >= 2 && (words[0] == "Remv" || words[0] == "Purg")) removed.push_back(words[1]);
  }
  return removed;
}

}  // namespace rocmdoc
