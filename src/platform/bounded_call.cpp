#include "platform/bounded_call.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>

namespace rocmdoc {

namespace {

// The child's answer (or its error), whole, into the pipe to the parent.
void send_to_parent(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

// The child's status, when it has already ended; a child that has not (stuck
// in the kernel after SIGKILL) is left to init rather than waited for.
bool reap(pid_t pid, int& status, std::chrono::milliseconds patience) {
  auto until = std::chrono::steady_clock::now() + patience;
  for (;;) {
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return true;
    if (r < 0 && errno != EINTR) return false;
    if (std::chrono::steady_clock::now() >= until) return false;
    ::usleep(2000);
  }
}

}  // namespace

BoundedCallResult call_with_deadline(const std::function<std::string()>& work, std::chrono::milliseconds timeout) {
  BoundedCallResult result;
  int fd[2];
  if (::pipe2(fd, O_CLOEXEC) != 0) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  // Nothing buffered may be written twice, once by each process.
  std::cout.flush(), std::cerr.flush(), std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    result.error = std::string("fork: ") + std::strerror(errno);
    ::close(fd[0]), ::close(fd[1]);
    return result;
  }
  if (pid == 0) {
    // Its own process group, so the timeout also kills what the work started.
    ::setpgid(0, 0);
    ::close(fd[0]);
    int code = 0;
    try {
      send_to_parent(fd[1], work());
    } catch (const std::exception& e) {
      // The parent reads it as the reason (exit 70 says it is not an answer).
      send_to_parent(fd[1], e.what());
      code = 70;
    } catch (...) {
      code = 70;
    }
    // _exit: no destructors or atexit handlers of the parent's objects, no
    // flush of the parent's copied buffers.
    ::_exit(code);
  }
  ::setpgid(pid, pid);  // also here, so the kill below cannot race the child's own call
  ::close(fd[1]);

  auto deadline = std::chrono::steady_clock::now() + timeout;
  bool eof = false;
  while (!eof) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{fd[0], POLLIN, 0};
    int n = ::poll(&p, 1, static_cast<int>(left.count()) + 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) continue;
    char buf[65536];
    ssize_t got = ::read(fd[0], buf, sizeof buf);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) eof = true;
    else result.answer.append(buf, static_cast<size_t>(got));
  }
  ::close(fd[0]);
  int status = 0;
  if (!eof) {
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
    reap(pid, status, std::chrono::milliseconds(200));
    result.timed_out = true;
    result.answer.clear();
    result.error = "did not finish within " + std::to_string(timeout.count()) + " ms, and was killed";
    return result;
  }
  // The answer is whole once the pipe closed; the child exits right after.
  if (!reap(pid, status, std::chrono::milliseconds(2000))) {
    ::kill(-pid, SIGKILL);
    result.error = "the worker closed its answer but did not exit";
    return result;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    result.finished = true;
    return result;
  }
  std::string said = std::move(result.answer);
  result.answer.clear();
  if (WIFEXITED(status) && WEXITSTATUS(status) == 70 && !said.empty()) {
    result.error = "the worker failed: " + said;
    return result;
  }
  result.error = WIFSIGNALED(status) ? std::string("the worker was killed by signal ") + std::to_string(WTERMSIG(status))
                                     : "the worker failed (exit " + std::to_string(WEXITSTATUS(status)) + ")";
  return result;
}

}  // namespace rocmdoc
