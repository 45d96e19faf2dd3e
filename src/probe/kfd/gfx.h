// The gfx target name ("gfx90a", "gfx1100") from KFD's gfx_target_version.
//
// The kernel encodes the target as major * 10000 + minor * 100 + stepping
// (kfd_device.c), and the compiler's names print minor and stepping as one
// hex digit each: 90010 is gfx90a, 110003 is gfx1103. Kept apart from the
// kfd probe because the rules engine decodes HSA_OVERRIDE_GFX_VERSION-style
// values with the same rule.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rocmdoc {

// nullopt for 0 (a CPU node has no gfx target) and for values no target
// can have: minor or stepping of 16 or more, or more than 32 bits (the
// kernel prints a u32).
std::optional<std::string> gfx_name_from_target_version(uint64_t version);

}  // namespace rocmdoc
