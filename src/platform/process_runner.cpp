#include "platform/process_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "platform/signals.h"

namespace rocmdoc {

namespace {

struct Pipe {
  int fd[2] = {-1, -1};
  bool open() { return ::pipe2(fd, O_CLOEXEC) == 0; }
  void close_both() {
    for (int& f : fd)
      if (f >= 0) ::close(f), f = -1;
  }
};

// Reads what is ready on fd and hands it to the sink; false at end of stream.
bool pass_on(int fd, int stream, const OutputSink& sink) {
  char buf[65536];
  ssize_t n = ::read(fd, buf, sizeof buf);
  if (n < 0) return errno == EINTR || errno == EAGAIN;
  if (n == 0) return false;
  sink(stream, std::string_view(buf, static_cast<size_t>(n)));
  return true;
}

// posix_spawn, not fork: glibc starts the child with CLONE_VM|CLONE_VFORK,
// so none of this process's memory is copied or marked copy-on-write, and
// a failed exec comes back as its result.
// child_mask: the signal mask the child starts with, when the caller has
// blocked signals around the spawn.
int spawn_child(pid_t& pid, std::vector<char*>& cargv, const StreamOptions& options, const Pipe& out, const Pipe& err,
                const sigset_t* child_mask) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  if (int e = ::posix_spawn_file_actions_init(&actions)) return e;
  if (int e = ::posix_spawnattr_init(&attributes)) {
    ::posix_spawn_file_actions_destroy(&actions);
    return e;
  }
  int e = 0;
  if (!options.inherit_stdin) e = ::posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  if (!e) e = ::posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  if (!e) e = ::posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  // Its own process group, so that a timeout kills its children too.
  short flags = 0;
  if (!e && options.own_process_group) e = ::posix_spawnattr_setpgroup(&attributes, 0), flags |= POSIX_SPAWN_SETPGROUP;
  if (!e && child_mask) e = ::posix_spawnattr_setsigmask(&attributes, child_mask), flags |= POSIX_SPAWN_SETSIGMASK;
  if (!e && flags) e = ::posix_spawnattr_setflags(&attributes, flags);
  if (!e) e = ::posix_spawnp(&pid, cargv[0], &actions, &attributes, cargv.data(), environ);
  ::posix_spawnattr_destroy(&attributes);
  ::posix_spawn_file_actions_destroy(&actions);
  return e;
}

}  // namespace

ProcessResult stream_process(const std::vector<std::string>& argv, const StreamOptions& options,
                             const OutputSink& sink) {
  ProcessResult result;
  if (argv.empty()) {
    result.error = "empty command";
    return result;
  }
  Pipe out, err;
  if (!out.open() || !err.open()) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    out.close_both(), err.close_both();
    return result;
  }
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);

  pid_t pid = -1;
  // Blocked from before the spawn until the forwarding is in place: a signal
  // in between would end rocmdoc and leave the child running.
  sigset_t forwarded, old_mask;
  sigemptyset(&forwarded);
  add_handled_signals(forwarded);
  if (options.forward_signals) ::pthread_sigmask(SIG_BLOCK, &forwarded, &old_mask);
  int spawn_error = spawn_child(pid, cargv, options, out, err, options.forward_signals ? &old_mask : nullptr);
  std::optional<ForwardSignals> forwarding;
  if (options.forward_signals && !spawn_error) forwarding.emplace(pid, !options.own_process_group);
  if (options.forward_signals) ::pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  ::close(out.fd[1]), out.fd[1] = -1;
  ::close(err.fd[1]), err.fd[1] = -1;
  if (spawn_error) {
    out.close_both(), err.close_both();
    result.error = argv[0] + ": " + std::strerror(spawn_error);
    return result;
  }

  using Clock = std::chrono::steady_clock;
  auto deadline = Clock::now() + options.timeout;
  auto last_call = Clock::now();
  // Every call of the sink, output or heartbeat, restarts the heartbeat's wait.
  OutputSink to_sink = [&](int stream, std::string_view data) {
    last_call = Clock::now();
    sink(stream, data);
  };
  bool out_open = true, err_open = true;
  while (out_open || err_open) {
    int wait_ms = -1;
    if (options.timeout.count() > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) {
        result.timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(left.count());
    }
    if (options.heartbeat.count() > 0) {
      auto beat = std::chrono::duration_cast<std::chrono::milliseconds>(last_call + options.heartbeat - Clock::now());
      if (beat.count() <= 0) {
        to_sink(0, {});
        continue;
      }
      if (wait_ms < 0 || beat.count() < wait_ms) wait_ms = static_cast<int>(beat.count());
    }
    pollfd fds[2] = {{out_open ? out.fd[0] : -1, POLLIN, 0}, {err_open ? err.fd[0] : -1, POLLIN, 0}};
    int ready = ::poll(fds, 2, wait_ms);
    if (ready < 0 && errno != EINTR) break;
    if (out_open && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) out_open = pass_on(out.fd[0], 1, to_sink);
    if (err_open && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) err_open = pass_on(err.fd[0], 2, to_sink);
  }
  if (result.timed_out) ::kill(-pid, SIGKILL), ::kill(pid, SIGKILL);
  out.close_both(), err.close_both();

  int wstatus = 0;
  while (::waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  forwarding.reset();  // reaped: its pid may now be anyone's
  result.started = true;
  if (result.timed_out) {
    result.error = argv[0] + ": timed out after " + std::to_string(options.timeout.count()) + " ms";
  } else if (WIFEXITED(wstatus)) {
    result.exit_code = WEXITSTATUS(wstatus);
  } else if (WIFSIGNALED(wstatus)) {
    result.exit_code = 128 + WTERMSIG(wstatus);
    result.error = argv[0] + ": killed by signal " + std::to_string(WTERMSIG(wstatus));
  }
  return result;
}

ProcessResult SystemProcessRunner::run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  ProcessResult captured;
  bool truncated = false;
  auto capture = [&](int stream, std::string_view data) {
    std::string& sink = stream == 1 ? captured.out : captured.err;
    size_t room = sink.size() < kMaxProcessOutput ? kMaxProcessOutput - sink.size() : 0;
    if (data.size() > room) truncated = true;
    sink.append(data.substr(0, room));
  };
  StreamOptions options;
  options.timeout = timeout;
  ProcessResult result = stream_process(argv, options, capture);
  result.out = std::move(captured.out);
  result.err = std::move(captured.err);
  if (truncated && result.error.empty()) result.error = "output cut at " + std::to_string(kMaxProcessOutput) + " bytes";
  return result;
}

std::string RecordedProcessRunner::key(const std::vector<std::string>& argv) {
  std::string k;
  for (auto& a : argv) k += (k.empty() ? "" : " ") + a;
  return k;
}

ProcessResult RecordedProcessRunner::run(const std::vector<std::string>& argv, std::chrono::milliseconds) {
  auto it = recorded_.find(key(argv));
  if (it != recorded_.end()) return it->second;
  ProcessResult r;
  r.not_recorded = true;
  r.error = "'" + key(argv) + "' was not recorded on that machine";
  return r;
}

}  // namespace rocmdoc
