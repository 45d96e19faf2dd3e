// The `resource` attribute of a PCI device: one "start end flags" line of
// hex numbers per region, as the kernel's resource_show() writes it. Lines
// 0-5 are the BARs, line 6 the expansion ROM; later lines (SR-IOV BARs,
// bridge windows) depend on the kernel's configuration.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/fact.h"
#include "base/result.h"

namespace rocmdoc {

// Flags from the kernel's include/linux/ioport.h.
constexpr uint64_t kIoResourceIo = 0x100;
constexpr uint64_t kIoResourceMem = 0x200;
constexpr uint64_t kIoResourcePrefetch = 0x2000;
constexpr unsigned kPciRomIndex = 6;

struct PciRegion {
  unsigned index = 0;  // the line number
  uint64_t start = 0;
  uint64_t size = 0;
  uint64_t flags = 0;
};

// The non-empty regions; fails (with why) on any malformed line, since a
// file that is wrong in one place cannot be trusted in others.
Result<std::vector<PciRegion>> parse_pci_resources(std::string_view text);

// `bars` entries: index, start, size_bytes, flags, kind, prefetchable, rom.
Json pci_regions_json(const std::vector<PciRegion>& regions);

}  // namespace rocmdoc
