#include "catch.h"
#include "formats/ini_text.h"

using namespace rocmdoc;

namespace {
const IniSyntax kRepoFile{false, true};    // dnf's and zypper's .repo files
const IniSyntax kPacmanConf{true, false};  // pacman.conf
}  // namespace

TEST_CASE("ini: a dnf .repo file, with comments and a baseurl on several lines", "[formats][ini]") {
  auto s = parse_ini(
      "# AMD's repository\n"
      "[rocm]\n"
      "name=ROCm 6.4.1 repository\n"
      "baseurl=https://repo.radeon.com/rocm/rhel9/6.4.1/main\n"
      "        https://mirror.example.org/rocm/rhel9/6.4.1/main\n"
      "; a comment between entries\n"
      "enabled = 0\n"
      "\n"
      "[amdgpu]\n"
      "enabled=1\n"
      "enabled=0\n",
      kRepoFile);
  REQUIRE(s.size() == 2);
  CHECK(s[0].name == "rocm");
  CHECK(s[0].line == 2);
  REQUIRE(s[0].find("baseurl"));
  CHECK(s[0].find("baseurl")->value ==
        "https://repo.radeon.com/rocm/rhel9/6.4.1/main\nhttps://mirror.example.org/rocm/rhel9/6.4.1/main");
  CHECK(s[0].find("baseurl")->line == 4);
  CHECK(s[0].find("enabled")->value == "0");
  CHECK(s[0].find("gpgcheck") == nullptr);
  // A key given twice: the last one counts, as dnf reads it.
  CHECK(s[1].find("enabled")->value == "0");
  CHECK(s[1].find("enabled")->line == 11);
}

TEST_CASE("ini: pacman.conf cuts lines at '#', and a bare key has no value", "[formats][ini]") {
  auto s = parse_ini(
      "[options]\n"
      "Color\n"
      "HoldPkg = pacman glibc # keep these\n"
      "#[testing]\n"
      "#Include = /etc/pacman.d/mirrorlist\n"
      "[extra]\n"
      "Include = /etc/pacman.d/mirrorlist\n"
      "  Server = https://example.org/$repo/os/$arch\n",
      kPacmanConf);
  REQUIRE(s.size() == 2);
  CHECK(s[0].name == "options");
  CHECK(s[0].find("Color")->value.empty());
  CHECK(s[0].find("HoldPkg")->value == "pacman glibc");
  CHECK(s[1].name == "extra");
  REQUIRE(s[1].entries.size() == 2);
  // No continuation lines in pacman.conf: an indented line is an entry of its own.
  CHECK(s[1].entries[1].key == "Server");
  CHECK(s[1].entries[1].value == "https://example.org/$repo/os/$arch");
}

TEST_CASE("ini: entries before any header, broken headers and stray lines", "[formats][ini][malformed]") {
  auto s = parse_ini("Server = https://example.org/x\n[broken\n=no key\n[ok]\nkey=value\n",
                     kPacmanConf);
  REQUIRE(s.size() == 2);
  CHECK(s[0].name.empty());
  CHECK(s[0].line == 0);
  CHECK(s[0].find("Server")->value == "https://example.org/x");
  CHECK(s[1].name == "ok");
  CHECK(s[1].entries.size() == 1);
  CHECK(parse_ini("", {}).empty());
  CHECK(parse_ini(std::string("\0\x01[x]\xff", 5), {}).size() == 1);
}
