#include <cstdint>

#include "catch.h"
#include "probe/power/gpu_metrics.h"
#include "probe/power/hwmon.h"
#include "probe_test_support.h"

using namespace rocmdoc;
using rocmdoc::test::MemoryMachine;

namespace {

const std::string kGpu = "/sys/devices/pci0000:00/0000:00:01.1/0000:03:00.0";
const std::string kHwmon = kGpu + "/hwmon/hwmon3";

Json pci_with_gpu() {
  Json f = Json::object();
  f["pci"]["gpus"] = Json::array({{{"address", "0000:03:00.0"}, {"vendor", "amd"}}});
  f["pci"]["devices"] = Json::array({{{"address", "0000:03:00.0"}, {"sysfs_path", kGpu}}});
  return f;
}

// An RX 7900 XTX as amdgpu shows it: 327 W default, 402 W maximum, three
// sensors (edge, junction, mem), clocks with the current level marked.
void rx7900xtx(MemoryMachine& m, const std::string& cap_uw, const std::string& junction_mc) {
  m.fs->file(kHwmon + "/name", "amdgpu\n");
  m.fs->file(kHwmon + "/power1_cap", cap_uw + "\n");
  m.fs->file(kHwmon + "/power1_cap_default", "327000000\n");
  m.fs->file(kHwmon + "/power1_cap_max", "402000000\n");
  m.fs->file(kHwmon + "/temp1_input", "45000\n").file(kHwmon + "/temp1_crit", "100000\n").file(kHwmon + "/temp1_label", "edge\n");
  m.fs->file(kHwmon + "/temp2_input", junction_mc + "\n").file(kHwmon + "/temp2_crit", "110000\n");
  m.fs->file(kHwmon + "/temp2_label", "junction\n");
  m.fs->file(kHwmon + "/temp3_input", "60000\n").file(kHwmon + "/temp3_crit", "108000\n").file(kHwmon + "/temp3_label", "mem\n");
  m.fs->file(kGpu + "/pp_dpm_sclk", "0: 500Mhz \n1: 2482Mhz *\n2: 2526Mhz \n");
  m.fs->file(kGpu + "/pp_dpm_mclk", "0: 96Mhz \n1: 456Mhz \n2: 772Mhz \n3: 1249Mhz *\n");
}

// A gpu_metrics table of `size` bytes with the given header and the
// 64-bit GPU-independent throttle word at `at`.
std::string metrics(size_t size, uint16_t declared, uint8_t format, uint8_t content, size_t at, uint64_t status) {
  std::string b(size, '\0');
  b[0] = char(declared & 0xff);
  b[1] = char(declared >> 8);
  b[2] = char(format);
  b[3] = char(content);
  for (size_t i = 0; i < 8 && at + i < size; ++i) b[at + i] = char((status >> (8 * i)) & 0xff);
  return b;
}

}  // namespace

TEST_CASE("power: cap, default and maximum in watts, and a cap 1 W or more under the default is below it", "[power]") {
  MemoryMachine m;
  rx7900xtx(m, "250000000", "70000");
  Json g = m.run(probe_power, pci_with_gpu())["gpus"][0];
  CHECK(g["address"] == "0000:03:00.0");
  CHECK(g["hwmon"] == kHwmon);
  CHECK(g["power_cap_w"] == 250);
  CHECK(g["power_cap_default_w"] == 327);
  CHECK(g["power_cap_max_w"] == 402);
  CHECK(g["cap_below_default"] == true);

  MemoryMachine at_default;
  rx7900xtx(at_default, "326800000", "70000");  // rounding, not a lowered cap
  CHECK(at_default.run(probe_power, pci_with_gpu())["gpus"][0]["cap_below_default"] == false);
}

TEST_CASE("power: temperatures by label with their limits, and the smallest headroom", "[power]") {
  MemoryMachine m;
  rx7900xtx(m, "327000000", "107000");
  Json g = m.run(probe_power, pci_with_gpu())["gpus"][0];
  REQUIRE(g["temperatures"].size() == 3);
  CHECK(g["temperatures"][0] == Json({{"sensor", "edge"}, {"celsius", 45}, {"crit_celsius", 100}}));
  CHECK(g["temperatures"][1]["sensor"] == "junction");
  CHECK(g["temperatures"][1]["celsius"] == 107);
  CHECK(g["thermal_headroom_c"] == 3);  // junction: 110 - 107
  CHECK(g["sclk_mhz"] == 2482);
  CHECK(g["mclk_mhz"] == 1249);
}

TEST_CASE("power: a GPU without hwmon (a VF, amdgpu unbound) has everything unknown, with the reason", "[power][malformed]") {
  MemoryMachine m;
  Json g = m.run(probe_power, pci_with_gpu())["gpus"][0];
  CHECK(is_unknown(g["hwmon"]));
  CHECK(is_unknown(g["cap_below_default"]));
  CHECK(is_unknown(g["thermal_headroom_c"]));
  CHECK(unknown_reason(g["power_cap_w"]).find("hwmon") != std::string::npos);
  CHECK(is_unknown(g["sclk_mhz"]));
  CHECK(is_unknown(g["throttle"]));

  MemoryMachine no_pci;
  CHECK(is_unknown(no_pci.run(probe_power, Json::object())["gpus"]));
}

TEST_CASE("power: malformed sysfs values are unknown, never guessed", "[power][malformed]") {
  MemoryMachine m;
  m.fs->file(kHwmon + "/power1_cap", "lots\n");
  m.fs->file(kHwmon + "/power1_cap_default", "327000000\n");
  m.fs->file(kHwmon + "/temp1_input", "45000\n");  // no crit
  m.fs->file(kGpu + "/pp_dpm_sclk", "0: 500Mhz\n1: 2482Mhz\n");  // no level marked
  m.fs->file(kGpu + "/pp_dpm_mclk", "0: fastMhz *\n");
  Json g = m.run(probe_power, pci_with_gpu())["gpus"][0];
  CHECK(unknown_reason(g["power_cap_w"]).find("not a number") != std::string::npos);
  CHECK(is_unknown(g["cap_below_default"]));
  CHECK(is_unknown(g["power_cap_max_w"]));
  CHECK(is_unknown(g["thermal_headroom_c"]));
  CHECK(g["temperatures"][0]["celsius"] == 45);
  CHECK(unknown_reason(g["sclk_mhz"]).find("no level is marked") != std::string::npos);
  CHECK(unknown_reason(g["mclk_mhz"]).find("no MHz value") != std::string::npos);
}

TEST_CASE("gpu_metrics: v1.3 and v2.2 throttle bits by group, other versions and bad sizes unknown", "[power][malformed]") {
  // bit 0 (PPT0) and bit 36 (TEMP_HOTSPOT)
  Json v13 = decode_gpu_metrics_throttle(metrics(120, 120, 1, 3, 112, (1ull << 0) | (1ull << 36)), "gm");
  CHECK(v13["metrics_version"] == "1.3");
  CHECK(v13["raw"] == "0x0000001000000001");
  CHECK(v13["active"] == Json::array({"power", "temperature"}));
  Json v22 = decode_gpu_metrics_throttle(metrics(128, 128, 2, 2, 120, 1ull << 16), "gm");  // TDC_GFX
  CHECK(v22["active"] == Json::array({"current"}));
  CHECK(decode_gpu_metrics_throttle(metrics(120, 120, 1, 3, 112, 0), "gm")["active"].empty());
  // The same bits at another offset mean nothing: v1.4 (MI300) is not decoded.
  CHECK(unknown_reason(decode_gpu_metrics_throttle(metrics(1000, 1000, 1, 4, 112, 1), "gm")).find("1.4 is not one") !=
        std::string::npos);
  CHECK(unknown_reason(decode_gpu_metrics_throttle(metrics(100, 120, 1, 3, 112, 1), "gm")).find("should be 120") !=
        std::string::npos);
  CHECK(unknown_reason(decode_gpu_metrics_throttle(metrics(120, 96, 1, 3, 112, 1), "gm")).find("header says 96") !=
        std::string::npos);
  CHECK(is_unknown(decode_gpu_metrics_throttle(std::string("\x01\x02", 2), "gm")));
  CHECK(is_unknown(decode_gpu_metrics_throttle("", "gm")));
}

TEST_CASE("power: the probe reads gpu_metrics beside the clocks", "[power]") {
  MemoryMachine m;
  rx7900xtx(m, "327000000", "70000");
  m.fs->file(kGpu + "/gpu_metrics", metrics(120, 120, 1, 3, 112, 1ull << 56));
  Json t = m.run(probe_power, pci_with_gpu())["gpus"][0]["throttle"];
  CHECK(t["active"] == Json::array({"other"}));
}

TEST_CASE("power: runtime power state as the kernel writes it, and unknown for a missing file or another word", "[power][malformed]") {
  MemoryMachine m;
  m.fs->file(kGpu + "/power/runtime_status", "suspended\n");
  CHECK(m.run(probe_power, pci_with_gpu())["gpus"][0]["runtime_status"] == "suspended");

  MemoryMachine active;
  active.fs->file(kGpu + "/power/runtime_status", "active\n");
  CHECK(active.run(probe_power, pci_with_gpu())["gpus"][0]["runtime_status"] == "active");

  MemoryMachine odd;
  odd.fs->file(kGpu + "/power/runtime_status", "asleep\n");
  Json g = odd.run(probe_power, pci_with_gpu())["gpus"][0];
  CHECK(unknown_reason(g["runtime_status"]).find("not a runtime power state") != std::string::npos);

  MemoryMachine none;
  CHECK(is_unknown(none.run(probe_power, pci_with_gpu())["gpus"][0]["runtime_status"]));
}
