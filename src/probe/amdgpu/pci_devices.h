// The PCI devices the amdgpu and kfd probes correlate with: taken from the
// pci probe's section when it is known, else read from
// /sys/bus/pci/devices directly, so that these probes still answer when the
// pci probe could not run.
#pragma once

#include <string>
#include <vector>

#include "probe/probe.h"
#include "base/result.h"

namespace rocmdoc {

struct PciDeviceSummary {
  std::string address;  // "0000:03:00.0"
  std::string vendor_id;  // "0x1002"; empty when unreadable
  std::string class_code;  // "0x030000"; empty when unreadable
  Json driver;  // name, null when unbound, or unknown
};

// Sorted by address. Fails (with the reason) only when neither the pci
// facts nor sysfs can list the devices.
Result<std::vector<PciDeviceSummary>> pci_device_summaries(ProbeContext& ctx, const Json& facts);

// An AMD (0x1002) display controller (class 0x03xxxx) or processing
// accelerator (0x12xxxx, Instinct cards).
bool is_amd_gpu(const PciDeviceSummary& device);

}  // namespace rocmdoc
