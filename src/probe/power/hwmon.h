// The amdgpu hwmon directory of one GPU: its power cap (with the default
// and the maximum the board allows) and its temperature sensors with their
// critical limits (Documentation/gpu/amdgpu/thermal.rst: power1_cap* in
// microwatts, temp*_input and temp*_crit in millidegrees Celsius,
// temp*_label edge, junction or mem).
#pragma once

#include <string>

#include "probe/probe.h"

namespace rocmdoc {

// The GPU's hwmon directory under its sysfs device directory, or unknown.
Json find_hwmon(ProbeContext& ctx, const std::string& device_dir);

// Adds power_cap_w, power_cap_default_w, power_cap_max_w and
// cap_below_default to `gpu`.
void read_power_caps(ProbeContext& ctx, const std::string& hwmon, Json& gpu);

// Adds temperatures[] ({sensor, celsius, crit_celsius}) and
// thermal_headroom_c (the smallest crit - current over the sensors) to `gpu`.
void read_temperatures(ProbeContext& ctx, const std::string& hwmon, Json& gpu);

// The current level of a pp_dpm_* clock list ("1: 2482Mhz *"), in MHz.
Json current_dpm_mhz(std::string_view text, const std::string& path);

}  // namespace rocmdoc
