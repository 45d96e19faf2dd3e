// The man page generator on the real App (app.h): escaping, and one page
// per visible command; the pages' options against --help are checked on the
// built pages by tests/packaging/man_pages_test.sh.
#include "cli/man_page.h"

#include <functional>
#include <set>

#include "catch.h"
#include "cli/app.h"
#include "cli/completion.h"

using namespace rocmdoc;

TEST_CASE("roff_escape keeps troff from reading text as requests or escapes", "[cli][man]") {
  CHECK(roff_escape("--root DIR") == "\\-\\-root DIR");
  CHECK(roff_escape("a\\b") == "a\\eb");
  CHECK(roff_escape(".hidden") == "\\&.hidden");
  CHECK(roff_escape("x\n'quoted") == "x\n\\&'quoted");
  CHECK(roff_escape("it's") == "it's");
  CHECK(roff_escape("\xE2\x9C\x93/\xE2\x9C\x97") == "\\[u2713]/\\[u2717]");  // ✓/✗
  CHECK(roff_escape("\xC3\xA9") == "\\[u00E9]");                                // é
  // A stray byte (not UTF-8) still comes out as ASCII.
  std::string stray = roff_escape("\xFF");
  for (char c : stray) CHECK(static_cast<unsigned char>(c) < 0x80);
}

TEST_CASE("man_pages writes one page per command a user sees, hidden ones left out", "[cli][man]") {
  CLI::App app;
  Invocation inv;
  define_app(app, inv);
  std::set<std::string> files;
  for (auto& p : man_pages(app)) {
    files.insert(p.file);
    INFO(p.file);
    CHECK(p.text.rfind(".TH ", 0) == 0);
    for (char c : p.text) CHECK(static_cast<unsigned char>(c) < 0x80);
  }
  CHECK(files.count("rocmdoc.1"));
  CHECK(files.count("rocmdoc-check.1"));
  CHECK(files.count("rocmdoc-rules-lint.1"));
  CHECK(files.count("rocmdoc-completion.1"));
  CHECK_FALSE(files.count("rocmdoc-help-man.1"));
  // One page for rocmdoc and each visible command, at every depth.
  std::function<size_t(const CLI::App&)> count = [&](const CLI::App& a) {
    size_t n = 1;
    for (auto* s : visible_subcommands(a)) n += count(*s);
    return n;
  };
  CHECK(files.size() == count(app));
}

TEST_CASE("a value completes by the name --help gives it", "[cli][completion]") {
  CLI::App app;
  Invocation inv;
  define_app(app, inv);
  auto kind = [&](const std::string& path, const std::string& name) {
    const CLI::App* cmd = &app;
    std::string rest = path;
    while (!rest.empty()) {
      size_t space = rest.find(' ');
      cmd = cmd->get_subcommand(rest.substr(0, space));
      rest = space == std::string::npos ? "" : rest.substr(space + 1);
    }
    return value_kind(*cmd->get_option(name));
  };
  CHECK(kind("check", "--root") == "dir");
  CHECK(kind("check", "--facts") == "file");
  CHECK(kind("check", "--rocm") == "rocm-releases");
  CHECK(kind("install", "--rocm") == "rocm-releases");
  CHECK(kind("fix", "id") == "fix-ids");
  CHECK(kind("completion", "shell") == "words:bash zsh fish");
  CHECK(kind("install", "--user").empty());
  CHECK(completion_script(app, "tcsh").empty());
  CHECK(completion_script(app, "bash").find("complete -F _rocmdoc rocmdoc") != std::string::npos);
}
