#include "catch.h"
#include "probe_test_support.h"
#include "probe/rocm/pacman_repos.h"

using namespace rocmdoc;
using rocmdoc::test::MemoryMachine;

namespace {
Json pacman_repos(MemoryMachine& m) { return m.run(probe_rocm)["pacman_repos"]; }
bool mentions(const Json& fact, const std::string& text) { return unknown_reason(fact).find(text) != std::string::npos; }

// pacman.conf as Arch ships it, trimmed, with room for more.
std::string pacman_conf(const std::string& more) {
  return "[options]\nHoldPkg = pacman glibc\nArchitecture = auto\nInclude = /etc/pacman.d/options.conf\n\n"
         "#[core-testing]\n#Include = /etc/pacman.d/mirrorlist\n\n"
         "[core]\nInclude = /etc/pacman.d/mirrorlist\n\n[extra]\nInclude = /etc/pacman.d/mirrorlist\n\n" +
         more;
}
}  // namespace

TEST_CASE("pacman repos: Arch's own are left out, a third party's and AMD's are listed", "[rocm][pacman-repos]") {
  CHECK(is_official_arch_repo("extra"));
  CHECK(is_official_arch_repo("multilib-testing"));
  CHECK_FALSE(is_official_arch_repo("arch4edu"));
  MemoryMachine m;
  m.fs->file("/etc/pacman.conf", pacman_conf("[rocm-custom]\nSigLevel = Optional\n"
                                             "Server = https://repo.radeon.com/rocm/arch/$arch # hand-made\n\n"
                                             "Include = /etc/pacman.d/repos/*.conf\n"))
      .file("/etc/pacman.d/mirrorlist", "## Worldwide\nServer = https://geo.mirror.pkgbuild.com/$repo/os/$arch\n")
      .file("/etc/pacman.d/options.conf", "ParallelDownloads = 5\n")
      .file("/etc/pacman.d/repos/arch4edu.conf", "[arch4edu]\nServer = https://mirrors.example.org/arch4edu/$arch\n")
      .file("/etc/pacman.d/repos/chaotic.conf", "[chaotic-aur]\nInclude = /etc/pacman.d/chaotic-mirrorlist\n")
      .file("/etc/pacman.d/repos/notes.txt", "[ignored]\n")
      .file("/etc/pacman.d/chaotic-mirrorlist", "Server = https://cdn-mirror.chaotic.cx/$repo/$arch\n");
  Json r = pacman_repos(m);
  REQUIRE(r.is_array());
  REQUIRE(r.size() == 3);
  CHECK(r[0]["name"] == "rocm-custom");
  CHECK(r[0]["file"] == "/etc/pacman.conf");
  CHECK(r[0]["line"] == 15);
  CHECK(r[0]["servers"] == Json::array({"https://repo.radeon.com/rocm/arch/$arch"}));
  CHECK(r[0]["amd"] == true);
  CHECK(r[0]["rocm"] == true);
  // The included files, in the order glob(3) gives them, each section in its own file.
  CHECK(r[1]["name"] == "arch4edu");
  CHECK(r[1]["file"] == "/etc/pacman.d/repos/arch4edu.conf");
  CHECK(r[1]["line"] == 1);
  CHECK(r[1]["amd"] == false);
  CHECK(r[1]["rocm"] == false);
  // A server list two includes deep.
  CHECK(r[2]["name"] == "chaotic-aur");
  CHECK(r[2]["servers"] == Json::array({"https://cdn-mirror.chaotic.cx/$repo/$arch"}));
}

TEST_CASE("pacman repos: Arch's repositories only, and configurations that cannot tell",
          "[rocm][pacman-repos][malformed]") {
  SECTION("only Arch's own: an empty list") {
    MemoryMachine m;
    m.fs->file("/etc/pacman.conf", pacman_conf(""))
        .file("/etc/pacman.d/mirrorlist", "Server = https://geo.mirror.pkgbuild.com/$repo/os/$arch\n")
        .file("/etc/pacman.d/options.conf", "");
    CHECK(pacman_repos(m) == Json::array());
  }
  SECTION("no pacman.conf: unknown, not an empty list") {
    MemoryMachine m;
    CHECK(mentions(pacman_repos(m), "/etc/pacman.conf: no such file"));
  }
  SECTION("an included file that is missing or unreadable makes the list unknown") {
    MemoryMachine m;
    m.fs->file("/etc/pacman.conf", pacman_conf("")).file("/etc/pacman.d/options.conf", "")
        .file("/etc/pacman.d/mirrorlist", "").fail("/etc/pacman.d/mirrorlist", "permission denied");
    CHECK(mentions(pacman_repos(m), "mirrorlist: permission denied"));
    MemoryMachine n;
    n.fs->file("/etc/pacman.conf", pacman_conf("")).file("/etc/pacman.d/options.conf", "");
    CHECK(mentions(pacman_repos(n), "/etc/pacman.d/mirrorlist"));
  }
  SECTION("an Include that includes itself stops at pacman's depth, with a reason") {
    MemoryMachine m;
    m.fs->file("/etc/pacman.conf", "[x]\nInclude = /etc/pacman.d/loop.conf\n")
        .file("/etc/pacman.d/loop.conf", "Include = /etc/pacman.d/loop.conf\n");
    CHECK(mentions(pacman_repos(m), "included more than 10 levels deep"));
  }
  SECTION("a wildcard in a directory is not expanded, and says so") {
    MemoryMachine m;
    m.fs->file("/etc/pacman.conf", "[x]\nInclude = /etc/pacman.d/*/mirrorlist\n");
    CHECK(mentions(pacman_repos(m), "/etc/pacman.conf:2: Include \"/etc/pacman.d/*/mirrorlist\" has a wildcard"));
  }
  SECTION("a pattern that matches nothing, and a binary file") {
    MemoryMachine m;
    m.fs->file("/etc/pacman.conf", "[x]\nInclude = /etc/pacman.d/none/*.conf\n");
    Json r = pacman_repos(m);
    REQUIRE(r.size() == 1);
    CHECK(r[0]["servers"] == Json::array());
    MemoryMachine b;
    b.fs->file("/etc/pacman.conf", std::string("\0\x01\x02\x03", 4));
    CHECK(mentions(pacman_repos(b), "binary content"));
  }
}
