#include <optional>

#include "catch.h"
#include "probe_test_support.h"

using namespace rocmdoc;
using rocmdoc::test::MemoryMachine;

namespace {
Json ubuntu() { return Json::parse(R"({"distro": {"id": "ubuntu", "version_id": "24.04"}})"); }
}  // namespace

TEST_CASE("kernel reads the release, its numbers and Ubuntu's flavour", "[kernel]") {
  MemoryMachine m;
  m.fs->file("/proc/sys/kernel/osrelease", "6.8.0-45-generic\n");
  m.fs->file("/proc/cmdline",
             "BOOT_IMAGE=/boot/vmlinuz-6.8.0-45-generic root=UUID=1 ro quiet splash iommu=pt amd_iommu=on "
             "amdgpu.ppfeaturemask=0xffffffff pcie_aspm=off modprobe.blacklist=radeon,nouveau\n");
  m.fs->file("/var/lib/dpkg/status",
             "Package: linux-generic-hwe-24.04\nStatus: install ok installed\nVersion: 6.8.0-45.45\n\n");
  Json k = m.run(probe_kernel, ubuntu());
  CHECK(k["release"] == "6.8.0-45-generic");
  CHECK(k["version"] == Json::array({6, 8, 0}));
  CHECK(k["flavour"] == "generic");
  CHECK(k["hwe"] == true);
  CHECK(k["cmdline"]["iommu"] == "pt");
  CHECK(k["cmdline"]["amd_iommu"] == "on");
  CHECK(k["cmdline"]["intel_iommu"].is_null());
  CHECK(k["cmdline"]["pcie_aspm"] == "off");
  CHECK(k["cmdline"]["amdgpu"]["ppfeaturemask"] == "0xffffffff");
  CHECK(k["cmdline"]["modprobe_blacklist"] == Json::array({"radeon", "nouveau"}));
}

TEST_CASE("kernel lists the GPU parameters of the command line, where workarounds are set", "[kernel]") {
  MemoryMachine m;
  m.fs->file("/proc/sys/kernel/osrelease", "6.8.0-45-generic\n");
  // cwsr-enable is written with a dash (the kernel reads it as cwsr_enable);
  // amdgpu.mes is given twice and the last one counts, as in the kernel.
  m.fs->file("/proc/cmdline",
             "BOOT_IMAGE=/boot/vmlinuz root=UUID=1 ro quiet amdgpu.mes=1 iommu=pt amdgpu.cwsr-enable=0 "
             "amdgpu.gttsize=49152 ttm.pages_limit=12582912 amd_iommu=off amdgpu.mes=0 splash\n");
  Json c = m.run(probe_kernel)["cmdline"];
  CHECK(c["gpu_params"] == Json::array({"iommu=pt", "amdgpu.cwsr_enable=0", "amdgpu.gttsize=49152",
                                         "ttm.pages_limit=12582912", "amd_iommu=off", "amdgpu.mes=0"}));
  CHECK(c["amdgpu"]["cwsr_enable"] == "0");
  CHECK(c["amdgpu"]["mes"] == "0");
  CHECK(c["amd_iommu"] == "off");

  MemoryMachine plain;
  plain.fs->file("/proc/cmdline", "BOOT_IMAGE=/boot/vmlinuz root=UUID=1 ro quiet splash\n");
  CHECK(plain.run(probe_kernel)["cmdline"]["gpu_params"] == Json::array());
}

TEST_CASE("kernel falls back to /proc/version and knows Debian, WSL and custom builds", "[kernel]") {
  MemoryMachine m;
  m.fs->file("/proc/version", "Linux version 6.1.0-26-amd64 (debian-kernel@lists.debian.org) (gcc-12) #1 SMP\n");
  Json k = m.run(probe_kernel, Json::parse(R"({"distro": {"id": "debian"}})"));
  CHECK(k["release"] == "6.1.0-26-amd64");
  CHECK(k["release_source"] == "/proc/version");
  CHECK(k["flavour"] == "debian");
  CHECK(k["hwe"].is_null());
  CHECK(is_unknown(k["cmdline"]));

  MemoryMachine wsl;
  wsl.fs->file("/proc/sys/kernel/osrelease", "5.15.167.4-microsoft-standard-WSL2\n");
  CHECK(wsl.run(probe_kernel)["flavour"] == "wsl");

  MemoryMachine custom;
  custom.fs->file("/proc/sys/kernel/osrelease", "6.18.44-fc-v669\n");
  Json c = custom.run(probe_kernel);
  CHECK(c["flavour"] == "custom");
  CHECK(c["version"] == Json::array({6, 18, 44}));
  CHECK(is_unknown(c["hwe"]));  // no distro facts to go on
}

TEST_CASE("kernel records unknown for missing, empty and garbage files", "[kernel][malformed]") {
  MemoryMachine none;
  Json k = none.run(probe_kernel);
  CHECK(is_unknown(k["release"]));
  CHECK(unknown_reason(k["release"]).find("/proc/version") != std::string::npos);
  CHECK(is_unknown(k["flavour"]));

  MemoryMachine garbage;
  garbage.fs->file("/proc/sys/kernel/osrelease", "\n");
  garbage.fs->file("/proc/version", "not a kernel\n");
  garbage.fs->file("/proc/cmdline", std::string("\0\0\0\x01", 4));
  Json g = garbage.run(probe_kernel, ubuntu());
  CHECK(is_unknown(g["release"]));
  CHECK(is_unknown(g["cmdline"]));
  CHECK(is_unknown(g["hwe"]));  // no dpkg status

  MemoryMachine odd;
  odd.fs->file("/proc/sys/kernel/osrelease", "banana\n");
  CHECK(is_unknown(odd.run(probe_kernel)["version"]));
}

// Whether the user's own dmesg may read the kernel log: 0 and 1 are the
// kernel's two settings; no file, or anything else in it, is unknown with
// the reason, never a guess either way.
TEST_CASE("kernel reads dmesg_restrict as 0 or 1, and unknown otherwise", "[kernel][malformed]") {
  auto restrict_of = [](std::optional<std::string> content) {
    MemoryMachine m;
    if (content) m.fs->file("/proc/sys/kernel/dmesg_restrict", *content);
    return m.run(probe_kernel)["dmesg_restrict"];
  };
  CHECK(restrict_of("0\n") == 0);
  CHECK(restrict_of("1\n") == 1);

  Json missing = restrict_of(std::nullopt);
  REQUIRE(is_unknown(missing));
  CHECK(unknown_reason(missing).find("dmesg_restrict") != std::string::npos);

  for (const char* garbage : {"2\n", "yes\n", "01\n", "-1\n"}) {
    INFO(garbage);
    Json g = restrict_of(garbage);
    REQUIRE(is_unknown(g));
    CHECK(unknown_reason(g).find("not 0 or 1") != std::string::npos);
  }
  Json empty = restrict_of("\n");
  REQUIRE(is_unknown(empty));
  CHECK(unknown_reason(empty).find("empty") != std::string::npos);
  CHECK(unknown_reason(restrict_of(std::string("1\0\x01", 3))).find("binary") != std::string::npos);
}
