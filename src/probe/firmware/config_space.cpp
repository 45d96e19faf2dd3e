#include "probe/firmware/config_space.h"

#include <cstdint>
#include <cstdio>

namespace rocmdoc {

const char* const kConfigSpaceNeedsRoot = "config space past 64 bytes is not readable (run as root)";

namespace {

// Offsets from the PCI Local Bus and PCI Express Base specifications.
constexpr size_t kHeaderSize = 64;
constexpr size_t kStatus = 0x06;
constexpr uint16_t kStatusCapabilityList = 1u << 4;
constexpr size_t kCapabilityPointer = 0x34;
constexpr uint8_t kCapabilityIdPcie = 0x10;
constexpr size_t kPcieFlags = 0x02;
constexpr size_t kPcieDeviceCapabilities2 = 0x24;
constexpr size_t kPcieDeviceControl2 = 0x28;
// The kernel's PCI_FIND_CAP_TTL: more capabilities than fit in the
// header's 192 bytes means the list loops.
constexpr int kCapabilityWalkLimit = 48;

uint16_t read16(std::string_view c, size_t at) {
  return static_cast<uint16_t>(static_cast<uint8_t>(c[at]) | static_cast<uint8_t>(c[at + 1]) << 8);
}

uint32_t read32(std::string_view c, size_t at) {
  return static_cast<uint32_t>(read16(c, at)) | static_cast<uint32_t>(read16(c, at + 2)) << 16;
}

std::string hex_offset(size_t at) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%zx", at);
  return buf;
}

// Why `size` bytes are not enough to read up to `needed`.
std::string too_short(size_t size, size_t needed, const std::string& what) {
  if (size <= kHeaderSize) return kConfigSpaceNeedsRoot;
  return "config space ends at " + std::to_string(size) + " bytes, before " + what + " (needs " +
         std::to_string(needed) + ")";
}

// The offset of the PCI Express capability, 0 when there is none.
Result<size_t> find_pcie_capability(std::string_view config) {
  using R = Result<size_t>;
  if (!(read16(config, kStatus) & kStatusCapabilityList)) return R::ok(0);
  size_t at = static_cast<uint8_t>(config[kCapabilityPointer]) & 0xfc;
  for (int step = 0; step < kCapabilityWalkLimit; ++step) {
    if (at < kHeaderSize) return R::ok(0);  // the list's end (pointer 0), or a pointer into the header
    if (at + 2 > config.size()) return R::fail(too_short(config.size(), at + 2, "the capability at " + hex_offset(at)));
    uint8_t id = static_cast<uint8_t>(config[at]);
    if (id == 0xff) return R::ok(0);  // what an absent device reads as
    if (id == kCapabilityIdPcie) return R::ok(at);
    at = static_cast<uint8_t>(config[at + 1]) & 0xfc;
  }
  return R::fail("the capability list does not end after " + std::to_string(kCapabilityWalkLimit) + " entries (a loop)");
}

}  // namespace

std::string pcie_port_type_name(unsigned type) {
  switch (type) {
    case kPcieEndpoint: return "endpoint";
    case kPcieLegacyEndpoint: return "legacy_endpoint";
    case kPcieRootPort: return "root_port";
    case kPcieSwitchUpstream: return "switch_upstream_port";
    case kPcieSwitchDownstream: return "switch_downstream_port";
    case kPcieToPciBridge: return "pcie_to_pci_bridge";
    case kPciToPcieBridge: return "pci_to_pcie_bridge";
    case kPcieRcIntegratedEndpoint: return "rc_integrated_endpoint";
    case kPcieRcEventCollector: return "rc_event_collector";
    default: return "type_" + std::to_string(type);
  }
}

Result<std::optional<PcieAtomicsCapability>> read_pcie_atomics(std::string_view config) {
  using R = Result<std::optional<PcieAtomicsCapability>>;
  if (config.empty()) return R::fail("config space is empty");
  if (config.size() < kHeaderSize)
    return R::fail("config space is " + std::to_string(config.size()) + " bytes, shorter than the 64-byte header");
  if (read16(config, 0) == 0xffff) return R::fail("the device does not answer (vendor id reads 0xffff)");
  auto at = find_pcie_capability(config);
  if (!at) return R::fail(at.error());
  if (*at == 0) return R::ok(std::nullopt);
  size_t cap = *at;
  if (cap + kPcieFlags + 2 > config.size())
    return R::fail(too_short(config.size(), cap + kPcieFlags + 2, "the PCI Express capability"));
  uint16_t flags = read16(config, cap + kPcieFlags);
  PcieAtomicsCapability out;
  out.port_type = (flags >> 4) & 0xf;
  // Version 1 capabilities end before Device Capabilities 2; the kernel
  // reads those registers as 0 (pcie_capability_reg_implemented()).
  if ((flags & 0xf) < 2) return R::ok(out);
  size_t end = cap + kPcieDeviceControl2 + 2;
  if (end > config.size()) return R::fail(too_short(config.size(), end, "Device Control 2 of the PCI Express capability"));
  uint32_t devcap2 = read32(config, cap + kPcieDeviceCapabilities2);
  uint16_t devctl2 = read16(config, cap + kPcieDeviceControl2);
  out.routing = devcap2 & (1u << 6);
  out.completer_32 = devcap2 & (1u << 7);
  out.completer_64 = devcap2 & (1u << 8);
  out.completer_128 = devcap2 & (1u << 9);
  out.requester_enabled = devctl2 & (1u << 6);
  out.egress_blocked = devctl2 & (1u << 7);
  return R::ok(out);
}

}  // namespace rocmdoc
