#include "catch.h"
#include "memory_filesystem.h"
#include "probe/probe.h"
#include "probe_test_support.h"

using namespace rocmdoc;

namespace {
// Runs the probe on a machine made of this in-memory tree.
Json distro_of(MemoryFileSystem* fs) {
  test::MemoryMachine m;
  m.machine.fs.reset(fs);  // the machine owns the tree from here on
  return m.run(probe_distro);
}
}  // namespace

TEST_CASE("distro reads os-release with quotes and ID_LIKE lists", "[distro]") {
  auto* fs = new MemoryFileSystem;
  fs->file("/etc/os-release",
           "PRETTY_NAME=\"Ubuntu 24.04.1 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"24.04\"\nVERSION_CODENAME=noble\n"
           "ID=ubuntu\nID_LIKE=debian\n# comment\nbroken line\n");
  Json d = distro_of(fs);
  CHECK(d["id"] == "ubuntu");
  CHECK(d["version_id"] == "24.04");
  CHECK(d["codename"] == "noble");
  CHECK(d["id_like"] == Json::array({"debian"}));
  CHECK(d["pretty_name"] == "Ubuntu 24.04.1 LTS");
}

TEST_CASE("distro falls back to /usr/lib/os-release", "[distro]") {
  auto* fs = new MemoryFileSystem;
  fs->file("/usr/lib/os-release", "ID=debian\nVERSION_ID=\"12\"\n");
  Json d = distro_of(fs);
  CHECK(d["id"] == "debian");
  CHECK(d["codename"].is_null());
  CHECK(d["source"] == "/usr/lib/os-release");
}

TEST_CASE("distro is unknown, with the reason, for missing or garbage files", "[distro][malformed]") {
  CHECK(is_unknown(distro_of(new MemoryFileSystem)));
  CHECK(unknown_reason(distro_of(new MemoryFileSystem)).find("/etc/os-release: no such file") != std::string::npos);
  auto* empty = new MemoryFileSystem;
  empty->file("/etc/os-release", "");
  CHECK(unknown_reason(distro_of(empty)).find("no ID=") != std::string::npos);
  auto* binary = new MemoryFileSystem;
  binary->file("/etc/os-release", std::string("ID=\0\x01\x02\x03", 7));
  CHECK(unknown_reason(distro_of(binary)).find("binary") != std::string::npos);
  auto* denied = new MemoryFileSystem;
  denied->file("/etc/os-release", "ID=x\n").fail("/etc/os-release", "permission denied");
  CHECK(unknown_reason(distro_of(denied)).find("permission denied") != std::string::npos);
}
