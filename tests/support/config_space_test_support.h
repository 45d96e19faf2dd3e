// For tests only: PCI config space built byte by byte, so that the
// firmware probe's parser meets real layouts and broken ones.
#pragma once

#include <cstdint>
#include <string>

namespace rocmdoc::test {

// Device Capabilities 2 and Device Control 2 bits (PCIe Base Spec).
constexpr uint32_t kAtomicRouting = 1u << 6;
constexpr uint32_t kCompleter32 = 1u << 7;
constexpr uint32_t kCompleter64 = 1u << 8;
constexpr uint32_t kCompleter128 = 1u << 9;
constexpr uint16_t kRequesterEnable = 1u << 6;
constexpr uint16_t kEgressBlocking = 1u << 7;

class ConfigSpace {
 public:
  explicit ConfigSpace(size_t size = 4096) : bytes_(size, '\0') { set16(0x00, 0x1002).set16(0x02, 0x744c); }

  ConfigSpace& set8(size_t at, uint8_t v) {
    if (at < bytes_.size()) bytes_[at] = static_cast<char>(v);
    return *this;
  }
  ConfigSpace& set16(size_t at, uint16_t v) { return set8(at, v & 0xff).set8(at + 1, v >> 8); }
  ConfigSpace& set32(size_t at, uint32_t v) { return set16(at, v & 0xffff).set16(at + 2, v >> 16); }

  // Appends a capability at `at` to the list (status bit, pointer at 0x34
  // for the first, the previous one's next pointer after that).
  ConfigSpace& capability(size_t at, uint8_t id) {
    set16(0x06, 0x0010);
    set8(last_ ? last_ + 1 : 0x34, static_cast<uint8_t>(at));
    set8(at, id).set8(at + 1, 0);
    last_ = at;
    return *this;
  }
  // A PCI Express capability (id 0x10) of this port type.
  ConfigSpace& pcie(size_t at, unsigned port_type, uint32_t devcap2, uint16_t devctl2, unsigned version = 2) {
    capability(at, 0x10);
    set16(at + 0x02, static_cast<uint16_t>(version | port_type << 4));
    return set32(at + 0x24, devcap2).set16(at + 0x28, devctl2);
  }
  // The usual layout: power management at 0x50, then PCIe at 0x64.
  static ConfigSpace port(unsigned port_type, uint32_t devcap2, uint16_t devctl2 = 0) {
    ConfigSpace c;
    c.capability(0x50, 0x01);
    c.pcie(0x64, port_type, devcap2, devctl2);
    return c;
  }
  ConfigSpace& truncate(size_t size) {
    bytes_.resize(size);
    return *this;
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
  size_t last_ = 0;
};

}  // namespace rocmdoc::test
