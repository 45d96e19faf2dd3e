// SR-IOV: whether a GPU is a virtual function (a slice of a physical GPU
// handed to a VM, as clouds do with the Instinct MI300X) or a physical
// function that has VFs enabled. A VF has no power or clock controls of
// its own and its driver talks to the host's through the hypervisor, so
// check and install must treat it differently.
#pragma once

#include "probe/probe.h"

namespace rocmdoc {

// Adds virtual_function (true/false/unknown), virtual_function_evidence and
// sriov_numvfs (a PF's enabled VFs, null when not SR-IOV capable) to the
// GPU summary `gpu` of `device` (read_pci_device's object).
void add_sriov_facts(ProbeContext& ctx, const Json& device, Json& gpu);

}  // namespace rocmdoc
