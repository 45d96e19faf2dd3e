// explain on hostile input, through the real binary: a 1 GiB stream made
// here, a single 100 MB line, binary garbage. It must finish cleanly with
// peak memory bounded independently of the input size.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <random>
#include <string>

#include "catch.h"

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;  // ASan's shadow memory inflates RSS and slows it: smaller inputs, no bound
#else
constexpr bool kSanitized = false;
#endif

struct Finished {
  int exit_code = -1;
  long max_rss_kib = 0;
  std::string out;
};

// Runs `rocmdoc explain --no-probe --json` with `write_input` feeding its stdin.
Finished explain_stream(const std::function<void(int fd)>& write_input) {
  int in[2], out[2];
  REQUIRE(::pipe(in) == 0);
  REQUIRE(::pipe(out) == 0);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::close(in[1]), ::close(out[0]);
    const char* argv[] = {ROCMDOC_BINARY, "explain", "--no-probe", "--json", nullptr};
    ::execv(argv[0], const_cast<char* const*>(argv));
    ::_exit(127);
  }
  ::close(in[0]), ::close(out[1]);
  ::signal(SIGPIPE, SIG_IGN);
  write_input(in[1]);
  ::close(in[1]);
  Finished f;
  char buf[65536];
  for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) > 0;) f.out.append(buf, static_cast<size_t>(n));
  ::close(out[0]);
  int status = 0;
  rusage usage{};
  REQUIRE(::wait4(pid, &status, 0, &usage) == pid);
  f.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  f.max_rss_kib = usage.ru_maxrss;
  return f;
}

void write_all(int fd, const std::string& data) {
  for (size_t done = 0; done < data.size();) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

constexpr long kMemoryBoundKib = 64 * 1024;

}  // namespace

TEST_CASE("explain streams 1 GiB of log with bounded memory and finds the errors in it", "[explain][hostile]") {
  // A training log's noise with a real error every 100 MB: the errors must
  // be found wherever they are, and memory must not grow with the input.
  std::string noise;
  for (int i = 0; noise.size() < (1 << 20); ++i)
    noise += "2026-11-30 10:00:00 INFO step " + std::to_string(i) + " loss=0.4132 lr=3e-4 tokens/s=5123.4\n";
  const size_t total = kSanitized ? (64u << 20) : (1u << 30);
  auto f = explain_stream([&](int fd) {
    size_t written = 0;
    for (int block = 0; written < total; ++block) {
      write_all(fd, noise);
      written += noise.size();
      if (block % 100 == 50) write_all(fd, "RuntimeError: Torch not compiled with CUDA enabled\n");
    }
  });
  CHECK(f.exit_code == 0);
  CHECK(f.out.find("\"torch-cpu-build-on-amd-gpu\"") != std::string::npos);
  INFO("peak RSS " << f.max_rss_kib << " KiB");
  if (!kSanitized) CHECK(f.max_rss_kib < kMemoryBoundKib);
}

TEST_CASE("explain takes a single 100 MB line", "[explain][hostile]") {
  const size_t total = kSanitized ? (16u << 20) : (100u << 20);
  auto f = explain_stream([&](int fd) {
    std::string chunk(1 << 20, 'x');
    for (size_t written = 0; written < total; written += chunk.size()) write_all(fd, chunk);
    write_all(fd, " hipErrorNoBinaryForGpu: Unable to find code object for all current devices!");
  });
  CHECK(f.exit_code == 0);
  CHECK(f.out.find("\"lines\": 1") != std::string::npos);
  if (!kSanitized) CHECK(f.max_rss_kib < kMemoryBoundKib);
}

TEST_CASE("explain reads binary garbage without a crash", "[explain][hostile]") {
  std::mt19937_64 random(42);
  // 1 MiB under the sanitizers, where random bytes are slow: they make the
  // sets' DFAs build new states, most of them early in the input. There 32
  // MiB took 249 s (fresh-clone CI, 2026-12-05), 4 MiB 21 s of CPU and 1 MiB
  // 14 s (2026-12-06). 1 MiB still runs past the words window (256 KiB) into
  // the messages-only set; the 100 MB line's 16 MiB covers dropping the
  // first set. 8 MiB in the plain build: the peak is reached well before
  // (8 MiB: 6 s, 39.6 MB; 32 MiB: 20 s, 40.0 MB; 2026-12-06), so the bound
  // is checked at the plateau.
  std::string garbage(kSanitized ? (1u << 20) : (8u << 20), '\0');
  for (auto& c : garbage) c = static_cast<char>(random());
  auto f = explain_stream([&](int fd) { write_all(fd, garbage); });
  CHECK((f.exit_code == 0 || f.exit_code == 1));
  CHECK(f.out.find("\"recognised\"") != std::string::npos);
  if (!kSanitized) CHECK(f.max_rss_kib < kMemoryBoundKib);
}
