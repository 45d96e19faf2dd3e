#include "platform/bounded_call.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdexcept>

#include "catch.h"

using namespace rocmdoc;
using namespace std::chrono_literals;

TEST_CASE("a bounded call returns the child's answer", "[bounded-call]") {
  int in_parent = 1;
  auto r = call_with_deadline(
      [&] {
        in_parent = 2;  // the child's copy: the parent's stays 1
        return std::string(200000, 'x') + "end";
      },
      5s);
  CHECK(r.finished);
  CHECK_FALSE(r.timed_out);
  CHECK(r.answer.size() == 200003);
  CHECK(r.answer.substr(200000) == "end");
  CHECK(in_parent == 1);
}

TEST_CASE("a bounded call stuck in a blocking open is killed at the deadline", "[bounded-call]") {
  // Opening a FIFO nobody writes blocks in the kernel, as a read of a hung
  // sysfs file does: no timer inside the worker could end it.
  char dir[] = "/tmp/rocmdoc-bounded.XXXXXX";
  REQUIRE(::mkdtemp(dir));
  std::string fifo = std::string(dir) + "/fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto started = std::chrono::steady_clock::now();
  auto r = call_with_deadline(
      [&] {
        int fd = ::open(fifo.c_str(), O_RDONLY);
        if (fd >= 0) ::close(fd);
        return std::string("opened");
      },
      300ms);
  auto took = std::chrono::steady_clock::now() - started;
  CHECK_FALSE(r.finished);
  CHECK(r.timed_out);
  CHECK(r.answer.empty());
  CHECK(r.error == "did not finish within 300 ms, and was killed");
  CHECK(took >= 300ms);
  CHECK(took < 2s);
  ::unlink(fifo.c_str());
  ::rmdir(dir);
}

TEST_CASE("a bounded call whose worker crashes or throws is not finished, and says why", "[bounded-call]") {
  auto crashed = call_with_deadline(
      []() -> std::string {
        ::kill(::getpid(), SIGKILL);  // not abort(): Catch's handler would report it from the child
        return "unreachable";
      },
      5s);
  CHECK_FALSE(crashed.finished);
  CHECK_FALSE(crashed.timed_out);
  CHECK(crashed.error == "the worker was killed by signal 9");

  auto threw = call_with_deadline([]() -> std::string { throw std::runtime_error("no"); }, 5s);
  CHECK_FALSE(threw.finished);
  CHECK(threw.error == "the worker failed: no");

  auto exited = call_with_deadline([]() -> std::string { ::_exit(3); }, 5s);
  CHECK(exited.error == "the worker failed (exit 3)");
}
