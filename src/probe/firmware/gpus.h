// The firmware section's per-GPU facts, for each AMD GPU the pci probe
// found: its IOMMU group's type, whether PCIe AtomicOps reach the root
// complex (read from config space along its bridges), and whether its
// largest BAR maps all of its VRAM (large BAR / Resizable BAR).
#pragma once

#include "probe/probe.h"

namespace rocmdoc {

// facts: the earlier sections (pci, kfd). Unknown when pci is.
Json firmware_gpus(ProbeContext& ctx, const Json& facts);

}  // namespace rocmdoc
