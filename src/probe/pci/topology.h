// Where a PCI device sits: its address and the bridges above it, read from
// the shape of its resolved sysfs path
// (/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/0000:02:00.0).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rocmdoc {

// DDDD:BB:DD.F in hex (the domain may be longer than 4 digits, as under
// Intel VMD); device 0-1f, function 0-7.
bool is_pci_address(std::string_view s);

// The bridges between the device (the path's last component) and its root
// complex, nearest first: every earlier component that is a PCI address.
std::vector<std::string> pci_parents_from_sysfs_path(const std::string& sysfs_path);

}  // namespace rocmdoc
