// Whether PCIe AtomicOps from a GPU reach the root complex, decided the way
// the kernel's pci_enable_atomic_ops_to_root() (drivers/pci/pci.c) decides
// it when amdgpu asks for 32- and 64-bit completion:
//   - the device must be a PCI Express endpoint (legacy, native or
//     root-complex integrated);
//   - every switch port above it (upstream and downstream) must support
//     AtomicOp routing;
//   - a root port above it must complete 32- and 64-bit AtomicOps;
//   - no switch upstream port may block AtomicOps on egress.
// Bridges that are not PCI Express ports are not checked, as in the kernel.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "probe/firmware/config_space.h"
#include "base/fact.h"

namespace rocmdoc {

struct AtomicsHop {
  std::string address;
  // From the hop's config space: the capability, nullopt for a function
  // without PCIe capability, or why it could not be read (naming the file).
  Result<std::optional<PcieAtomicsCapability>> capability;
};

// hops: the GPU first, then each bridge up to the root complex, nearest
// first. Returns {routed_to_root, reason, path}.
Json decide_atomics_routing(const std::vector<AtomicsHop>& hops);

}  // namespace rocmdoc
