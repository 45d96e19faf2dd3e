#include "output/terminal_wrap.h"

#include "base/columns.h"
#include "base/text.h"
#include "catch.h"

using namespace rocmdoc;

namespace {

size_t widest(const std::string& text) {
  size_t w = 0;
  for (auto& line : split_lines(text)) w = std::max(w, columns(line));
  return w;
}

}  // namespace

TEST_CASE("width 0 and lines that fit are left as they are", "[wrap]") {
  std::string text = "[✓] System — Ubuntu 24.04.1 LTS, kernel 6.8.0-45-generic, x86_64, bare_metal\n\n• No problems found.\n";
  CHECK(wrap_to_width(text, 0) == text);
  CHECK(wrap_to_width(text, 200) == text);
  CHECK(wrap_to_width("", 40).empty());
  CHECK(wrap_to_width("no newline at the end", 80) == "no newline at the end");
}

TEST_CASE("a detail line continues under its text, past the mark and the label", "[wrap]") {
  std::string why = "      why: ROCm opens /dev/kfd and the GPU's render node read-write, and alex is not in render.\n";
  std::string wrapped = wrap_to_width(why, 40);
  CHECK(wrapped ==
        "      why: ROCm opens /dev/kfd and the\n"
        "           GPU's render node read-write,\n"
        "           and alex is not in render.\n");
  CHECK(widest(wrapped) <= 40);
  // The area line continues after "[✗] ", a finding after its mark.
  CHECK(wrap_to_width("[✗] Access — one two three four five six\n", 24) ==
        "[✗] Access — one two\n    three four five six\n");
  CHECK(wrap_to_width("    ✗ some-id: alex cannot open /dev/kfd (owner root)\n", 32) ==
        "    ✗ some-id: alex cannot open\n      /dev/kfd (owner root)\n");
  // A two-word label.
  CHECK(wrap_to_width("    to confirm: run this and look at what it prints\n", 40) ==
        "    to confirm: run this and look at\n                what it prints\n");
}

TEST_CASE("a line laid out in columns continues under its text column", "[wrap]") {
  CHECK(wrap_to_width(" 2/28 ✓ kernel             Running kernel is 6.8.0-45-generic (the plan installs for it) [check only]\n",
                      70) ==
        " 2/28 ✓ kernel             Running kernel is 6.8.0-45-generic (the\n"
        "                           plan installs for it) [check only]\n");
  // Two spaces past the first half are not a column.
  CHECK(wrap_to_width("      why: one two three four five six seven  eight nine ten\n", 40) ==
        "      why: one two three four five six\n           seven  eight nine ten\n");
}

TEST_CASE("what a user copies is never broken", "[wrap]") {
  // A command line stays whole, however long.
  std::string command = "           $ sudo usermod -aG render alex-with-a-rather-long-name-for-this-test\n";
  CHECK(wrap_to_width(command, 30) == command);
  CHECK(wrap_to_width("    check: $ test -w /dev/kfd and more words here\n", 20) ==
        "    check: $ test -w /dev/kfd and more words here\n");
  // A path or URL longer than the line gets a line of its own, whole.
  std::string url = "      fix: see https://rocm.docs.amd.com/projects/install-on-linux/en/latest/reference/x.html now\n";
  CHECK(wrap_to_width(url, 40) ==
        "      fix: see\n"
        "           https://rocm.docs.amd.com/projects/install-on-linux/en/latest/reference/x.html\n"
        "           now\n");
  // A command in the text runs to its punctuation; a `quoted` span is one piece.
  CHECK(wrap_to_width("      fix: To move to it: sudo rocmdoc install --auto --rocm 7.1.1 (with --dry-run first)\n", 52) ==
        "      fix: To move to it:\n"
        "           sudo rocmdoc install --auto --rocm 7.1.1\n"
        "           (with --dry-run first)\n");
  CHECK(wrap_to_width("• 1 problem (1 error, 0 warnings). `rocmdoc check -v` shows everything.\n", 40) ==
        "• 1 problem (1 error, 0 warnings).\n  `rocmdoc check -v` shows everything.\n");
}

TEST_CASE("colour costs no width, and a dim line keeps its indent", "[wrap]") {
  std::string red = "[\033[31m✗\033[0m] \033[1mAccess\033[0m — one two three four five six\n";
  std::string wrapped = wrap_to_width(red, 24);
  CHECK(wrapped == "[\033[31m✗\033[0m] \033[1mAccess\033[0m — one two\n    three four five six\n");
  std::string dim = "\033[2m      evidence: a.b = \"one two three four five six\"\n\033[0m";
  CHECK(wrap_to_width(dim, 36) == "\033[2m      evidence: a.b = \"one two three\n                four five six\"\n\033[0m");
}

TEST_CASE("a narrow terminal keeps a little indent rather than a column at the edge", "[wrap]") {
  std::string wrapped = wrap_to_width("      evidence: alpha beta gamma delta epsilon zeta\n", 24);
  CHECK(wrapped == "      evidence: alpha\n        beta gamma delta\n        epsilon zeta\n");
  CHECK(widest(wrapped) <= 24);
}
