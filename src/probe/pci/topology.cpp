#include "probe/pci/topology.h"

#include <cctype>

#include "base/text.h"

namespace rocmdoc {

namespace {

bool all_hex(std::string_view s) {
  if (s.empty()) return false;
  for (unsigned char c : s)
    if (!std::isxdigit(c)) return false;
  return true;
}

}  // namespace

bool is_pci_address(std::string_view s) {
  auto colon = s.find(':');
  if (colon == std::string_view::npos || colon < 4 || colon > 8) return false;
  std::string_view rest = s.substr(colon + 1);  // BB:DD.F
  if (rest.size() != 7 || rest[2] != ':' || rest[5] != '.') return false;
  if (!all_hex(s.substr(0, colon)) || !all_hex(rest.substr(0, 2)) || !all_hex(rest.substr(3, 2))) return false;
  auto device = parse_uint(rest.substr(3, 2), 16);
  return device && *device <= 0x1f && rest[6] >= '0' && rest[6] <= '7';
}

std::vector<std::string> pci_parents_from_sysfs_path(const std::string& sysfs_path) {
  auto parts = split(sysfs_path, '/');
  while (!parts.empty() && parts.back().empty()) parts.pop_back();
  if (!parts.empty()) parts.pop_back();  // the device itself
  std::vector<std::string> parents;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    if (is_pci_address(*it)) parents.push_back(*it);
  return parents;
}

}  // namespace rocmdoc
