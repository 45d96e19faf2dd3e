// Every command rocmdoc prints for a person to paste goes through one
// quoting function (base/text.h, shell_word). Pasted into a shell, each word
// must arrive as exactly the bytes it holds: whatever a log or a recorded
// machine put into it, nothing else runs. Checked with bash itself.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include "base/text.h"
#include "catch.h"
#include "platform/process_runner.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {

// The words bash sees in `printf '%s\0' LINE`, split at the NULs.
std::vector<std::string> words_bash_sees(const std::string& line) {
  SystemProcessRunner runner;
  auto r = runner.run({"bash", "-c", "printf '%s\\0' " + line}, std::chrono::seconds(10));
  INFO(r.err);
  REQUIRE(r.succeeded());
  std::vector<std::string> words;
  std::string word;
  for (char c : r.out) {
    if (c == '\0') {
      words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  return words;
}

}  // namespace

TEST_CASE("a quoted word reaches the shell as exactly its bytes", "[text][hostile]") {
  const std::vector<std::string> hostile = {
      "plain/word-1.2",
      "with space",
      "it's",
      "'';touch${IFS}PWNED;''",
      "$(touch PWNED)",
      "`touch PWNED`",
      "a\"b\\c",
      "line\nbreak; touch PWNED",
      "esc\x1b[31mred\x1b[0m",
      "tab\there",
      "back\\slash'and quote",
      "*?[]{}~!#&|<>",
      "\x01'; touch PWNED #",
      "caf\xc3\xa9 \xe2\x80\xae",
      "",
  };
  for (auto& w : hostile) {
    INFO("word: " << w << " quoted: " << shell_word(w));
    CHECK(words_bash_sees(shell_word(w)) == std::vector<std::string>{w});
  }
  CHECK(shell_words({"dkms", "remove", "amdgpu/6.0"}, true) == "sudo dkms remove amdgpu/6.0");
}

// dash (Debian's and Ubuntu's /bin/sh) has no $'...': a word written that
// way must still be one word there, whatever its bytes, and run nothing.
TEST_CASE("a quoted word with control bytes stays one word in a shell without $'...'", "[text][hostile]") {
  ScratchDir dir;
  for (std::string w : {"\x01'; touch PWNED #", "a\x1b]0;x\x07'$(touch PWNED)'", "\\'\n; touch PWNED"}) {
    SystemProcessRunner runner;
    auto r = runner.run({"sh", "-c", "cd \"$0\" && printf '%s\\0' " + shell_word(w), dir.path.string()},
                        std::chrono::seconds(10));
    INFO("quoted: " << shell_word(w) << " err: " << r.err);
    CHECK(r.succeeded());
    CHECK(std::count(r.out.begin(), r.out.end(), '\0') == 1);
    CHECK(!std::filesystem::exists(dir.path / "PWNED"));
  }
}

// hostile-input D3: text explain captured from a log went into the printed
// fix with a bare quote, so pasting the line ran `touch`.
TEST_CASE("explain's printed fix keeps captured log text one word", "[explain][hostile]") {
  ScratchDir dir;
  std::string captured = "6.0';touch${IFS}PWNED;'";
  std::string log = (dir.path / "d3.log").string();
  std::ofstream(log) << "File: /var/lib/dkms/amdgpu/" << captured << "/source/dkms.conf does not exist.\n";
  auto r = run_rocmdoc({"explain", "--no-probe", "-f", log});
  std::string line;
  for (auto& l : split_lines(r.out))
    if (l.find("$ sudo dkms remove") != std::string::npos) line = l;
  INFO(r.out);
  REQUIRE(!line.empty());
  std::string command = line.substr(line.find("$ sudo ") + 7);
  CHECK(words_bash_sees(command) == std::vector<std::string>{"dkms", "remove", "amdgpu/" + captured, "--all"});
}
