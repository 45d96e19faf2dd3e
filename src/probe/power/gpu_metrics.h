// gpu_metrics: amdgpu's binary metrics table (sysfs gpu_metrics), read only
// for its throttle status. The table is a versioned C struct
// (drivers/gpu/drm/amd/include/kgd_pp_interface.h); rocmdoc decodes only
// the versions whose layout it has checked there, and only their ASIC
// independent throttle word, whose bits mean the same on every GPU
// (SMU_THROTTLER_*_BIT in drivers/gpu/drm/amd/pm/swsmu/inc/amdgpu_smu.h).
#pragma once

#include <string_view>

#include "base/fact.h"

namespace rocmdoc {

// {metrics_version, raw ("0x..."), active[] ("power", "current",
// "temperature", "other")}, or unknown("<path>: <why>") for a table that
// is too short, claims another size, or has a version not decoded.
Json decode_gpu_metrics_throttle(std::string_view bytes, const std::string& path);

}  // namespace rocmdoc
