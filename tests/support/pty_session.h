// A child process on a new pseudo-terminal (forkpty), for tests of what a
// person at a terminal sees and types: colour, wrapping, status lines and
// consent prompts. The test reads and writes the master side.
#pragma once

#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "base/text.h"
#include "catch.h"

namespace rocmdoc::test {

// A child on the slave side of a new pseudo-terminal; the test reads and
// writes the master side as a person at the keyboard would.
class PtySession {
 public:
  // env: variables to set in the child (the suite starts without COLUMNS,
  // NO_COLOR and CLICOLOR_FORCE: catch_main.cpp).
  PtySession(const std::function<int()>& child, unsigned short cols, const std::map<std::string, std::string>& env) {
    struct winsize size {};
    size.ws_row = 40;
    size.ws_col = cols;
    std::cout.flush(), std::cerr.flush();  // the child must not repeat what is buffered here
    pid_ = ::forkpty(&master_, nullptr, nullptr, &size);
    if (pid_ == 0) {
      for (auto& [name, value] : env) ::setenv(name.c_str(), value.c_str(), 1);
      int code = child();
      std::cout.flush(), std::cerr.flush();
      ::_exit(code);
    }
  }
  ~PtySession() {
    if (pid_ > 0 && !reaped_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) ::close(master_);
  }
  bool started() const { return pid_ > 0 && master_ >= 0; }

  // Reads until `needle` has appeared (true) or the time is up (false).
  bool wait_for(const std::string& needle, std::chrono::milliseconds limit = std::chrono::seconds(60)) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (output_.find(needle) == std::string::npos) {
      if (std::chrono::steady_clock::now() > deadline || !read_some(100)) return false;
    }
    return true;
  }
  void type(const std::string& keys) {
    ssize_t n = ::write(master_, keys.data(), keys.size());
    REQUIRE(n == static_cast<ssize_t>(keys.size()));
  }
  // Reads to the end (the child closed the terminal) and returns its exit code.
  int finish(std::chrono::milliseconds limit = std::chrono::seconds(60)) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline && read_some(100)) {
    }
    int status = 0;
    pid_t done = 0;
    while (std::chrono::steady_clock::now() < deadline && (done = ::waitpid(pid_, &status, WNOHANG)) == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (done != pid_) return -1;
    reaped_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  // What the terminal received, its line ends ("\r\n", the terminal's
  // ONLCR) made "\n" again.
  std::string text() const { return replace_all(output_, "\r\n", "\n"); }

 private:
  // false at the end of the child's output (EIO once the slave is closed).
  bool read_some(int timeout_ms) {
    pollfd p{master_, POLLIN, 0};
    int ready = ::poll(&p, 1, timeout_ms);
    if (ready < 0) return errno == EINTR;
    if (ready == 0) return true;
    char buf[4096];
    ssize_t n = ::read(master_, buf, sizeof buf);
    if (n <= 0) return n < 0 && errno == EINTR;
    output_.append(buf, static_cast<size_t>(n));
    return true;
  }
  pid_t pid_ = -1;
  int master_ = -1;
  bool reaped_ = false;
  std::string output_;
};

// The built rocmdoc, exec'd in the child (for PtySession).
inline std::function<int()> rocmdoc_binary(std::vector<std::string> args) {
  return [args] {
    std::vector<std::string> argv{ROCMDOC_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    ::execv(cargv[0], cargv.data());
    return 127;
  };
}

}  // namespace rocmdoc::test
