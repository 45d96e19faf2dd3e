#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <vector>

#include "catch.h"
#include "probe/pci/device.h"
#include "formats/pci_names.h"
#include "probe/pci/resource.h"
#include "probe/pci/topology.h"
#include "memory_filesystem.h"
#include "probe/probe.h"
#include "probe_test_support.h"
#include "test_support.h"

using namespace rocmdoc;

namespace {

// Runs the probe on a machine made of this in-memory tree.
Json pci_of(MemoryFileSystem* fs) {
  test::MemoryMachine m;
  m.machine.fs.reset(fs);  // the machine owns the tree from here on
  return m.run(probe_pci);
}

const std::string kRootPort = "/sys/devices/pci0000:00/0000:00:01.1";
const std::string kGpuDir = kRootPort + "/0000:01:00.0/0000:02:00.0/0000:03:00.0";

// One PCI function: its bus link and the attributes every device has.
void add_device(MemoryFileSystem& fs, const std::string& dir, const std::string& vendor, const std::string& device,
                const std::string& cls) {
  std::string address = path_basename(dir);
  fs.symlink("/sys/bus/pci/devices/" + address, "../../.." + dir.substr(4));
  fs.file(dir + "/vendor", vendor + "\n")
      .file(dir + "/device", device + "\n")
      .file(dir + "/subsystem_vendor", vendor + "\n")
      .file(dir + "/subsystem_device", "0x0b36\n")
      .file(dir + "/revision", "0xc1\n")
      .file(dir + "/class", cls + "\n")
      .file(dir + "/numa_node", "-1\n")
      .file(dir + "/resource", "0x0000000000000000 0x0000000000000000 0x0000000000000000\n");
}

// A Radeon behind its own switch (upstream 01:00.0, downstream 02:00.0)
// below root port 00:01.1, as discrete Navi cards sit.
MemoryFileSystem* navi_machine() {
  auto* fs = new MemoryFileSystem;
  add_device(*fs, "/sys/devices/pci0000:00/0000:00:00.0", "0x1022", "0x14d8", "0x060000");
  add_device(*fs, kRootPort, "0x1022", "0x14db", "0x060400");
  add_device(*fs, kRootPort + "/0000:01:00.0", "0x1002", "0x1478", "0x060400");
  add_device(*fs, kRootPort + "/0000:01:00.0/0000:02:00.0", "0x1002", "0x1479", "0x060400");
  add_device(*fs, kGpuDir, "0x1002", "0x744c", "0x030000");
  fs->symlink(kGpuDir + "/driver", "../../../../../../bus/pci/drivers/amdgpu")
      .file(kGpuDir + "/boot_vga", "1\n")
      .file(kGpuDir + "/numa_node", "0\n")
      .file(kGpuDir + "/current_link_speed", "16.0 GT/s PCIe\n")
      .file(kGpuDir + "/current_link_width", "16\n")
      .file(kGpuDir + "/max_link_speed", "16.0 GT/s PCIe\n")
      .file(kGpuDir + "/max_link_width", "16\n")
      .file(kGpuDir + "/resource",
            "0x0000007800000000 0x0000007bffffffff 0x000000000014220c\n"
            "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
            "0x0000007c00000000 0x0000007c0fffffff 0x000000000014220c\n"
            "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
            "0x000000000000e000 0x000000000000e0ff 0x0000000000040101\n"
            "0x00000000fcb00000 0x00000000fcbfffff 0x0000000000040200\n"
            "0x00000000fcc00000 0x00000000fcc1ffff 0x0000000000046200\n");
  return fs;
}

// A copy: callers often pass a temporary facts object.
Json device_at(const Json& pci, const std::string& address) {
  for (auto& d : pci["devices"])
    if (d["address"] == address) return d;
  FAIL("no device " << address);
  return Json();
}

}  // namespace

TEST_CASE("pci reads each device's attributes, links and place in the tree", "[pci]") {
  Json pci = pci_of(navi_machine());
  REQUIRE(pci["devices"].size() == 5);
  Json gpu = device_at(pci, "0000:03:00.0");
  CHECK(gpu["sysfs_path"] == kGpuDir);
  CHECK(gpu["vendor_id"] == "0x1002");
  CHECK(gpu["device_id"] == "0x744c");
  CHECK(gpu["subsystem_device_id"] == "0x0b36");
  CHECK(gpu["revision"] == "0xc1");
  CHECK(gpu["class"] == "0x030000");
  CHECK(gpu["driver"] == "amdgpu");
  CHECK(gpu["boot_vga"] == true);
  CHECK(gpu["numa_node"] == 0);
  CHECK(gpu["link"]["current_speed"] == "16.0 GT/s PCIe");
  CHECK(gpu["link"]["max_width"] == 16);
  CHECK(gpu["parents"] == Json::array({"0000:02:00.0", "0000:01:00.0", "0000:00:01.1"}));
  CHECK(gpu["is_bridge"] == false);
  CHECK(device_at(pci, "0000:00:01.1")["is_bridge"] == true);
  CHECK(device_at(pci, "0000:00:01.1")["parents"] == Json::array());
  CHECK(device_at(pci, "0000:00:00.0")["driver"].is_null());
  CHECK(device_at(pci, "0000:00:00.0")["boot_vga"].is_null());
  CHECK(device_at(pci, "0000:00:00.0")["bars"] == Json::array());
  CHECK(is_unknown(device_at(pci, "0000:00:00.0")["link"]));
}

TEST_CASE("pci lists BARs with sizes and marks the expansion ROM", "[pci]") {
  Json bars = device_at(pci_of(navi_machine()), "0000:03:00.0")["bars"];
  REQUIRE(bars.size() == 5);
  CHECK(bars[0]["index"] == 0);
  CHECK(bars[0]["start"] == "0x7800000000");
  CHECK(bars[0]["size_bytes"] == 16ull << 30);
  CHECK(bars[0]["kind"] == "memory");
  CHECK(bars[0]["prefetchable"] == true);
  CHECK(bars[0]["rom"] == false);
  CHECK(bars[1]["index"] == 2);
  CHECK(bars[1]["size_bytes"] == 256ull << 20);
  CHECK(bars[2]["kind"] == "io");
  CHECK(bars[2]["size_bytes"] == 256);
  CHECK(bars[3]["prefetchable"] == false);
  CHECK(bars[4]["index"] == 6);
  CHECK(bars[4]["rom"] == true);
}

TEST_CASE("pci lists GPUs: display class and AMD accelerators", "[pci]") {
  auto* fs = navi_machine();
  add_device(*fs, "/sys/devices/pci0000:80/0000:80:00.0", "0x1002", "0x74a1", "0x120000");  // Instinct MI300X
  add_device(*fs, "/sys/devices/pci0000:80/0000:80:01.0", "0x10de", "0x2684", "0x030200");
  add_device(*fs, "/sys/devices/pci0000:80/0000:80:02.0", "0x8086", "0x56a0", "0x038000");
  add_device(*fs, "/sys/devices/pci0000:80/0000:80:03.0", "0x1234", "0x1111", "0x030000");
  add_device(*fs, "/sys/devices/pci0000:80/0000:80:04.0", "0x10de", "0x2330", "0x120000");  // not AMD: not a GPU here
  Json pci = pci_of(fs);
  auto& gpus = pci["gpus"];
  REQUIRE(gpus.size() == 5);
  CHECK(gpus[0]["address"] == "0000:03:00.0");
  CHECK(gpus[0]["vendor"] == "amd");
  CHECK(gpus[0]["driver"] == "amdgpu");
  CHECK(gpus[0]["boot_vga"] == true);
  CHECK(gpus[0]["device_id"] == "0x744c");
  CHECK(gpus[1]["address"] == "0000:80:00.0");
  CHECK(gpus[1]["vendor"] == "amd");
  CHECK(gpus[2]["vendor"] == "nvidia");
  CHECK(gpus[3]["vendor"] == "intel");
  CHECK(gpus[4]["vendor"] == "other");
  CHECK(gpus[4]["driver"].is_null());
}

TEST_CASE("an AMD GPU's GC version comes from amdgpu's IP discovery, null where there is none", "[pci]") {
  auto* fs = navi_machine();
  std::string gc = kGpuDir + "/ip_discovery/die/0/GC/0";
  fs->file(gc + "/major", "11\n").file(gc + "/minor", "0\n").file(gc + "/revision", "0\n").file(gc + "/hw_id", "11\n");
  add_device(*fs, "/sys/devices/pci0000:80/0000:80:00.0", "0x1002", "0x74a1", "0x120000");  // no discovery table
  add_device(*fs, "/sys/devices/pci0000:80/0000:80:01.0", "0x10de", "0x2684", "0x030200");
  std::string other = "/sys/devices/pci0000:80/0000:80:01.0/ip_discovery/die/0/GC/0";  // never read for NVIDIA
  fs->file(other + "/major", "9\n").file(other + "/minor", "4\n").file(other + "/revision", "2\n");
  Json pci = pci_of(fs);
  auto& gpus = pci["gpus"];
  REQUIRE(gpus.size() == 3);
  CHECK(gpus[0]["gc_version"] == "11.0.0");
  CHECK(gpus[1]["gc_version"].is_null());
  CHECK(gpus[2]["gc_version"].is_null());

  auto* bad = navi_machine();
  bad->file(gc + "/major", "11\n").file(gc + "/minor", "five\n").file(gc + "/revision", "0\n");
  Json odd = pci_of(bad)["gpus"][0]["gc_version"];
  REQUIRE(is_unknown(odd));
  CHECK(unknown_reason(odd).find("/GC/0/minor: not a number") != std::string::npos);
  auto* wide = navi_machine();
  wide->file(gc + "/major", "300\n").file(gc + "/minor", "0\n").file(gc + "/revision", "0\n");
  Json too_wide = pci_of(wide)["gpus"][0]["gc_version"];
  REQUIRE(is_unknown(too_wide));
  CHECK(unknown_reason(too_wide).find("/GC/0/major: not a version number: 300") != std::string::npos);
  auto* denied = navi_machine();
  denied->file(gc + "/major", "11\n").fail(gc + "/minor", "permission denied").file(gc + "/revision", "0\n");
  Json hidden = pci_of(denied)["gpus"][0]["gc_version"];
  REQUIRE(is_unknown(hidden));
  CHECK(unknown_reason(hidden).find("permission denied") != std::string::npos);
}

TEST_CASE("pci names come from pci.ids when it lists them", "[pci]") {
  Json gpu = device_at(pci_of(navi_machine()), "0000:03:00.0");
  // The database is this computer's: absent or old, names are null.
  CHECK((gpu["vendor_name"].is_null() || gpu["vendor_name"] == "Advanced Micro Devices, Inc. [AMD/ATI]"));
  CHECK((gpu["class_name"].is_null() || gpu["class_name"] == "VGA compatible controller"));
  CHECK((gpu["device_name"].is_null() || gpu["device_name"].is_string()));
}

TEST_CASE("pci makes each malformed attribute unknown on its own", "[pci][malformed]") {
  auto* fs = navi_machine();
  fs->file(kGpuDir + "/vendor", "garbage\n")
      .file(kGpuDir + "/device", std::string("\0\x01\x02\x03\x04", 5))
      .file(kGpuDir + "/revision", "")
      .file(kGpuDir + "/class", "0x1234567\n")
      .file(kGpuDir + "/boot_vga", "2\n")
      .file(kGpuDir + "/numa_node", "zero\n")
      .file(kGpuDir + "/current_link_speed", "Unknown\n")
      .file(kGpuDir + "/current_link_width", "x16\n")
      .file(kGpuDir + "/resource", "0x1 0x2\n")
      .fail(kGpuDir + "/subsystem_vendor", "permission denied");
  Json gpu = device_at(pci_of(fs), "0000:03:00.0");
  CHECK(unknown_reason(gpu["vendor_id"]).find("not a hex id") != std::string::npos);
  CHECK(unknown_reason(gpu["device_id"]).find("binary") != std::string::npos);
  CHECK(unknown_reason(gpu["revision"]).find("empty") != std::string::npos);
  CHECK(is_unknown(gpu["class"]));
  CHECK(unknown_reason(gpu["subsystem_vendor_id"]).find("permission denied") != std::string::npos);
  CHECK(is_unknown(gpu["boot_vga"]));
  CHECK(is_unknown(gpu["numa_node"]));
  CHECK(is_unknown(gpu["link"]["current_speed"]));
  CHECK(is_unknown(gpu["link"]["current_width"]));
  CHECK(gpu["link"]["max_speed"] == "16.0 GT/s PCIe");
  CHECK(unknown_reason(gpu["bars"]).find("line 1") != std::string::npos);
  CHECK(is_unknown(gpu["vendor_name"]));
  CHECK(is_unknown(gpu["is_bridge"]));
  // What was fine stays known.
  CHECK(gpu["subsystem_device_id"] == "0x0b36");
  CHECK(gpu["driver"] == "amdgpu");
  CHECK(gpu["parents"].size() == 3);
}

TEST_CASE("pci survives missing files, dangling links and odd entries", "[pci][malformed]") {
  SECTION("no PCI bus at all") { CHECK(unknown_reason(pci_of(new MemoryFileSystem)).find("/sys/bus/pci/devices") != std::string::npos); }
  SECTION("a dangling link, a non-address entry, a missing attribute") {
    auto* fs = navi_machine();
    fs->symlink("/sys/bus/pci/devices/0000:09:00.0", "../../../devices/pci0000:00/gone");
    fs->file("/sys/bus/pci/devices/README", "not a device\n");
    fs->file(kGpuDir + "/numa_node", "").fail(kGpuDir + "/numa_node", "no such file or directory");
    Json pci = pci_of(fs);
    CHECK(pci["devices"].size() == 6);
    Json gone = device_at(pci, "0000:09:00.0");
    CHECK(is_unknown(gone["sysfs_path"]));
    CHECK(is_unknown(gone["parents"]));
    CHECK(is_unknown(gone["vendor_id"]));
    CHECK(is_unknown(device_at(pci, "0000:03:00.0")["numa_node"]));
  }
  SECTION("a huge resource file") {
    auto* fs = navi_machine();
    fs->file(kGpuDir + "/resource", std::string(200000, '0'));
    CHECK(is_unknown(device_at(pci_of(fs), "0000:03:00.0")["bars"]));
  }
}

TEST_CASE("resource lines parse strictly", "[pci][malformed]") {
  auto ok = parse_pci_resources("0x10 0x1f 0x200\n0x0 0x0 0x0\n");
  REQUIRE(ok.ok());
  REQUIRE(ok->size() == 1);
  CHECK((*ok)[0].size == 16);
  CHECK(parse_pci_resources("").ok());
  CHECK(parse_pci_resources("").value().empty());
  CHECK_FALSE(parse_pci_resources("0x20 0x1f 0x200\n").ok());
  CHECK_FALSE(parse_pci_resources("0x0 0xffffffffffffffff 0x200\n").ok());
  CHECK_FALSE(parse_pci_resources("0x10 0x1f 0x200 0x1\n").ok());
  CHECK_FALSE(parse_pci_resources("0x10 zz 0x200\n").ok());
  CHECK_FALSE(parse_pci_resources("0x10 0x1fffffffffffffffff 0x200\n").ok());
  std::string many;
  for (int i = 0; i < 100; ++i) many += "0x0 0x0 0x0\n";
  CHECK_FALSE(parse_pci_resources(many).ok());
}

TEST_CASE("pci addresses and parents come from the sysfs path's shape", "[pci]") {
  CHECK(is_pci_address("0000:03:00.0"));
  CHECK(is_pci_address("10000:e1:1f.7"));  // VMD domains are longer
  CHECK_FALSE(is_pci_address("0000:03:20.0"));
  CHECK_FALSE(is_pci_address("0000:03:00.8"));
  CHECK_FALSE(is_pci_address("pci0000:00"));
  CHECK_FALSE(is_pci_address("0000:03:00"));
  CHECK_FALSE(is_pci_address(""));
  CHECK(pci_parents_from_sysfs_path(kGpuDir) == std::vector<std::string>{"0000:02:00.0", "0000:01:00.0", "0000:00:01.1"});
  CHECK(pci_parents_from_sysfs_path("/sys/devices/pci0000:00/0000:00:02.0").empty());
  CHECK(pci_parents_from_sysfs_path("/sys/devices/platform/x/0000:00:02.0/").empty());
}

TEST_CASE("pci names: a missing or garbage pci.ids gives no names and does not exit", "[pci][malformed]") {
  test::ScratchDir scratch;
  std::string dir = scratch.path.string();
  std::string good = dir + "/good.ids", bad = dir + "/bad.ids";
  std::ofstream(good) << "# test\n1af4  Red Hat, Inc.\n\t1045  Virtio 1.0 memory balloon\n"
                         "C 03  Display controller\n\t00  VGA compatible controller\nC ff  Unassigned class\n";
  std::ofstream(bad) << std::string("\x01\x02garbage\n\t\tzz  \xff\xfe\n1af4\n", 24);
  {
    PciNameDatabase names(good);
    CHECK(names.vendor(0x1af4) == "Red Hat, Inc.");
    CHECK(names.device(0x1af4, 0x1045) == "Virtio 1.0 memory balloon");
    CHECK(names.class_name(0x030000) == "VGA compatible controller");
    CHECK(names.class_name(0x038000) == "Display controller");
    CHECK(names.class_name(0xffff00) == "Unassigned class");
    CHECK(names.vendor(0x1002) == std::nullopt);
    CHECK(names.device(0x1af4, 0x9999) == std::nullopt);
  }
  {
    // libpci reports this file through its fatal error callback ("Parse
    // error"), which by default exits: the lookup must answer instead.
    PciNameDatabase names(bad);
    CHECK(names.vendor(0x1af4) == std::nullopt);
    CHECK(names.device(0x1af4, 0x1045) == std::nullopt);
  }
  {
    PciNameDatabase names(dir + "/missing.ids");
    CHECK(names.vendor(0x1af4) == std::nullopt);
  }
}

TEST_CASE("pci probes the recorded Debian 12 VM: six virtio-era devices, no GPU", "[pci][machines]") {
  Json facts = test::facts_for_root(test::machine_root("debian12-vm-distro-rocm"));
  const Json& pci = facts["pci"];
  REQUIRE(pci["devices"].size() == 6);
  CHECK(pci["gpus"] == Json::array());
  const Json& balloon = pci["devices"][1];
  CHECK(balloon["address"] == "0000:00:01.0");
  CHECK(balloon["sysfs_path"] == "/sys/devices/pci0000:00/0000:00:01.0");
  CHECK(balloon["vendor_id"] == "0x1af4");
  CHECK(balloon["device_id"] == "0x1045");
  CHECK(balloon["driver"] == "virtio-pci");
  CHECK(balloon["numa_node"] == -1);
  CHECK(balloon["boot_vga"].is_null());
  CHECK(balloon["bars"].size() == 1);
  CHECK(balloon["bars"][0]["size_bytes"] == 0x80000);
  CHECK((balloon["vendor_name"].is_null() || balloon["vendor_name"] == "Red Hat, Inc."));
  CHECK((balloon["device_name"].is_null() || balloon["device_name"] == "Virtio 1.0 memory balloon"));
  for (auto& d : pci["devices"]) {
    INFO(d.dump());
    CHECK(d["parents"] == Json::array());
    CHECK(d["vendor_id"].is_string());
    CHECK(d["class"].is_string());
    CHECK(d["bars"].is_array());
  }
  CHECK(pci["devices"][0]["driver"].is_null());  // the host bridge has none
  CHECK(pci["devices"][0]["is_bridge"] == false);
}

namespace {

std::string hex4(unsigned v) {
  char b[16];
  std::snprintf(b, sizeof b, "%04x", v);
  return b;
}

// A pci.ids of `vendors` vendors (every 7th id from 0x0001) in the given
// order, vendor i with i % 50 devices (one with 3000, like Intel's), then
// the classes; comments and blank lines between, as in the real file.
std::string synthetic_ids(const std::vector<unsigned>& vendors) {
  std::string text = "# synthetic\n\n";
  for (unsigned v : vendors) {
    text += hex4(v) + "  Vendor " + hex4(v) + "\n";
    unsigned devices = v == 0x0701 ? 3000 : v % 50;
    for (unsigned d = 0; d < devices; ++d) {
      text += "\t" + hex4(d) + "  Device " + hex4(v) + ":" + hex4(d) + "\n";
      if (d % 10 == 0) text += "\t\t1234 5678  Subsystem\n";
    }
    if (v % 13 == 0) text += "# a comment between blocks\n\n";
  }
  text += "C 03  Display controller\n\t00  VGA compatible controller\n\t80  Display controller\n"
          "C 12  Processing accelerators\nC ff  Unassigned class\n";
  return text;
}

}  // namespace

TEST_CASE("pci names: every entry is found, in pci.ids' order or out of it", "[pci]") {
  test::ScratchDir scratch;
  std::string path = (scratch.path / "order.ids").string();
  std::vector<unsigned> sorted;
  for (unsigned v = 1; v < 0xffff; v += 7) sorted.push_back(v);
  std::vector<unsigned> shuffled = sorted;
  std::reverse(shuffled.begin(), shuffled.begin() + shuffled.size() / 2);  // a hand-edited file
  for (auto* order : {&sorted, &shuffled}) {
    std::ofstream(path) << synthetic_ids(*order);
    PciNameDatabase names(path);
    for (unsigned v : *order) {
      INFO("vendor " << hex4(v));
      REQUIRE(names.vendor(static_cast<uint16_t>(v)) == "Vendor " + hex4(v));
      if (v % 50 > 3) CHECK(names.device(static_cast<uint16_t>(v), 3) == "Device " + hex4(v) + ":0003");
      CHECK(names.vendor(static_cast<uint16_t>(v + 1)) == std::nullopt);  // between two vendors
    }
    CHECK(names.device(0x0701, 2999) == "Device 0701:0bb7");
    CHECK(names.class_name(0x030000) == "VGA compatible controller");
    CHECK(names.class_name(0x030200) == "Display controller");
    CHECK(names.class_name(0x120000) == "Processing accelerators");
    CHECK(names.class_name(0xff0000) == "Unassigned class");
    CHECK(names.class_name(0x130000) == std::nullopt);
  }
  // The first of a repeated id wins.
  std::ofstream(path) << "0001  First\n\t0001  One\n0001  Second\n0002  Two\n";
  PciNameDatabase names(path);
  CHECK(names.vendor(1) == "First");
  CHECK(names.device(1, 1) == "One");
  CHECK(names.vendor(2) == "Two");
}

TEST_CASE("pci names: every vendor of this computer's pci.ids", "[pci]") {
  // The real file, where it is installed: each vendor line's name is what
  // the lookup gives for its id.
  std::ifstream in("/usr/share/misc/pci.ids");
  if (!in) {
    WARN("no /usr/share/misc/pci.ids here: nothing to compare");
    return;
  }
  PciNameDatabase names("/usr/share/misc/pci.ids");
  std::string line;
  std::set<std::string> seen;
  size_t checked = 0;
  while (std::getline(in, line)) {
    if (line.size() < 7 || line[0] == '\t' || line[0] == '#' || line[0] == 'C' || line[4] != ' ') continue;
    if (!seen.insert(line.substr(0, 4)).second) continue;
    std::string name = line.substr(line.find_first_not_of(' ', 4));
    while (!name.empty() && (name.back() == ' ' || name.back() == '\r')) name.pop_back();
    INFO(line);
    CHECK(names.vendor(static_cast<uint16_t>(std::stoul(line.substr(0, 4), nullptr, 16))) == name);
    ++checked;
  }
  CHECK(checked > 1000);
}
