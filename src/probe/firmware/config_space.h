// What a PCI function's config space (sysfs `config`) says about PCIe
// AtomicOps: its PCI Express capability's port type, Device Capabilities 2
// and Device Control 2. Pure parsing of untrusted bytes: anything short,
// looping or odd is an error with a reason, never a crash.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace rocmdoc {

// Port types (PCIe Capabilities register bits 7:4), as the kernel names
// them in include/uapi/linux/pci_regs.h (PCI_EXP_TYPE_*).
enum PciePortType : unsigned {
  kPcieEndpoint = 0x0,
  kPcieLegacyEndpoint = 0x1,
  kPcieRootPort = 0x4,
  kPcieSwitchUpstream = 0x5,
  kPcieSwitchDownstream = 0x6,
  kPcieToPciBridge = 0x7,
  kPciToPcieBridge = 0x8,
  kPcieRcIntegratedEndpoint = 0x9,
  kPcieRcEventCollector = 0xa,
};

// "root_port", "switch_upstream_port", ...; "type_N" for reserved values.
std::string pcie_port_type_name(unsigned type);

struct PcieAtomicsCapability {
  unsigned port_type = 0;
  // Device Capabilities 2 (capability + 0x24).
  bool routing = false;        // bit 6: AtomicOp Routing Supported
  bool completer_32 = false;   // bit 7
  bool completer_64 = false;   // bit 8
  bool completer_128 = false;  // bit 9: 128-bit CAS
  // Device Control 2 (capability + 0x28).
  bool requester_enabled = false;  // bit 6: AtomicOp Requester Enable
  bool egress_blocked = false;     // bit 7: AtomicOp Egress Blocking
};

// The reason given when the capability lies past the first 64 bytes, all
// that sysfs shows a user who is not root.
extern const char* const kConfigSpaceNeedsRoot;

// ok(capability); ok(nullopt) for a function without a PCI Express
// capability (conventional PCI); fail(why) when the bytes cannot tell.
Result<std::optional<PcieAtomicsCapability>> read_pcie_atomics(std::string_view config);

}  // namespace rocmdoc
