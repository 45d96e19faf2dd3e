// One PCI device's facts, read from its sysfs directory.
#pragma once

#include <string>

#include "formats/pci_names.h"
#include "probe/probe.h"

namespace rocmdoc {

// address: an entry of /sys/bus/pci/devices. Every field that cannot be
// read or parsed is unknown on its own; the rest of the device stands.
Json read_pci_device(ProbeContext& ctx, const std::string& address, PciNameDatabase& names);

// A GPU for the `gpus` list: display class (0x03xxxx), or one of AMD's
// processing accelerators (0x1200xx, Instinct). Unknown ids are not GPUs.
bool is_gpu_device(const Json& device);
Json gpu_summary(const Json& device);

}  // namespace rocmdoc
