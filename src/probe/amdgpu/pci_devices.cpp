#include "probe/amdgpu/pci_devices.h"

#include <algorithm>

#include "base/text.h"

namespace rocmdoc {

namespace {

constexpr const char* kPciDevices = "/sys/bus/pci/devices";

std::string string_field(const Json& obj, const char* key) {
  if (!obj.is_object() || !obj.contains(key) || !obj[key].is_string()) return "";
  return to_lower(obj[key].get<std::string>());
}

// The pci probe's devices, when its section is there and known.
std::optional<std::vector<PciDeviceSummary>> from_pci_facts(const Json& facts) {
  if (!facts.is_object() || !facts.contains("pci")) return std::nullopt;
  const Json& pci = facts["pci"];
  if (!pci.is_object() || is_unknown(pci) || !pci.contains("devices") || !pci["devices"].is_array())
    return std::nullopt;
  std::vector<PciDeviceSummary> out;
  for (const Json& d : pci["devices"]) {
    std::string address = string_field(d, "address");
    if (address.empty()) continue;
    Json driver = d.is_object() && d.contains("driver") ? d["driver"] : unknown("the pci facts give no driver");
    if (!driver.is_string() && !driver.is_null() && !is_unknown(driver)) driver = unknown("the pci facts' driver is not a name");
    out.push_back({address, string_field(d, "vendor_id"), string_field(d, "class"), driver});
  }
  return out;
}

Json driver_from_sysfs(FileSystem& fs, const std::string& device_dir) {
  // stat() does not follow the device link itself, so resolve it first.
  auto real = fs.resolve(device_dir);
  if (!real) return unknown(real.error());
  std::string link = *real + "/driver";
  FileStat st = fs.stat(link);
  if (st.type == FileType::missing) return st.error.empty() ? Json(nullptr) : unknown(link + ": " + st.error);
  auto target = fs.read_link(link);
  if (!target) return unknown(target.error());
  std::string name = path_basename(*target);
  if (name.empty()) return unknown(link + ": link target " + quote_for_reason(*target) + " names no driver");
  return name;
}

std::string attribute(FileSystem& fs, const std::string& path) {
  auto text = fs.read_file(path, 4096);
  if (!text || looks_binary(*text)) return "";
  return to_lower(trim(*text));
}

Result<std::vector<PciDeviceSummary>> from_sysfs(FileSystem& fs) {
  using R = Result<std::vector<PciDeviceSummary>>;
  auto names = fs.list_dir(kPciDevices);
  if (!names) return R::fail(names.error());
  std::vector<PciDeviceSummary> out;
  for (auto& name : *names) {
    std::string dir = path_join(kPciDevices, name);
    out.push_back({name, attribute(fs, dir + "/vendor"), attribute(fs, dir + "/class"), driver_from_sysfs(fs, dir)});
  }
  return R::ok(std::move(out));
}

}  // namespace

Result<std::vector<PciDeviceSummary>> pci_device_summaries(ProbeContext& ctx, const Json& facts) {
  auto devices = from_pci_facts(facts);
  if (!devices) {
    auto listed = from_sysfs(ctx.fs());
    if (!listed) return listed;
    devices = std::move(listed.value());
  }
  std::sort(devices->begin(), devices->end(),
            [](const PciDeviceSummary& a, const PciDeviceSummary& b) { return a.address < b.address; });
  return Result<std::vector<PciDeviceSummary>>::ok(std::move(*devices));
}

bool is_amd_gpu(const PciDeviceSummary& device) {
  if (device.vendor_id != "0x1002") return false;
  return starts_with(device.class_code, "0x03") || starts_with(device.class_code, "0x12");
}

}  // namespace rocmdoc
