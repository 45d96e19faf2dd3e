#include "install/run/progress.h"

#include <sstream>

#include "base/columns.h"
#include "catch.h"

using namespace rocmdoc;
using namespace std::chrono_literals;

namespace {

// A clock the test moves by hand.
struct FakeClock {
  std::chrono::steady_clock::time_point now{};
  ProgressStyle style(bool live, size_t width = 60) {
    ProgressStyle s;
    s.live = live;
    s.width = width;
    s.clock = [this] { return now; };
    return s;
  }
};

}  // namespace

TEST_CASE("clock_text is minutes and seconds, hours when it takes that long", "[progress]") {
  CHECK(clock_text(0s) == "0:00");
  CHECK(clock_text(7s) == "0:07");
  CHECK(clock_text(754s) == "12:34");
  CHECK(clock_text(3723s) == "1:02:03");
  CHECK(clock_text(1500ms) == "0:01");
}

TEST_CASE("plain progress is one line per event, as a log wants it", "[progress]") {
  FakeClock clock;
  std::ostringstream out;
  {
    Progress p(out, clock.style(false));
    p.line("[1/3] Check: already done (yes)");
    p.start_step("[2/3] ", "Install ROCm");
    p.command("apt-get install -y rocm");
    clock.now += 5s;
    p.tick();
    p.step_done("5.0s");
    p.start_step("[3/3] ", "Add alex to render");
    p.step_stopped("failed");
  }
  CHECK(out.str() ==
        "[1/3] Check: already done (yes)\n"
        "[2/3] Install ROCm\n"
        "    done in 5.0s\n"
        "[3/3] Add alex to render\n");
  CHECK(out.str().find('\r') == std::string::npos);
  CHECK(out.str().find('\033') == std::string::npos);
}

TEST_CASE("live progress is one status line redrawn in place, with the step's clock", "[progress]") {
  FakeClock clock;
  std::ostringstream out;
  Progress p(out, clock.style(true));
  p.start_step("[2/3] ", "Install ROCm");
  CHECK(out.str() == "\r\033[K[2/3] Install ROCm … 0:00");
  p.command("apt-get install -y rocm");
  CHECK(out.str().ends_with("\r\033[K[2/3] Install ROCm: apt-get install -y rocm … 0:00"));
  // Output within the same second draws nothing new; a second later the clock moves.
  size_t before = out.str().size();
  clock.now += 400ms;
  p.tick();
  CHECK(out.str().size() == before);
  clock.now += 42s;
  p.tick();
  CHECK(out.str().ends_with("\r\033[K[2/3] Install ROCm: apt-get install -y rocm … 0:42"));
  // A line that stays goes above the status line, which comes back under it.
  p.line("  warning: something");
  CHECK(out.str().ends_with("\r\033[K  warning: something\n\r\033[K[2/3] Install ROCm: apt-get install -y rocm … 0:42"));
  clock.now += 18s;
  p.step_done("60.0s");
  CHECK(out.str().ends_with("\r\033[K[2/3] Install ROCm: done in 1:00\n"));
  // After the step nothing is redrawn, and clearing has nothing to clear.
  before = out.str().size();
  p.tick();
  p.clear();
  CHECK(out.str().size() == before);
}

TEST_CASE("the status line is cut to the width, never the clock", "[progress]") {
  FakeClock clock;
  std::ostringstream out;
  Progress p(out, clock.style(true, 40));
  p.start_step("[7/9] ", "Install the AMD GPU driver (amdgpu-dkms)");
  p.command("apt-get install -y amdgpu-dkms amdgpu-dkms-firmware linux-headers-6.8.0-45-generic");
  clock.now += 83s;
  p.tick();
  std::string last = out.str().substr(out.str().rfind("\r\033[K") + 4);
  CHECK(last == "[7/9] Install the AMD GPU driver … 1:23");
  CHECK(columns(last) == 39);
  // A stop inside the step says so in place of the status line.
  p.step_stopped("failed");
  CHECK(out.str().ends_with("\r\033[K[7/9] Install the AMD GPU driver (amdgpu-dkms): failed (1:23)\n"));
}
