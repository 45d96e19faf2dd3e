#include "probe/pci/ip_discovery.h"

#include "base/text.h"

namespace rocmdoc {

namespace {

// One number of the version, as amdgpu writes it ("%d\n"); the hardware
// register holds a byte per part.
Json read_version_part(ProbeContext& ctx, const std::string& path) {
  Json n = ctx.read_integer_fact(path);
  if (is_unknown(n)) return n;
  if (n.get<int64_t>() < 0 || n.get<int64_t>() > 255)
    return unknown(path + ": not a version number: " + std::to_string(n.get<int64_t>()));
  return n;
}

}  // namespace

void add_ip_discovery_facts(ProbeContext& ctx, const Json& device, Json& gpu) {
  const Json& vendor = gpu.value("vendor", Json());
  if (is_unknown(vendor)) {
    gpu["gc_version"] = unknown("the GPU's vendor is not known");
    return;
  }
  if (vendor != "amd") {
    gpu["gc_version"] = nullptr;
    return;
  }
  const Json& sysfs = device.value("sysfs_path", Json());
  std::string dir = sysfs.is_string() ? sysfs.get<std::string>() : "/sys/bus/pci/devices/" + device.value("address", std::string());
  // Die 0's first GC instance: every die of a multi-die GPU (MI300X's XCDs)
  // carries the same GC version.
  std::string gc = path_join(dir, "ip_discovery/die/0/GC/0");
  FileStat st = ctx.fs().stat_follow(gc);
  if (st.absent()) {
    gpu["gc_version"] = nullptr;
    return;
  }
  if (st.unreadable()) {
    gpu["gc_version"] = unknown(gc + ": " + st.error);
    return;
  }
  std::string version;
  for (const char* part : {"major", "minor", "revision"}) {
    Json n = read_version_part(ctx, path_join(gc, part));
    if (is_unknown(n)) {
      gpu["gc_version"] = n;
      return;
    }
    version += (version.empty() ? "" : ".") + std::to_string(n.get<int64_t>());
  }
  gpu["gc_version"] = version;
}

}  // namespace rocmdoc
