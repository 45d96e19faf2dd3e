#include "formats/pacman_desc.h"

#include "catch.h"

using namespace rocmdoc;

TEST_CASE("pacman desc: the fields of a local database entry", "[pacman]") {
  auto p = parse_pacman_desc(
      "%NAME%\nrocm-hip-runtime\n\n%VERSION%\n6.4.1-1\n\n%BASE%\nrocm-hip-sdk\n\n"
      "%DESC%\nPackages to run HIP applications on the AMD platform\n\n%URL%\nhttps://rocm.docs.amd.com/\n\n"
      "%ARCH%\nx86_64\n\n%BUILDDATE%\n1749000000\n\n%PACKAGER%\nTorsten Keßler <tpkessler@archlinux.org>\n\n"
      "%DEPENDS%\nrocm-core\nrocm-language-runtime\nhip-runtime-amd\n\n");
  REQUIRE(p.ok());
  CHECK(p->name == "rocm-hip-runtime");
  CHECK(p->version == "6.4.1-1");
  CHECK(p->base == "rocm-hip-sdk");
  CHECK(p->arch == "x86_64");
  CHECK(p->packager == "Torsten Keßler <tpkessler@archlinux.org>");
  CHECK(p->url == "https://rocm.docs.amd.com/");
}

TEST_CASE("pacman desc: a value line of a list field is not a field name", "[pacman]") {
  auto p = parse_pacman_desc("%DEPENDS%\n%NAME%\n\n%NAME%\nhipblas\n\n%VERSION%\n6.4.1-1\n");
  REQUIRE(p.ok());
  CHECK(p->name == "hipblas");
}

TEST_CASE("pacman desc: what is not a desc file is an error naming the line", "[pacman]") {
  CHECK(parse_pacman_desc("").error() == "no %NAME%");
  CHECK(parse_pacman_desc("%NAME%\nhipblas\n").error() == "no %VERSION%");
  CHECK(parse_pacman_desc("%NAME%\nhipblas\n\nPackage: hipblas\n").error() ==
        "line 4: expected a %FIELD% line, found \"Package: hipblas\"");
}
