// How old a node's report is: --max-age's durations and the report's own
// time (facts.source.collected_at, when its facts were read).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace rocmdoc {

// "90s", "15m", "2h", "1d", "1w", or several run together ("1h30m"), to
// seconds. A bare number is refused: minutes or seconds would be a guess.
Result<long long> parse_duration(std::string_view text);

// "2026-12-01T19:14:28Z" (what rocmdoc writes) to Unix seconds.
std::optional<long long> parse_utc_time(std::string_view text);

// Seconds as the largest two units: "3d 4h", "2h 5m", "45s".
std::string format_age(long long seconds);

}  // namespace rocmdoc
