#include "catch.h"
#include "probe/firmware/config_space.h"
#include "config_space_test_support.h"
#include "memory_filesystem.h"
#include "probe/probe.h"
#include "base/text.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {

const std::string kRootPort = "/sys/devices/pci0000:00/0000:00:01.1";
const std::string kUpstream = kRootPort + "/0000:01:00.0";
const std::string kDownstream = kUpstream + "/0000:02:00.0";
const std::string kGpu = kDownstream + "/0000:03:00.0";
const std::string kSecureBoot = "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c";
const uint32_t kRootCompleter = kCompleter32 | kCompleter64;

void add_device(MemoryFileSystem& fs, const std::string& dir, const std::string& vendor, const std::string& cls,
                const ConfigSpace& config) {
  fs.symlink("/sys/bus/pci/devices/" + path_basename(dir), "../../.." + dir.substr(4));
  fs.file(dir + "/vendor", vendor + "\n").file(dir + "/device", "0x744c\n").file(dir + "/class", cls + "\n");
  fs.file(dir + "/config", config.bytes());
}

// A Radeon behind its own switch, atomics routed all the way, on an EFI
// machine with Secure Boot, an AMD IOMMU and a 16 GiB BAR 0.
MemoryFileSystem* efi_machine() {
  auto* fs = new MemoryFileSystem;
  add_device(*fs, kRootPort, "0x1022", "0x060400", ConfigSpace::port(kPcieRootPort, kRootCompleter));
  add_device(*fs, kUpstream, "0x1002", "0x060400", ConfigSpace::port(kPcieSwitchUpstream, kAtomicRouting));
  add_device(*fs, kDownstream, "0x1002", "0x060400", ConfigSpace::port(kPcieSwitchDownstream, kAtomicRouting));
  add_device(*fs, kGpu, "0x1002", "0x030000", ConfigSpace::port(kPcieEndpoint, 0, kRequesterEnable));
  fs->file(kGpu + "/resource",
           "0x0000007800000000 0x0000007bffffffff 0x000000000014220c\n"
           "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
           "0x0000007c00000000 0x0000007c0fffffff 0x000000000014220c\n"
           "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
           "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
           "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
           "0x00000000fcc00000 0x00000007ffffffff 0x0000000000046200\n");  // a ROM larger than VRAM: not a BAR
  fs->symlink(kGpu + "/iommu_group", "../../../../../../kernel/iommu_groups/12");
  fs->file("/sys/kernel/iommu_groups/12/type", "DMA-FQ\n");
  fs->file(kSecureBoot, std::string("\x06\x00\x00\x00\x01", 5));
  fs->file("/sys/kernel/security/lockdown", "[none] integrity confidentiality\n");
  fs->file("/sys/module/pcie_aspm/parameters/policy", "[default] performance powersave powersupersave \n");
  fs->dir("/sys/class/iommu/ivhd0");
  fs->file("/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 iommu=soft amd_iommu=on iommu=pt quiet\n");
  return fs;
}

Json kfd_with_vram(uint64_t bytes) {
  Json node = {{"pci_address", "0000:03:00.0"}, {"vram_bytes", bytes}};
  return Json{{"nodes", Json::array({node})}};
}

// Runs pci (unless the facts already have it) and then firmware, as the
// catalogue does.
Json firmware_of(MemoryFileSystem* fs, Json facts = Json::object()) {
  Machine m;
  m.fs.reset(fs);
  m.runner = std::make_unique<RecordedProcessRunner>(std::map<std::string, ProcessResult>{});
  ProbeOptions opts;
  ProbeContext ctx(m, opts);
  if (!facts.contains("pci")) facts["pci"] = probe_pci(ctx, facts);
  return probe_firmware(ctx, facts);
}

}  // namespace

TEST_CASE("firmware reads EFI, Secure Boot, lockdown, ASPM and the IOMMU", "[firmware]") {
  Json f = firmware_of(efi_machine());
  CHECK(f["efi"] == true);
  CHECK(f["secure_boot"] == true);
  CHECK(f["lockdown"] == "none");
  CHECK(f["aspm_policy"] == "default");
  CHECK(f["iommu"]["units"] == Json::array({"ivhd0"}));
  CHECK(f["iommu"]["cmdline"]["iommu"] == "pt");  // the last one counts
  CHECK(f["iommu"]["cmdline"]["amd_iommu"] == "on");
  CHECK(f["iommu"]["cmdline"]["intel_iommu"].is_null());
}

TEST_CASE("firmware checks each AMD GPU's IOMMU group, atomics and BAR", "[firmware]") {
  Json f = firmware_of(efi_machine(), Json{{"kfd", kfd_with_vram(17163091968ull)}});
  REQUIRE(f["gpus"].size() == 1);
  const Json& gpu = f["gpus"][0];
  CHECK(gpu["address"] == "0000:03:00.0");
  CHECK(gpu["iommu_group_type"] == "DMA-FQ");
  CHECK(gpu["atomics"]["routed_to_root"] == true);
  CHECK(gpu["atomics"]["path"].size() == 4);
  CHECK(gpu["atomics"]["path"][3]["address"] == "0000:00:01.1");
  CHECK(gpu["bar"]["largest_bytes"] == 16ull << 30);
  CHECK(gpu["bar"]["vram_bytes"] == 17163091968ull);
  CHECK(gpu["bar"]["large_bar"] == true);
  Json small = firmware_of(efi_machine(), Json{{"kfd", kfd_with_vram(32ull << 30)}});
  CHECK(small["gpus"][0]["bar"]["large_bar"] == false);
}

TEST_CASE("firmware: atomics are unknown for a user who sees 64 bytes of config space", "[firmware]") {
  auto* fs = efi_machine();
  for (auto& dir : {kRootPort, kUpstream, kDownstream, kGpu})
    fs->file(dir + "/config", ConfigSpace::port(kPcieEndpoint, 0).truncate(64).bytes(), 0644);
  Json atomics = firmware_of(fs)["gpus"][0]["atomics"];
  CHECK(is_unknown(atomics["routed_to_root"]));
  CHECK(unknown_reason(atomics["routed_to_root"]) == kGpu + "/config: " + kConfigSpaceNeedsRoot);
}

TEST_CASE("firmware: a GPU behind a chipset switch without routing has no atomics", "[firmware]") {
  auto* fs = efi_machine();
  fs->file(kUpstream + "/config", ConfigSpace::port(kPcieSwitchUpstream, 0).bytes());
  Json atomics = firmware_of(fs)["gpus"][0]["atomics"];
  CHECK(atomics["routed_to_root"] == false);
  CHECK(atomics["reason"].get<std::string>().find("0000:01:00.0") != std::string::npos);
}

TEST_CASE("firmware: a virtual function never gets atomics", "[firmware]") {
  auto* fs = efi_machine();
  fs->symlink(kGpu + "/physfn", "../0000:03:00.1");
  CHECK(firmware_of(fs)["gpus"][0]["atomics"]["routed_to_root"] == false);
}

TEST_CASE("firmware: the Secure Boot variable is checked for its format", "[firmware][malformed]") {
  auto secure_boot_with = [](const std::string& bytes) {
    auto* fs = efi_machine();
    fs->file(kSecureBoot, bytes);
    return firmware_of(fs)["secure_boot"];
  };
  CHECK(secure_boot_with(std::string("\x06\x00\x00\x00\x00", 5)) == false);
  CHECK(unknown_reason(secure_boot_with(std::string("\x06\x00\x00\x00", 4))).find("4 bytes") != std::string::npos);
  CHECK(unknown_reason(secure_boot_with(std::string("\x06\x00\x00\x00\x02", 5))).find("neither 0 nor 1") != std::string::npos);
  CHECK(is_unknown(secure_boot_with("")));
  CHECK(is_unknown(secure_boot_with(std::string(100000, '\x01'))));
  auto* denied = efi_machine();
  denied->fail(kSecureBoot, "permission denied");
  CHECK(unknown_reason(firmware_of(denied)["secure_boot"]).find("permission denied") != std::string::npos);
}

TEST_CASE("firmware: EFI is false only where /sys/firmware was seen", "[firmware]") {
  auto* bios = new MemoryFileSystem;
  bios->dir("/sys/firmware/acpi");
  Json f = firmware_of(bios);
  CHECK(f["efi"] == false);
  CHECK(unknown_reason(f["secure_boot"]).find("did not boot with EFI") != std::string::npos);
  Json unrecorded = firmware_of(new MemoryFileSystem);
  CHECK(is_unknown(unrecorded["efi"]));
  CHECK(is_unknown(unrecorded["iommu"]["units"]));
  auto* no_iommu = new MemoryFileSystem;
  no_iommu->dir("/sys/class/drm");
  CHECK(firmware_of(no_iommu)["iommu"]["units"] == Json::array());
}

TEST_CASE("firmware: choice lists without a bracketed (selected) word are unknown", "[firmware][malformed]") {
  for (const std::string& text :
       std::vector<std::string>{"none integrity\n", "", "[]\n", "[two words]\n", "[none", std::string("\0\x01\x02\x03", 4)}) {
    auto* fs = efi_machine();
    fs->file("/sys/kernel/security/lockdown", text).file("/sys/module/pcie_aspm/parameters/policy", text);
    Json f = firmware_of(fs);
    INFO(quote_for_reason(text));
    CHECK(is_unknown(f["lockdown"]));
    CHECK(is_unknown(f["aspm_policy"]));
  }
  auto* missing = new MemoryFileSystem;
  CHECK(unknown_reason(firmware_of(missing)["lockdown"]).find("/sys/kernel/security/lockdown") != std::string::npos);
}

TEST_CASE("firmware: IOMMU parameters come from the kernel section when it knows them", "[firmware]") {
  Json kernel = {{"cmdline", {{"iommu", nullptr}, {"amd_iommu", "off"}, {"intel_iommu", nullptr}}}};
  Json f = firmware_of(efi_machine(), Json{{"kernel", kernel}});
  CHECK(f["iommu"]["cmdline"]["amd_iommu"] == "off");
  CHECK(f["iommu"]["cmdline"]["iommu"].is_null());
  Json unknown_kernel = firmware_of(efi_machine(), Json{{"kernel", unknown("not written")}});
  CHECK(unknown_kernel["iommu"]["cmdline"]["iommu"] == "pt");
  auto* binary = efi_machine();
  binary->file("/proc/cmdline", std::string("\0\0\0\0iommu=pt", 12));
  CHECK(is_unknown(firmware_of(binary)["iommu"]["cmdline"]));
}

TEST_CASE("firmware: missing sections and files make only their facts unknown", "[firmware][malformed]") {
  Json no_pci = firmware_of(efi_machine(), Json{{"pci", unknown("no bus")}});
  CHECK(unknown_reason(no_pci["gpus"]).find("no bus") != std::string::npos);
  CHECK(no_pci["efi"] == true);
  CHECK(is_unknown(firmware_of(efi_machine(), Json{{"pci", Json::array()}})["gpus"]));
  CHECK(is_unknown(firmware_of(efi_machine(), Json{{"pci", Json{{"gpus", "x"}}}})["gpus"]));

  auto* fs = efi_machine();
  fs->file(kGpu + "/resource", "garbage\n");
  fs->file(kRootPort + "/config", "");
  Json gpu = firmware_of(fs, Json{{"kfd", Json{{"nodes", Json::array({Json{{"pci_address", "0000:03:00.0"}}})}}}})["gpus"][0];
  CHECK(is_unknown(gpu["bar"]["largest_bytes"]));
  CHECK(is_unknown(gpu["bar"]["vram_bytes"]));
  CHECK(is_unknown(gpu["bar"]["large_bar"]));
  CHECK(unknown_reason(gpu["atomics"]["routed_to_root"]).find("empty") != std::string::npos);

  Json kfd_unknown = firmware_of(efi_machine(), Json{{"kfd", unknown("no kfd")}})["gpus"][0];
  CHECK(unknown_reason(kfd_unknown["bar"]["vram_bytes"]).find("no kfd") != std::string::npos);
  CHECK(kfd_unknown["bar"]["largest_bytes"] == 16ull << 30);
  Json strings = Json{{"nodes", Json::array({Json{{"pci_address", "0000:03:00.0"}, {"vram_bytes", "16G"}}})}};
  Json wrong_type = firmware_of(efi_machine(), Json{{"kfd", strings}})["gpus"][0]["bar"];
  CHECK(unknown_reason(wrong_type["vram_bytes"]).find("not a number") != std::string::npos);
  CHECK(is_unknown(wrong_type["large_bar"]));
}

TEST_CASE("firmware: a GPU outside any IOMMU group has an unknown group type", "[firmware]") {
  auto* fs = new MemoryFileSystem;
  add_device(*fs, "/sys/devices/pci0000:00/0000:00:02.0", "0x1002", "0x030000", ConfigSpace::port(kPcieRcIntegratedEndpoint, 0));
  Json gpu = firmware_of(fs)["gpus"][0];
  CHECK(unknown_reason(gpu["iommu_group_type"]).find("iommu_group: absent") != std::string::npos);
  CHECK(gpu["atomics"]["routed_to_root"] == true);  // an APU on the root bus
}

TEST_CASE("firmware probes the recorded Debian 12 VM", "[firmware][machines]") {
  Json facts = test::facts_for_root(test::machine_root("debian12-vm-distro-rocm"));
  const Json& f = facts["firmware"];
  CHECK(f["aspm_policy"] == "default");
  CHECK(f["gpus"] == Json::array());
  CHECK(is_unknown(f["efi"]));  // the capture kept no /sys/firmware
  CHECK(is_unknown(f["secure_boot"]));
  CHECK(is_unknown(f["lockdown"]));
  CHECK(f["iommu"].is_object());
}
