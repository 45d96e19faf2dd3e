#include "probe/power/hwmon.h"

#include <algorithm>
#include <optional>

#include "base/text.h"

namespace rocmdoc {

namespace {

// A sysfs number, or unknown naming the file and what it held; `value` is
// set when it is a number.
Json read_number(ProbeContext& ctx, const std::string& path, std::optional<int64_t>& value) {
  Json n = ctx.read_integer_fact(path);
  value = n.is_number_integer() ? std::optional<int64_t>(n.get<int64_t>()) : std::nullopt;
  return n;
}

// Microwatts to whole watts, as amd-smi and rocm-smi print them.
Json watts(const Json& microwatts) { return microwatts.is_number() ? Json(microwatts.get<int64_t>() / 1000000) : microwatts; }

Json celsius(const Json& millidegrees) {
  return millidegrees.is_number() ? Json(millidegrees.get<int64_t>() / 1000) : millidegrees;
}

}  // namespace

Json find_hwmon(ProbeContext& ctx, const std::string& device_dir) {
  std::string dir = device_dir + "/hwmon";
  auto entries = ctx.fs().list_dir(dir);
  if (!entries) return unknown(entries.error() + " (no hwmon: amdgpu not bound, a virtual function, or not recorded)");
  for (auto& e : *entries)
    if (starts_with(e, "hwmon")) return dir + "/" + e;
  return unknown(dir + ": no hwmonN entry");
}

void read_power_caps(ProbeContext& ctx, const std::string& hwmon, Json& gpu) {
  std::optional<int64_t> cap, def, max;
  Json cap_j = read_number(ctx, hwmon + "/power1_cap", cap);
  Json def_j = read_number(ctx, hwmon + "/power1_cap_default", def);
  Json max_j = read_number(ctx, hwmon + "/power1_cap_max", max);
  gpu["power_cap_w"] = watts(cap_j);
  gpu["power_cap_default_w"] = watts(def_j);
  gpu["power_cap_max_w"] = watts(max_j);
  // Compared in microwatts: a cap a few hundred mW under the default is
  // rounding in a tool's display, not a lowered cap, so require 1 W.
  if (cap && def) gpu["cap_below_default"] = *cap + 1000000 <= *def;
  else gpu["cap_below_default"] = unknown(!cap ? unknown_reason(cap_j) : unknown_reason(def_j));
}

void read_temperatures(ProbeContext& ctx, const std::string& hwmon, Json& gpu) {
  auto entries = ctx.fs().list_dir(hwmon);
  if (!entries) {
    gpu["temperatures"] = unknown(entries.error());
    gpu["thermal_headroom_c"] = unknown(entries.error());
    return;
  }
  Json temps = Json::array();
  std::optional<int64_t> headroom;
  std::string why_no_headroom = hwmon + ": no temperature sensor with both temp*_input and temp*_crit";
  for (auto& e : *entries) {
    if (!starts_with(e, "temp") || !ends_with(e, "_input")) continue;
    std::string base = hwmon + "/" + e.substr(0, e.size() - 6);
    Json label = ctx.read_text_fact(base + "_label");
    std::optional<int64_t> input, crit;
    Json input_j = read_number(ctx, base + "_input", input);
    Json crit_j = read_number(ctx, base + "_crit", crit);
    Json t = Json::object();
    t["sensor"] = label.is_string() ? label : Json(e.substr(0, e.size() - 6));
    t["celsius"] = celsius(input_j);
    t["crit_celsius"] = celsius(crit_j);
    if (input && crit) {
      int64_t room = (*crit - *input) / 1000;
      headroom = headroom ? std::min(*headroom, room) : room;
    } else if (!input) {
      why_no_headroom = unknown_reason(input_j);
    } else {
      why_no_headroom = unknown_reason(crit_j);
    }
    temps.push_back(t);
  }
  gpu["temperatures"] = temps;
  gpu["thermal_headroom_c"] = headroom ? Json(*headroom) : unknown(why_no_headroom);
}

Json current_dpm_mhz(std::string_view text, const std::string& path) {
  for (auto& line : split_lines(text)) {
    if (line.find('*') == std::string::npos) continue;
    // "1: 2482Mhz *"; the level may be "S:" (deep sleep) on some GPUs.
    auto words = split_words(line);
    for (auto& w : words) {
      std::string lw = to_lower(w);
      if (!ends_with(lw, "mhz")) continue;
      if (auto mhz = parse_uint(lw.substr(0, lw.size() - 3))) return *mhz;
    }
    return unknown(path + ": the marked level has no MHz value: " + quote_for_reason(line));
  }
  return unknown(path + ": no level is marked current (*)");
}

}  // namespace rocmdoc
