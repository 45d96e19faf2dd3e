// rocmdoc fix's consent prompt on a real pseudo-terminal (forkpty): answered
// with n, y and Ctrl-D, and not asked without a terminal on standard input.
// The fix runs in the forked child on the user-not-in-render fixture
// through a fake changer (fix_world.h), with the consent main chooses for a
// terminal (a TerminalConsent reading std::cin) and the status line main
// chooses for one, so the prompt and the progress are the real ones and
// nothing on this computer changes.
#include <fcntl.h>
#include <unistd.h>

#include <iostream>

#include "catch.h"
#include "cli/exit_codes.h"
#include "cli/terminal_habits.h"
#include "fix_world.h"
#include "platform/terminal.h"
#include "pty_session.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {

// `rocmdoc fix device-node-not-accessible` in the child, deciding its
// terminal as main does: consent asked when standard input is a terminal,
// the status line when standard output is one. After the run it prints
// what the fake changer changed.
int fix_in_child() {
  Applied a;
  a.usermod_works();
  FixOptions options = a.options(kFixId, nullptr);
  options.stdin_is_terminal = is_terminal(0);
  OutputHabits habits = output_habits(1, ColorMode::automatic);
  options.stdout_is_terminal = habits.terminal;
  options.width = habits.width;
  MachineOptions machine;
  int code = run_fix_command(machine, options, std::cin, std::cout, std::cerr);
  std::cout << "\nchanged: [";
  for (auto& c : a.changes()) std::cout << c << ";";
  std::cout << "]" << std::endl;
  return code;
}

}  // namespace

TEST_CASE("fix asks on a terminal: n changes nothing, y applies, Ctrl-D is no", "[cli][pty][fix]") {
  SECTION("n") {
    PtySession pty(fix_in_child, 100, {});
    REQUIRE(pty.started());
    REQUIRE(pty.wait_for("Go ahead? [y/N] "));
    CHECK(pty.text().find("Add alex to group render") != std::string::npos);
    CHECK(pty.text().find("usermod -aG render alex") != std::string::npos);
    pty.type("n\n");
    CHECK(pty.finish() == kExitDeclined);
    INFO(pty.text());
    CHECK(pty.text().find("Stopped: declined at") != std::string::npos);
    CHECK(pty.text().find("changed: []") != std::string::npos);
  }
  SECTION("y") {
    PtySession pty(fix_in_child, 100, {});
    REQUIRE(pty.started());
    REQUIRE(pty.wait_for("Go ahead? [y/N] "));
    pty.type("y\n");
    CHECK(pty.finish() == kExitOk);
    INFO(pty.text());
    CHECK(pty.text().find("changed: [run usermod -aG render alex;]") != std::string::npos);
    // The running step was a status line, redrawn in place, then its result.
    CHECK(pty.text().find("\r\033[K[1/1] Add alex to group render") != std::string::npos);
    CHECK(pty.text().find("desktop session): done in 0:0") != std::string::npos);
    CHECK(pty.text().find("    done in ") == std::string::npos);  // the plain form is for logs
    CHECK(pty.text().find("Done: 1 step run") != std::string::npos);
  }
  SECTION("Ctrl-D") {
    PtySession pty(fix_in_child, 100, {});
    REQUIRE(pty.started());
    REQUIRE(pty.wait_for("Go ahead? [y/N] "));
    pty.type("\x04");
    CHECK(pty.finish() == kExitDeclined);
    INFO(pty.text());
    CHECK(pty.text().find("changed: []") != std::string::npos);
  }
  SECTION("no terminal on standard input: not asked, nothing changed") {
    PtySession pty(
        [] {
          int fd = ::open("/dev/null", O_RDONLY);
          ::dup2(fd, 0);
          return fix_in_child();
        },
        100, {});
    REQUIRE(pty.started());
    CHECK(pty.finish() == kExitDeclined);
    INFO(pty.text());
    CHECK(pty.text().find("Go ahead?") == std::string::npos);
    CHECK(pty.text().find("no terminal and no --yes: nothing was changed") != std::string::npos);
    CHECK(pty.text().find("changed: []") != std::string::npos);
  }
}
