// power: per AMD GPU what limits its speed: the power cap against its
// default, the current clock levels, the temperatures against their
// critical limits, and the throttle status the firmware reports. Read from
// amdgpu's sysfs files; a GPU without them (a virtual function, amdgpu not
// bound, a container without /sys) has them unknown.
#include "probe/power/gpu_metrics.h"
#include "probe/power/hwmon.h"
#include "probe/probe.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

std::string device_dir(const Json& pci, const std::string& address) {
  for (auto& d : field(pci, "devices"))
    if (field(d, "address") == address && field(d, "sysfs_path").is_string()) return field(d, "sysfs_path").get<std::string>();
  return "/sys/bus/pci/devices/" + address;
}

Json clock(ProbeContext& ctx, const std::string& path) {
  Json text = ctx.read_text_fact(path);
  if (is_unknown(text)) return text;
  return current_dpm_mhz(text.get<std::string>(), path);
}

Json throttle(ProbeContext& ctx, const std::string& dir) {
  std::string path = dir + "/gpu_metrics";
  // The largest table (v1.6 with its arrays) is a few kB; 64 kB bounds a
  // file that is not what it claims.
  auto bytes = ctx.fs().read_file(path, 64 << 10);
  if (!bytes) return unknown(bytes.error());
  return decode_gpu_metrics_throttle(*bytes, path);
}

// Runtime power management's state of the device (drivers/base/power/
// sysfs.c, rtpm_status_show): an idle discrete GPU is "suspended", and its
// sensors read empty until something opens it, which is why rocm-smi shows
// N/A then. A word the kernel does not write is unknown, never a state.
Json runtime_status(ProbeContext& ctx, const std::string& dir) {
  std::string path = dir + "/power/runtime_status";
  Json text = ctx.read_text_fact(path);
  if (is_unknown(text)) return text;
  for (const char* state : {"active", "suspended", "suspending", "resuming", "error", "unsupported"})
    if (text == state) return text;
  return unknown(path + ": not a runtime power state: " + quote_for_reason(text.get<std::string>()));
}

Json gpu_power(ProbeContext& ctx, const Json& pci, const std::string& address) {
  std::string dir = device_dir(pci, address);
  Json gpu = Json::object();
  gpu["address"] = address;
  // First: on kernels before about 6.15 reading the sensors below wakes a
  // runtime-suspended GPU, and the state read after them would say active.
  gpu["runtime_status"] = runtime_status(ctx, dir);
  Json hwmon = find_hwmon(ctx, dir);
  gpu["hwmon"] = hwmon;
  if (is_unknown(hwmon)) {
    for (const char* k : {"power_cap_w", "power_cap_default_w", "power_cap_max_w", "cap_below_default", "temperatures",
                          "thermal_headroom_c"})
      gpu[k] = hwmon;
  } else {
    read_power_caps(ctx, hwmon.get<std::string>(), gpu);
    read_temperatures(ctx, hwmon.get<std::string>(), gpu);
  }
  gpu["sclk_mhz"] = clock(ctx, dir + "/pp_dpm_sclk");
  gpu["mclk_mhz"] = clock(ctx, dir + "/pp_dpm_mclk");
  gpu["throttle"] = throttle(ctx, dir);
  return gpu;
}

}  // namespace

Json probe_power(ProbeContext& ctx, const Json& facts) {
  const Json& pci = field(facts, "pci");
  const Json& gpus = field(pci, "gpus");
  Json out = Json::object();
  if (!gpus.is_array()) {
    out["gpus"] = unknown("the PCI GPU list is unknown" + (is_unknown(gpus) ? ": " + unknown_reason(gpus) : std::string()));
    return out;
  }
  Json list = Json::array();
  for (auto& g : gpus)
    if (field(g, "vendor") == "amd" && field(g, "address").is_string())
      list.push_back(gpu_power(ctx, pci, field(g, "address").get<std::string>()));
  out["gpus"] = list;
  return out;
}

}  // namespace rocmdoc
