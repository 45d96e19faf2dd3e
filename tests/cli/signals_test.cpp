// Signals sent to rocmdoc alone (`kill PID`, a service manager, a job
// scheduler): explain --run passes them to its command and exits with the
// command's status; snapshot and install leave no temporaries behind.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <optional>
#include <thread>

#include "catch.h"
#include "platform/signals.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;
namespace fs = std::filesystem;

namespace {

// rocmdoc with `args`, started directly (no shell) with its output to files.
pid_t start_rocmdoc(const std::vector<std::string>& args, const fs::path& out, const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv{ROCMDOC_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  std::vector<std::string> environment = env;
  for (char** e = environ; *e; ++e) environment.emplace_back(*e);
  std::vector<char*> cenv;
  for (auto& e : environment) cenv.push_back(const_cast<char*>(e.c_str()));
  cenv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, (out.string() + ".out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, (out.string() + ".err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  int e = posix_spawn(&pid, cargv[0], &actions, nullptr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE(e == 0);
  return pid;
}

// Polls `done` every 10 ms for up to 30 s (the sanitizer build starts slowly).
template <class Done>
bool wait_for(Done done) {
  for (int i = 0; i < 3000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The children of pid, from /proc.
std::string children_of(pid_t pid) {
  return read_all("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children");
}

int wait_status(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace

TEST_CASE("explain --run passes SIGINT, SIGTERM and SIGHUP to its command and exits with its status",
          "[cli][explain][signals]") {
  ScratchDir scratch;
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    DYNAMIC_SECTION("signal " << sig) {
      pid_t rocmdoc = start_rocmdoc({"explain", "--no-probe", "--run", "--", "/bin/sleep", "60"}, scratch.path / "run");
      REQUIRE(wait_for([&] { return !children_of(rocmdoc).empty(); }));
      pid_t child = std::stoi(children_of(rocmdoc));
      REQUIRE(::kill(rocmdoc, sig) == 0);  // rocmdoc alone, not its group
      int status = wait_status(rocmdoc);
      INFO(read_all(scratch.path / "run.err"));
      // rocmdoc was not killed: it exited, with the status of a command the
      // signal ended (128 + n), which it explains on stderr.
      REQUIRE(WIFEXITED(status));
      CHECK(WEXITSTATUS(status) == 128 + sig);
      CHECK(read_all(scratch.path / "run.err").find("exited with " + std::to_string(128 + sig)) != std::string::npos);
      // The command is gone, reaped by rocmdoc, not reparented to init.
      CHECK(::kill(child, 0) != 0);
    }
  }
}

TEST_CASE("an interrupted snapshot leaves no temporary directory or file", "[cli][snapshot][signals]") {
  ScratchDir scratch;
  fs::path tmp = scratch.path / "tmp";
  fs::create_directories(tmp);
  fs::path target = scratch.path / "out" / "s.tar.gz";
  fs::create_directories(target.parent_path());
  pid_t rocmdoc = start_rocmdoc({"snapshot", target.string(), "--root", machine_root("ubuntu2404-rx7900xtx")},
                                scratch.path / "snap", {"TMPDIR=" + tmp.string()});
  // Interrupted once its temporary tree exists (or at the end, if it is fast).
  bool started = wait_for([&] { return !fs::is_empty(tmp) || ::waitpid(rocmdoc, nullptr, WNOHANG) != 0; });
  REQUIRE(started);
  ::kill(rocmdoc, SIGTERM);
  int status = wait_status(rocmdoc);
  if (WIFEXITED(status)) WARN("the snapshot finished before SIGTERM reached it");
  else CHECK(WTERMSIG(status) == SIGTERM);  // ended as the signal would end it
  CHECK(fs::is_empty(tmp));
  for (auto& e : fs::directory_iterator(target.parent_path()))
    CHECK(e.path().filename().string().find("tmp-rocmdoc") == std::string::npos);
}

TEST_CASE("a registered temporary is removed, tree and all, when a signal ends the process", "[platform][signals]") {
  ScratchDir scratch;
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    fs::path tree = scratch.path / ("tree" + std::to_string(sig));
    fs::create_directories(tree / "a/b/c");
    for (int i = 0; i < 300; ++i) std::ofstream(tree / "a" / ("f" + std::to_string(i))) << "x";
    std::ofstream(tree / "a/b/c/deep") << "x";
    fs::create_symlink("/etc", tree / "a/link");  // removed, never followed
    fs::path file = scratch.path / ("file" + std::to_string(sig));
    std::ofstream(file) << "x";
    fs::path kept = scratch.path / ("kept" + std::to_string(sig));
    std::ofstream(kept) << "x";
    pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::signal(sig, SIG_DFL);
      RemoveOnSignal a(tree.string());
      RemoveOnSignal b(file.string());
      { RemoveOnSignal forgotten(kept.string()); }
      ::raise(sig);
      ::_exit(0);  // not reached
    }
    int status = wait_status(pid);
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == sig);
    CHECK_FALSE(fs::exists(tree));
    CHECK_FALSE(fs::exists(file));
    CHECK(fs::exists(kept));
    CHECK(fs::exists("/etc/passwd"));
  }
}

TEST_CASE("a signal held while a temporary is made arrives once it is registered, and removes it",
          "[platform][signals]") {
  ScratchDir scratch;
  fs::path made = scratch.path / "made";
  fs::path reached = scratch.path / "reached";
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::signal(SIGTERM, SIG_DFL);
    std::optional<RemoveOnSignal> on_signal;
    {
      HoldSignals held;
      ::raise(SIGTERM);  // between making the temporary and registering it
      fs::create_directories(made / "inside");
      std::ofstream(reached) << "still running";  // the signal waited
      on_signal.emplace(made.string());
    }  // arrives here, with the temporary known
    ::_exit(0);  // not reached
  }
  int status = wait_status(pid);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(fs::exists(reached));
  CHECK_FALSE(fs::exists(made));
}
