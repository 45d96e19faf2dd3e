#include "catch.h"
#include "probe/kfd/topology.h"
#include "memory_filesystem.h"
#include "probe/probe.h"
#include "probe_test_support.h"

using namespace rocmdoc;

namespace {

struct Box : test::MemoryMachine {
  Box() {}
  Json run(const Json& facts = Json::object()) { return MemoryMachine::run(probe_kfd, facts); }
};

const std::string kNodes = "/sys/class/kfd/kfd/topology/nodes";

// A CPU node as kfd_topology.c writes it (node_show): every GPU field 0.
std::string cpu_properties(int cores) {
  return "cpu_cores_count " + std::to_string(cores) +
         "\nsimd_count 0\nmem_banks_count 1\ncaches_count 0\nio_links_count 1\np2p_links_count 0\n"
         "cpu_core_id_base 0\nsimd_id_base 0\nmax_waves_per_simd 0\nlds_size_in_kb 0\ngds_size_in_kb 0\n"
         "num_gws 0\nwave_front_size 0\narray_count 0\nsimd_arrays_per_engine 0\ncu_per_simd_array 0\n"
         "simd_per_cu 0\nmax_slots_scratch_cu 0\ngfx_target_version 0\nvendor_id 0\ndevice_id 0\n"
         "location_id 0\ndomain 0\ndrm_render_minor 0\nhive_id 0\nnum_sdma_engines 0\n"
         "num_sdma_xgmi_engines 0\nnum_sdma_queues_per_engine 0\nnum_cp_queues 0\n"
         "max_engine_clk_ccompute 5881\n";
}

struct Gpu {
  int simd_count;
  int gfx_target_version;
  int device_id;
  uint32_t location_id;
  int domain;
  int render_minor;
};

std::string gpu_properties(const Gpu& g) {
  return "cpu_cores_count 0\nsimd_count " + std::to_string(g.simd_count) +
         "\nmem_banks_count 1\ncaches_count 206\nio_links_count 1\np2p_links_count 0\ncpu_core_id_base 0\n"
         "simd_id_base 2147487744\nmax_waves_per_simd 16\nlds_size_in_kb 64\ngds_size_in_kb 0\nnum_gws 64\n"
         "wave_front_size 32\narray_count 12\nsimd_arrays_per_engine 2\ncu_per_simd_array 8\nsimd_per_cu 2\n"
         "max_slots_scratch_cu 32\ngfx_target_version " +
         std::to_string(g.gfx_target_version) + "\nvendor_id 4098\ndevice_id " + std::to_string(g.device_id) +
         "\nlocation_id " + std::to_string(g.location_id) + "\ndomain " + std::to_string(g.domain) +
         "\ndrm_render_minor " + std::to_string(g.render_minor) +
         "\nhive_id 0\nnum_sdma_engines 2\nnum_sdma_xgmi_engines 0\nnum_sdma_queues_per_engine 6\n"
         "num_cp_queues 8\nmax_engine_clk_fcompute 2482\nlocal_mem_size 0\nfw_version 2250\n"
         "capability 671588992\ndebug_prop 1495\nsdma_fw_version 21\nunique_id 3906306289406400000\n"
         "num_xcc 1\nmax_engine_clk_ccompute 5881\n";
}

std::string bank(int heap_type, uint64_t size) {
  return "heap_type " + std::to_string(heap_type) + "\nsize_in_bytes " + std::to_string(size) +
         "\nflags 0\nwidth 384\nmem_clk_max 1249\n";
}

void add_node(MemoryFileSystem& fs, int id, const std::string& props, const std::string& name, int gpu_id,
              std::vector<std::string> banks) {
  std::string dir = kNodes + "/" + std::to_string(id);
  fs.file(dir + "/properties", props, 0444);
  fs.file(dir + "/name", name + "\n", 0444);
  fs.file(dir + "/gpu_id", std::to_string(gpu_id) + "\n", 0444);
  fs.dir(dir + "/caches").dir(dir + "/io_links");
  for (size_t i = 0; i < banks.size(); ++i) fs.file(dir + "/mem_banks/" + std::to_string(i) + "/properties", banks[i]);
  if (banks.empty()) fs.dir(dir + "/mem_banks");
}

// The DRM render node of a PCI device, as sysfs links it.
void add_render_node(MemoryFileSystem& fs, int minor, const std::string& address) {
  std::string dev = "/sys/devices/pci0000:00/0000:00:01.1/" + address;
  fs.dir(dev + "/drm/renderD" + std::to_string(minor));
  fs.symlink("/sys/class/drm/renderD" + std::to_string(minor),
             "../../devices/pci0000:00/0000:00:01.1/" + address + "/drm/renderD" + std::to_string(minor));
  fs.symlink(dev + "/drm/renderD" + std::to_string(minor) + "/device", "../../../" + address);
}

Json pci_with(std::vector<std::string> addresses) {
  Json devices = Json::array();
  for (auto& a : addresses)
    devices.push_back({{"address", a}, {"vendor_id", "0x1002"}, {"class", "0x030000"}, {"driver", "amdgpu"}});
  return {{"pci", {{"devices", devices}, {"gpus", Json::array()}}}};
}

constexpr uint64_t kXtxVram = 25753026560ULL;  // what a 24 GiB RX 7900 XTX reports

void rx7900xtx_machine(MemoryFileSystem& fs) {
  fs.device("/dev/kfd", 0666, 0, 992);
  add_node(fs, 0, cpu_properties(24), "", 0, {bank(0, 66571993088ULL)});
  add_node(fs, 1, gpu_properties({192, 110000, 0x744c, 0x0300, 0, 128}), "ip discovery", 48059, {bank(1, kXtxVram)});
  add_render_node(fs, 128, "0000:03:00.0");
}

}  // namespace

TEST_CASE("kfd: an RX 7900 XTX beside its CPU node", "[kfd]") {
  Box box;
  rx7900xtx_machine(*box.fs);
  Json k = box.run(pci_with({"0000:00:01.1", "0000:03:00.0"}));
  CHECK(k["device_node"] == Json({{"present", true}, {"type", "char_device"}}));
  REQUIRE(k["nodes"].size() == 2);

  const Json& cpu = k["nodes"][0];
  CHECK(cpu["id"] == 0);
  CHECK(cpu["name"].is_null());
  CHECK(cpu["gpu_id"] == 0);
  CHECK(cpu["cpu_cores_count"] == 24);
  CHECK(cpu["simd_count"] == 0);
  CHECK(cpu["gfx_target_version"] == 0);
  CHECK(cpu["gfx"].is_null());
  CHECK(cpu["vendor_id"].is_null());
  CHECK(cpu["pci_address"].is_null());
  CHECK(cpu["vram_bytes"] == 0);  // system memory is not VRAM

  const Json& gpu = k["nodes"][1];
  CHECK(gpu["name"] == "ip discovery");
  CHECK(gpu["gpu_id"] == 48059);
  CHECK(gpu["simd_count"] == 192);
  CHECK(gpu["gfx_target_version"] == 110000);
  CHECK(gpu["gfx"] == "gfx1100");
  CHECK(gpu["vendor_id"] == "0x1002");
  CHECK(gpu["device_id"] == "0x744c");
  CHECK(gpu["location_id"] == 768);
  CHECK(gpu["domain"] == 0);
  CHECK(gpu["pci_address"] == "0000:03:00.0");
  CHECK(gpu["drm_render_minor"] == 128);
  CHECK(gpu["vram_bytes"] == kXtxVram);

  REQUIRE(k["gpus"].size() == 1);
  const Json& g = k["gpus"][0];
  CHECK(g["node"] == 1);
  CHECK(g["gfx"] == "gfx1100");
  CHECK(g["pci_address"] == "0000:03:00.0");
  CHECK(g["render_node"] == "/dev/dri/renderD128");
  CHECK(g["render_node_device"] == "0000:03:00.0");
  CHECK(g["pci_device"] == "0000:03:00.0");
  CHECK(g["matched_pci"] == true);
  CHECK(g["vram_bytes"] == kXtxVram);
}

TEST_CASE("kfd: an MI300X machine whose node order differs from PCI order", "[kfd]") {
  Box box;
  box.fs->device("/dev/kfd", 0660, 0, 110);
  add_node(*box.fs, 0, cpu_properties(96), "", 0, {bank(0, 1100000000000ULL)});
  add_node(*box.fs, 1, cpu_properties(96), "", 0, {bank(0, 1100000000000ULL)});
  constexpr uint64_t hbm = 206158430208ULL;  // 192 GiB
  // KFD numbers GPUs as it probes them; the buses say otherwise.
  struct {
    int node;
    uint32_t bus;
    int minor;
  } gpus[] = {{2, 0x65, 130}, {3, 0x05, 128}, {4, 0xe5, 131}, {5, 0x26, 129}};
  for (auto& g : gpus) {
    add_node(*box.fs, g.node, gpu_properties({1216, 90402, 0x74a1, g.bus << 8, 0, g.minor}), "ip discovery",
             1000 + g.node, {bank(1, hbm)});
    char addr[16];
    std::snprintf(addr, sizeof addr, "0000:%02x:00.0", g.bus);
    add_render_node(*box.fs, g.minor, addr);
  }
  // Node 10 sorts after node 9, not after node 1.
  add_node(*box.fs, 10, gpu_properties({1216, 90402, 0x74a1, 0x8500, 0, 132}), "ip discovery", 1010, {bank(1, hbm)});
  Json k = box.run(pci_with({"0000:05:00.0", "0000:26:00.0", "0000:65:00.0", "0000:e5:00.0"}));

  REQUIRE(k["nodes"].size() == 7);
  CHECK(k["nodes"][6]["id"] == 10);
  REQUIRE(k["gpus"].size() == 5);
  std::vector<std::string> expected = {"0000:65:00.0", "0000:05:00.0", "0000:e5:00.0", "0000:26:00.0", "0000:85:00.0"};
  std::vector<std::string> renders = {"/dev/dri/renderD130", "/dev/dri/renderD128", "/dev/dri/renderD131",
                                      "/dev/dri/renderD129", "/dev/dri/renderD132"};
  for (size_t i = 0; i < 5; ++i) {
    const Json& g = k["gpus"][i];
    INFO("gpu " << i);
    CHECK(g["gfx"] == "gfx942");
    CHECK(g["pci_address"] == expected[i]);
    CHECK(g["render_node"] == renders[i]);
    CHECK(g["vram_bytes"] == hbm);
  }
  for (size_t i = 0; i < 4; ++i) {
    CHECK(k["gpus"][i]["matched_pci"] == true);
    CHECK(k["gpus"][i]["render_node_device"] == expected[i]);
  }
  // Node 10's device is not on the bus, and has no DRM node.
  CHECK(k["gpus"][4]["matched_pci"] == false);
  CHECK(k["gpus"][4]["render_node_device"].is_null());
}

TEST_CASE("kfd: a partitioned MI300X's nodes belong to one PCI device", "[kfd]") {
  // CPX mode: one node per partition, each with its own render node; the
  // kernel ORs the partition number into location_id, so partitions read as
  // functions .0 to .3 of the GPU's slot.
  Box box;
  add_node(*box.fs, 0, cpu_properties(96), "", 0, {bank(0, 1100000000000ULL)});
  for (int part = 0; part < 4; ++part)
    add_node(*box.fs, 1 + part, gpu_properties({304, 90402, 0x74a1, 0x0500u | static_cast<uint32_t>(part), 0, 128 + part}),
             "ip discovery", 2000 + part, {bank(1, 51539607552ULL)});
  add_node(*box.fs, 5, gpu_properties({1216, 90402, 0x74a1, 0x2600, 0, 132}), "ip discovery", 3000,
           {bank(1, 206158430208ULL)});
  Json k = box.run(pci_with({"0000:05:00.0", "0000:26:00.0"}));
  REQUIRE(k["gpus"].size() == 5);
  for (int part = 0; part < 4; ++part) {
    const Json& g = k["gpus"][static_cast<size_t>(part)];
    INFO("partition " << part);
    CHECK(g["pci_address"] == "0000:05:00." + std::to_string(part));
    CHECK(g["pci_device"] == "0000:05:00.0");
    CHECK(g["matched_pci"] == true);
  }
  // An unpartitioned GPU is its own device.
  CHECK(k["gpus"][4]["pci_device"] == "0000:26:00.0");
  CHECK(k["gpus"][4]["matched_pci"] == true);
}

TEST_CASE("kfd: PCI addresses from location_id", "[kfd]") {
  CHECK(pci_address_from_location(0, (1u << 28) | 0x0500) == "0000:05:00.0");
  CHECK(pci_address_from_location(0, (7u << 28) | 0x0500) == "0000:05:00.0");
  CHECK(pci_address_from_location(0, 0x0300) == "0000:03:00.0");
  CHECK(pci_address_from_location(2, 0xc1f9) == "0002:c1:1f.1");  // devfn 0xf9: device 31, function 1
  CHECK(pci_address_from_location(0x10000, 0xff00) == "10000:ff:00.0");  // VMD domains exceed four digits
}

TEST_CASE("kfd: a Radeon 780M APU", "[kfd]") {
  Box box;
  box.fs->device("/dev/kfd", 0666, 0, 0);
  add_node(*box.fs, 0, cpu_properties(16), "", 0, {bank(0, 32000000000ULL)});
  add_node(*box.fs, 1, gpu_properties({24, 110003, 0x15bf, 0xc500, 0, 128}), "ip discovery", 41255,
           {bank(2, 536870912ULL)});
  add_render_node(*box.fs, 128, "0000:c5:00.0");
  Json k = box.run(pci_with({"0000:c5:00.0"}));
  REQUIRE(k["gpus"].size() == 1);
  CHECK(k["gpus"][0]["gfx"] == "gfx1103");
  CHECK(k["gpus"][0]["pci_address"] == "0000:c5:00.0");
  CHECK(k["gpus"][0]["vram_bytes"] == 536870912);  // FB_PRIVATE carve-out counts as VRAM
  CHECK(k["nodes"][1]["device_id"] == "0x15bf");
}

TEST_CASE("kfd: matched_pci reads sysfs when the pci facts are unknown", "[kfd]") {
  Box box;
  rx7900xtx_machine(*box.fs);
  box.fs->symlink("/sys/bus/pci/devices/0000:03:00.0", "../../../devices/pci0000:00/0000:00:01.1/0000:03:00.0");
  box.fs->file("/sys/devices/pci0000:00/0000:00:01.1/0000:03:00.0/vendor", "0x1002\n");
  for (Json facts : {Json::object(), Json{{"pci", unknown("pci: the probe failed")}}}) {
    Json k = box.run(facts);
    CHECK(k["gpus"][0]["matched_pci"] == true);
  }
  // The address is not there: the GPU fell off the bus, or KFD is stale.
  CHECK(box.run(pci_with({"0000:04:00.0"}))["gpus"][0]["matched_pci"] == false);

  Box unlisted;
  rx7900xtx_machine(*unlisted.fs);
  unlisted.fs->dir("/sys/bus/pci/devices").fail("/sys/bus/pci/devices", "permission denied");
  Json m = unlisted.run()["gpus"][0]["matched_pci"];
  CHECK(unknown_reason(m).find("permission denied") != std::string::npos);
}

TEST_CASE("kfd: no KFD at all", "[kfd]") {
  Box box;
  Json k = box.run();
  CHECK(k["device_node"]["present"] == false);
  CHECK(k["device_node"]["type"].is_null());
  CHECK(k["nodes"] == Json::array());
  CHECK(k["gpus"] == Json::array());
}

TEST_CASE("kfd: device nodes of a bare recorded tree are unknown", "[kfd]") {
  Box box;
  box.machine.recording_kind = "tree";
  Json d = box.run()["device_node"];
  CHECK(unknown_reason(d["present"]).find("not recorded") != std::string::npos);
  box.fs->device("/dev/kfd", 0666, 0, 0);
  CHECK(box.run()["device_node"]["present"] == true);
}

TEST_CASE("kfd: unreadable topology and device node", "[kfd][malformed]") {
  Box box;
  rx7900xtx_machine(*box.fs);
  box.fs->fail(kNodes, "permission denied");
  box.fs->fail("/dev/kfd", "permission denied");
  Json k = box.run();
  CHECK(unknown_reason(k["nodes"]).find("permission denied") != std::string::npos);
  CHECK(is_unknown(k["gpus"]));
  CHECK(is_unknown(k["device_node"]["present"]));
}

TEST_CASE("kfd: a node the device cgroup hides", "[kfd][malformed]") {
  // KFD answers EPERM for GPUs outside the container's device cgroup.
  Box box;
  rx7900xtx_machine(*box.fs);
  std::string dir = kNodes + "/1";
  box.fs->fail(dir + "/properties", "operation not permitted")
      .fail(dir + "/name", "operation not permitted")
      .fail(dir + "/gpu_id", "operation not permitted")
      .fail(dir + "/mem_banks/0/properties", "operation not permitted");
  Json k = box.run();
  REQUIRE(k["nodes"].size() == 2);
  for (auto key : {"name", "gpu_id", "simd_count", "gfx", "pci_address", "vram_bytes"}) {
    INFO(key);
    CHECK(unknown_reason(k["nodes"][1][key]).find("operation not permitted") != std::string::npos);
  }
  REQUIRE(k["gpus"].size() == 1);
  CHECK(unknown_reason(k["gpus"][0]).find("node 1") != std::string::npos);
}

TEST_CASE("kfd: malformed properties files", "[kfd][malformed]") {
  auto node_with = [](const std::string& props) {
    Box box;
    add_node(*box.fs, 0, props, "x", 1, {bank(1, 1024)});
    return box.run();
  };
  SECTION("empty") {
    Json k = node_with("");
    CHECK(unknown_reason(k["nodes"][0]["simd_count"]).find("empty") != std::string::npos);
    CHECK(is_unknown(k["gpus"][0]));
  }
  SECTION("binary") {
    Json k = node_with(std::string("simd\0count \x01\x02\x03", 15));
    CHECK(unknown_reason(k["nodes"][0]["simd_count"]).find("binary") != std::string::npos);
  }
  SECTION("huge") {
    Json k = node_with(std::string(200000, 'a'));
    CHECK(unknown_reason(k["nodes"][0]["simd_count"]).find("larger than") != std::string::npos);
  }
  SECTION("truncated: a kernel too old to write gfx_target_version") {
    Json k = node_with("cpu_cores_count 0\nsimd_count 64\nvendor_id 4098\ndevice_id 26287\nlocation_id 256\n");
    const Json& n = k["nodes"][0];
    CHECK(n["simd_count"] == 64);
    CHECK(unknown_reason(n["gfx_target_version"]).find("no gfx_target_version line") != std::string::npos);
    CHECK(is_unknown(n["gfx"]));
    CHECK(unknown_reason(n["pci_address"]).find("no domain line") != std::string::npos);
    CHECK(is_unknown(k["gpus"][0]["matched_pci"]));
    CHECK(unknown_reason(k["gpus"][0]["render_node"]).find("drm_render_minor") != std::string::npos);
  }
  SECTION("wrong types") {
    Json k = node_with("simd_count lots\ngfx_target_version -5\nlocation_id 0x300\ndomain 0\n");
    const Json& n = k["nodes"][0];
    CHECK(unknown_reason(n["simd_count"]).find("not a number") != std::string::npos);
    CHECK(is_unknown(n["gfx_target_version"]));
    CHECK(is_unknown(n["location_id"]));
    CHECK(is_unknown(n["gfx"]));  // whether it is a GPU is unknown
  }
  SECTION("a target version no gfx target has") {
    Json k = node_with(gpu_properties({64, 91600, 0x1234, 0x100, 0, 128}));
    CHECK(unknown_reason(k["nodes"][0]["gfx"]).find("91600") != std::string::npos);
    CHECK(unknown_reason(k["gpus"][0]["gfx"]).find("91600") != std::string::npos);
  }
}

TEST_CASE("kfd: malformed mem banks and node names", "[kfd][malformed]") {
  Box box;
  std::string props = gpu_properties({192, 110000, 0x744c, 0x0300, 0, 128});
  add_node(*box.fs, 0, props, "ip discovery", 1, {bank(1, 1000), "heap_type 2\n"});
  add_node(*box.fs, 1, props, "x", 2, {bank(1, UINT64_MAX), bank(2, 2)});
  add_node(*box.fs, 2, props, "x", 3, {"heap_type x\nsize_in_bytes 5\n"});
  add_node(*box.fs, 3, props, "x", 4, {bank(3, 1 << 20), bank(5, 1 << 20), bank(1, 7)});  // GDS, scratch
  add_node(*box.fs, 4, props, "x", 5, {});
  box.fs->file(kNodes + "/4/name", std::string("\0\0\0", 3));
  box.fs->file(kNodes + "/4/gpu_id", "12ab\n");
  box.fs->dir(kNodes + "/5");  // a node directory without any files
  box.fs->dir(kNodes + "/not-a-node");
  Json k = box.run();
  REQUIRE(k["nodes"].size() == 6);
  CHECK(unknown_reason(k["nodes"][0]["vram_bytes"]).find("no size_in_bytes line") != std::string::npos);
  CHECK(unknown_reason(k["nodes"][1]["vram_bytes"]).find("2^64") != std::string::npos);
  CHECK(is_unknown(k["nodes"][2]["vram_bytes"]));
  CHECK(k["nodes"][3]["vram_bytes"] == 7);
  CHECK(k["nodes"][4]["vram_bytes"] == 0);
  CHECK(unknown_reason(k["nodes"][4]["name"]).find("binary") != std::string::npos);
  CHECK(unknown_reason(k["nodes"][4]["gpu_id"]).find("not a number") != std::string::npos);
  CHECK(is_unknown(k["nodes"][5]["simd_count"]));
  CHECK(is_unknown(k["nodes"][5]["vram_bytes"]));
}
