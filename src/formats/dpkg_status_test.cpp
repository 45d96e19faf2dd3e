#include "formats/dpkg_status.h"

#include "catch.h"

using namespace rocmdoc;

namespace {
const char* kTwoPackages =
    "Package: rocm-core\n"
    "Status: install ok installed\n"
    "Priority: optional\n"
    "Maintainer: ROCm Dev Support <rocm-dev.support@amd.com>\n"
    "Architecture: amd64\n"
    "Version: 6.4.1.60401-83~24.04\n"
    "Description: ROCm Runtime software stack\n"
    " ROCM-CORE package helps to get ROCm release version,get install path.\n"
    " .\n"
    " It is also important to note that ...\n"
    "\n"
    "Package: libhsakmt1\n"
    "Status: hold ok installed\n"
    "Maintainer: ROCm Team <debian-ai@lists.debian.org>\n"
    "Source: roct-thunk-interface\n"
    "Version: 5.2.3+dfsg-1\n";
}  // namespace

TEST_CASE("dpkg status: packages with their fields, continuation lines skipped", "[dpkg]") {
  DpkgStatus s = parse_dpkg_status(kTwoPackages);
  REQUIRE(s.packages.size() == 2);
  CHECK(s.packages[0].name == "rocm-core");
  CHECK(s.packages[0].version == "6.4.1.60401-83~24.04");
  CHECK(s.packages[0].maintainer == "ROCm Dev Support <rocm-dev.support@amd.com>");
  CHECK(s.packages[0].architecture == "amd64");
  CHECK(s.packages[0].source.empty());
  CHECK(s.packages[0].installed());
  CHECK(s.packages[0].line == 1);
  CHECK(s.packages[1].source == "roct-thunk-interface");
  CHECK(s.packages[1].status == "hold ok installed");
  CHECK(s.packages[1].installed());  // held, but on disk
  CHECK(s.packages[1].line == 12);
  CHECK(s.malformed_lines == 0);
  CHECK(s.stanzas_without_package == 0);
}

TEST_CASE("dpkg status: the package reading and the stanza reading agree", "[dpkg]") {
  const std::string text = std::string(kTwoPackages) +
                           "\n# a comment\n orphan\nVersion: 1\nno colon\n\n\t\nPackage: c\nPACKAGE: d\nstatus: install ok "
                           "installed\n  continued\nBad Name: x\n";
  DpkgStatus s = parse_dpkg_status(text);
  auto stanzas = parse_control_stanzas(text);
  size_t with_package = 0, malformed = 0;
  for (auto& stanza : stanzas) {
    malformed += stanza.malformed_count;
    if (!stanza.first_line("Package").empty()) {
      REQUIRE(with_package < s.packages.size());
      CHECK(s.packages[with_package].line == stanza.line);
      CHECK(s.packages[with_package].name == stanza.first_line("Package"));
      CHECK(s.packages[with_package].status == stanza.first_line("Status"));
      ++with_package;
    }
  }
  CHECK(with_package == s.packages.size());
  CHECK(stanzas.size() == s.packages.size() + s.stanzas_without_package);
  CHECK(malformed == s.malformed_lines);
  CHECK(s.packages.back().name == "c");  // the first of repeated fields
  CHECK(parse_dpkg_status("Version: 1\n\n").packages.empty());
}

TEST_CASE("dpkg status: states other than installed", "[dpkg]") {
  DpkgStatus s = parse_dpkg_status(
      "Package: amdgpu-dkms\nStatus: install ok half-configured\nVersion: 1:6.8.5.60200-2009582.24.04\n\n"
      "Package: old\nStatus: deinstall ok config-files\n\n"
      "Package: weird\nStatus: install ok\n");
  REQUIRE(s.packages.size() == 3);
  CHECK(s.packages[0].state() == "half-configured");
  CHECK_FALSE(s.packages[0].installed());
  CHECK(s.packages[1].state() == "config-files");
  CHECK(s.packages[2].state().empty());
}

TEST_CASE("control stanzas: multi-line values, comments, CRLF, blank lines with spaces", "[dpkg]") {
  auto stanzas = parse_control_stanzas(
      "# a comment\r\n"
      "Types: deb\r\n"
      "URIs: https://repo.radeon.com/rocm/apt/6.4.1\r\n"
      "Suites: noble\r\n"
      "Signed-By:\r\n"
      " -----BEGIN PGP PUBLIC KEY BLOCK-----\r\n"
      " .\r\n"
      " abc\r\n"
      "   \t\r\n"
      "types: deb-src\n");
  REQUIRE(stanzas.size() == 2);
  CHECK(stanzas[0].line == 2);
  CHECK(stanzas[0].first_line("uris") == "https://repo.radeon.com/rocm/apt/6.4.1");
  REQUIRE(stanzas[0].find("Signed-By"));
  CHECK(stanzas[0].find("Signed-By")->value == "\n-----BEGIN PGP PUBLIC KEY BLOCK-----\n.\nabc");
  CHECK(stanzas[0].first_line("Signed-By").empty());
  CHECK(stanzas[1].first_line("Types") == "deb-src");
  CHECK(stanzas[1].find("Missing") == nullptr);
}

TEST_CASE("dpkg status: malformed input never throws", "[dpkg][malformed]") {
  SECTION("empty") {
    auto s = parse_dpkg_status("");
    CHECK(s.packages.empty());
  }
  SECTION("truncated in the middle of a field name") {
    auto s = parse_dpkg_status("Package: a\nStatus: install ok installed\nVers");
    REQUIRE(s.packages.size() == 1);
    CHECK(s.packages[0].version.empty());
    CHECK(s.malformed_lines == 1);
  }
  SECTION("binary bytes") {
    const char raw[] = "\0\x01\xff:\x02\n\x7f\x80garbage\n Package: x\n";
    std::string junk(raw, sizeof raw - 1);
    auto s = parse_dpkg_status(junk);
    CHECK(s.packages.empty());
    CHECK(s.stanzas_without_package == 1);
  }
  SECTION("a continuation line before any field, and a stanza without Package") {
    auto s = parse_dpkg_status(" orphan continuation\nVersion: 1\n\nPackage: b\n");
    REQUIRE(s.packages.size() == 1);
    CHECK(s.packages[0].name == "b");
    CHECK(s.stanzas_without_package == 1);
    CHECK(s.malformed_lines == 1);
  }
  SECTION("empty field names and values") {
    auto s = parse_dpkg_status(": nothing\nPackage:\n\nPackage: c\nVersion:\n");
    REQUIRE(s.packages.size() == 1);
    CHECK(s.packages[0].version.empty());
  }
  SECTION("huge: many stanzas in one pass, malformed line numbers are capped") {
    std::string big;
    for (int i = 0; i < 20000; ++i)
      big += "Package: p" + std::to_string(i) + "\nStatus: install ok installed\nVersion: 1.0-" + std::to_string(i) +
             "\nDescription: x\n" + std::string(200, ' ') + "long continuation\n\n";
    auto s = parse_dpkg_status(big);
    CHECK(s.packages.size() == 20000);
    CHECK(s.packages.back().version == "1.0-19999");
    std::string garbage(100000, 'x');
    for (size_t i = 0; i < garbage.size(); i += 10) garbage[i] = '\n';
    auto stanzas = parse_control_stanzas(garbage);
    REQUIRE(stanzas.size() == 1);
    CHECK(stanzas[0].malformed_count == 10000);
    CHECK(stanzas[0].malformed_lines.size() == ControlStanza::kMalformedLinesKept);
  }
}

TEST_CASE("dpkg status: field names in any case, the first of a repeated field, names that are not names",
          "[dpkg][malformed]") {
  auto s = parse_dpkg_status(
      "PACKAGE: rocm-core\n"
      "version: 1.0\n"
      "Version: 2.0\n"
      "sTaTuS: install ok installed\n"
      "Bad Name: a space\n"
      "Caf\xc3\xa9: not ASCII\n"
      "-Dash: leading dash\n"
      "X-Ok_name.1+: fine\n");
  REQUIRE(s.packages.size() == 1);
  CHECK(s.packages[0].name == "rocm-core");
  CHECK(s.packages[0].version == "1.0");
  CHECK(s.packages[0].installed());
  CHECK(s.malformed_lines == 3);
  // The stanza reader applies the same name rules.
  auto stanzas = parse_control_stanzas("Types: deb\nBad Name: x\nTab\tName: y\nURIs: https://repo.radeon.com\n");
  REQUIRE(stanzas.size() == 1);
  CHECK(stanzas[0].fields.size() == 2);
  CHECK(stanzas[0].malformed_count == 2);
}
