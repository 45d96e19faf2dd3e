#include "probe/pci/sriov.h"

#include "base/text.h"

namespace rocmdoc {

void add_sriov_facts(ProbeContext& ctx, const Json& device, Json& gpu) {
  const Json& sysfs = field(device, "sysfs_path");
  std::string dir = sysfs.is_string() ? sysfs.get<std::string>() : "/sys/bus/pci/devices/" + field(device, "address").get<std::string>();
  // On the host a VF has a physfn link to its PF (Documentation/PCI/pci-iov-howto.rst).
  // Inside the guest there is no PF to link to: only the device's identity
  // says VF, through its pci.ids name ("Instinct MI300X VF", "MxGPU").
  FileStat physfn = ctx.fs().stat(dir + "/physfn");
  const Json& name = field(device, "device_name");
  std::string lname = name.is_string() ? to_lower(name.get<std::string>()) : "";
  bool named_vf = ends_with(lname, " vf]") || ends_with(lname, " vf") || lname.find("mxgpu") != std::string::npos ||
                  lname.find("sriov") != std::string::npos;
  if (physfn.type != FileType::missing) {
    gpu["virtual_function"] = true;
    gpu["virtual_function_evidence"] = dir + "/physfn links to its physical function";
  } else if (named_vf) {
    gpu["virtual_function"] = true;
    gpu["virtual_function_evidence"] = "pci.ids names the device " + name.get<std::string>();
  } else if (!physfn.error.empty()) {
    gpu["virtual_function"] = unknown(dir + "/physfn: " + physfn.error);
    gpu["virtual_function_evidence"] = nullptr;
  } else {
    gpu["virtual_function"] = false;
    gpu["virtual_function_evidence"] = nullptr;
  }
  Json numvfs = ctx.read_text_fact(dir + "/sriov_numvfs");
  auto n = numvfs.is_string() ? parse_uint(numvfs.get<std::string>()) : std::nullopt;
  gpu["sriov_numvfs"] = n ? Json(*n) : Json(nullptr);
}

}  // namespace rocmdoc
