#include "probe/kfd/gfx.h"

namespace rocmdoc {

std::optional<std::string> gfx_name_from_target_version(uint64_t version) {
  if (version == 0 || version > 0xffffffffULL) return std::nullopt;
  uint64_t major = version / 10000;
  uint64_t minor = (version / 100) % 100;
  uint64_t stepping = version % 100;
  // One hex digit each: anything wider would be ambiguous ("gfx9110" could
  // be 9.1.10 or 9.11.0), so no real target uses it.
  if (major == 0 || minor > 15 || stepping > 15) return std::nullopt;
  static const char* hex = "0123456789abcdef";
  std::string name = "gfx" + std::to_string(major);
  name += hex[minor];
  name += hex[stepping];
  return name;
}

}  // namespace rocmdoc
