// IP discovery: the version of the graphics core (GC) amdgpu read from the
// GPU's own discovery table. The kernel derives the gfx target KFD reports
// from it (kfd_device.c, kgd2kfd_probe), so where no KFD node answers (ROCm's
// driver part not running, a GPU KFD does not take) and the device id is
// newer than the matrix, it still names the target through the matrix's
// GC-version table, and it settles a device whose target AMD's sources
// dispute.
#pragma once

#include "probe/probe.h"

namespace rocmdoc {

// Adds gc_version ("11.0.0", from <device>/ip_discovery/die/0/GC/0/{major,
// minor,revision}) to the GPU summary `gpu` of `device` (read_pci_device's
// object): null where amdgpu publishes no discovery table there (another
// driver or none, a kernel before 5.17, an ASIC from before IP discovery, a
// GPU of another vendor), unknown when it is there but cannot be read.
void add_ip_discovery_facts(ProbeContext& ctx, const Json& device, Json& gpu);

}  // namespace rocmdoc
