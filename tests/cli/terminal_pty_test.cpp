// rocmdoc on a real pseudo-terminal (forkpty): colour in auto mode and its
// opt-outs, wrapping to the terminal's width, and explain --run judging the
// descriptor its explanation goes to. (fix's consent prompt on a terminal:
// tests/install/fix_consent_pty_test.cpp.)
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <map>

#include "base/columns.h"
#include "base/text.h"
#include "catch.h"
#include "cli/exit_codes.h"
#include "pty_session.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;
using namespace std::chrono_literals;

namespace {

bool has_escape(const std::string& s) { return s.find("\033[") != std::string::npos; }

struct Shown {
  int code = -1;
  std::string text;
};
Shown on_pty(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {},
             unsigned short cols = 200) {
  PtySession pty(rocmdoc_binary(args), cols, env);
  REQUIRE(pty.started());
  Shown s;
  s.code = pty.finish();
  s.text = pty.text();
  return s;
}

}  // namespace

TEST_CASE("check colours a terminal in auto mode, and not with NO_COLOR, --color=never or a pipe", "[cli][pty]") {
  std::string root = machine_root("user-not-in-render");
  auto coloured = on_pty({"check", "--root", root});
  CHECK(coloured.code == kExitProblems);
  INFO(coloured.text);
  CHECK(has_escape(coloured.text));
  CHECK(coloured.text.find("\033[31m✗\033[0m") != std::string::npos);
  CHECK_FALSE(has_escape(on_pty({"check", "--root", root}, {{"NO_COLOR", "1"}}).text));
  CHECK_FALSE(has_escape(on_pty({"check", "--root", root, "--color=never"}).text));
  CHECK_FALSE(has_escape(on_pty({"check", "--root", root}, {{"TERM", "dumb"}}).text));
  // --color=always wins over NO_COLOR; an empty NO_COLOR is not set.
  CHECK(has_escape(on_pty({"check", "--root", root, "--color=always"}, {{"NO_COLOR", "1"}}).text));
  CHECK(has_escape(on_pty({"check", "--root", root}, {{"NO_COLOR", ""}}).text));
  // Through a pipe: no colour, unless asked for.
  CHECK_FALSE(has_escape(run_rocmdoc({"check", "--root", root}).out));
  CHECK(has_escape(run_rocmdoc({"check", "--root", root, "--color", "always"}).out));
  auto bad = run_rocmdoc({"check", "--root", root, "--color=sometimes"});
  CHECK(bad.exit_code == kExitUsage);
  CHECK(bad.err.find("--color") != std::string::npos);
}

TEST_CASE("check wraps to the terminal's width and keeps commands whole", "[cli][pty]") {
  std::string root = machine_root("user-not-in-render");
  auto narrow = on_pty({"check", "--root", root}, {{"NO_COLOR", "1"}}, 60);
  INFO(narrow.text);
  bool command_seen = false;
  for (auto& line : split_lines(narrow.text)) {
    if (line.find("$ sudo usermod -aG render alex") != std::string::npos) {
      command_seen = true;
      CHECK(line == "           $ sudo usermod -aG render alex");
      continue;
    }
    // Only a piece that must stay whole (a long path or command) may pass the width.
    if (columns(line) > 60) CHECK(split_words(line).size() <= 3);
  }
  CHECK(command_seen);
  // The why of the finding goes on under its text, not at the margin.
  CHECK(narrow.text.find("\n      why: ROCm opens /dev/kfd") != std::string::npos);
  CHECK(narrow.text.find("\n           ") != std::string::npos);
  // The same report in a wide terminal is the one a pipe gets.
  auto wide = on_pty({"check", "--root", root}, {{"NO_COLOR", "1"}}, 1000);
  CHECK(wide.text == run_rocmdoc({"check", "--root", root}).out);
  // Not a terminal: COLUMNS alone asks for wrapping.
  std::string piped = run_rocmdoc({"check", "--root", root}).out;
  CHECK(piped.find("\n      why: ROCm opens /dev/kfd and the GPU's render node read-write. /dev/kfd lets only") !=
        std::string::npos);
  ::setenv("COLUMNS", "60", 1);
  std::string columns_set = run_rocmdoc({"check", "--root", root}).out;
  ::unsetenv("COLUMNS");
  CHECK(columns_set == narrow.text);
}

TEST_CASE("explain --run judges colour on standard error, where its explanation goes", "[cli][pty]") {
  std::vector<std::string> args = {"explain", "--no-probe", "--run", "--", "sh", "-c",
                                   "echo 'hipErrorNoBinaryForGpu: Unable to find code object for all current devices!'; exit 1"};
  ScratchDir dir;
  std::string err_file = (dir.path / "stderr").string();
  // Standard output a file, standard error the terminal: coloured.
  PtySession to_terminal(
      [&] {
        int fd = ::open("/dev/null", O_WRONLY);
        ::dup2(fd, 1);
        return rocmdoc_binary(args)();
      },
      200, {});
  REQUIRE(to_terminal.started());
  CHECK(to_terminal.finish() == 1);
  INFO(to_terminal.text());
  CHECK(to_terminal.text().find("rocmdoc explain: sh exited with 1") != std::string::npos);
  CHECK(has_escape(to_terminal.text()));
  // Standard output the terminal, standard error a file: no colour in the file.
  PtySession to_file(
      [&] {
        int fd = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ::dup2(fd, 2);
        return rocmdoc_binary(args)();
      },
      200, {});
  REQUIRE(to_file.started());
  CHECK(to_file.finish() == 1);
  std::string explanation = read_text_file(err_file);
  CHECK(explanation.find("hipErrorNoBinaryForGpu") != std::string::npos);
  CHECK_FALSE(has_escape(explanation));
  CHECK(to_file.text().find("hipErrorNoBinaryForGpu") != std::string::npos);  // the command's own output
}

