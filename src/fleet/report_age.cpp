#include "fleet/report_age.h"

#include <ctime>
#include <vector>

namespace rocmdoc {

Result<long long> parse_duration(std::string_view text) {
  using R = Result<long long>;
  std::string whole(text);
  if (text.empty()) return R::fail("an empty duration (give one like 30m, 2h or 1d)");
  long long total = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t start = i;
    long long n = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      n = n * 10 + (text[i] - '0');
      if (n > 1000000000LL) return R::fail("'" + whole + "' is too long a duration");
      ++i;
    }
    if (i == start) return R::fail("'" + whole + "' is not a duration (give one like 30m, 2h, 1d or 1h30m)");
    if (i == text.size()) return R::fail("'" + whole + "' has no unit (s, m, h, d or w) after its last number");
    long long unit = 0;
    switch (text[i]) {
      case 's': unit = 1; break;
      case 'm': unit = 60; break;
      case 'h': unit = 3600; break;
      case 'd': unit = 86400; break;
      case 'w': unit = 7 * 86400; break;
      default:
        return R::fail("'" + whole + "': '" + std::string(1, text[i]) + "' is not a unit (s, m, h, d or w)");
    }
    total += n * unit;
    ++i;
  }
  return R::ok(total);
}

std::optional<long long> parse_utc_time(std::string_view text) {
  std::string s(text);
  std::tm tm{};
  const char* end = ::strptime(s.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (!end || *end != '\0') return std::nullopt;
  return static_cast<long long>(::timegm(&tm));
}

std::string format_age(long long seconds) {
  if (seconds < 0) return "from " + format_age(-seconds) + " in the future";
  const std::vector<std::pair<long long, const char*>> units = {{86400, "d"}, {3600, "h"}, {60, "m"}, {1, "s"}};
  std::string out;
  int shown = 0;
  for (auto [size, name] : units) {
    if (seconds >= size || (size == 1 && out.empty())) {
      out += (out.empty() ? "" : " ") + std::to_string(seconds / size) + name;
      seconds %= size;
      if (++shown == 2) break;
    } else if (shown) {
      break;  // "2d 0h" reads as a gap: stop at the first empty unit after one shown
    }
  }
  return out;
}

}  // namespace rocmdoc
