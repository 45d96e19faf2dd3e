#include "base/version.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "base/text.h"

namespace rocmdoc {

namespace {

struct Piece {
  bool numeric;
  unsigned long long number;
  std::string_view text;
};

// "6.8.0-45-generic" -> 6 8 0 45 "generic"; separators are dropped.
std::vector<Piece> pieces(std::string_view s) {
  std::vector<Piece> out;
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isdigit(c)) {
      unsigned long long n = 0;
      size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
        if (n < 1'000'000'000'000ULL) n = n * 10 + static_cast<unsigned>(s[j] - '0');
        ++j;
      }
      out.push_back({true, n, {}});
      i = j;
    } else if (std::isalpha(c)) {
      size_t j = i;
      while (j < s.size() && std::isalpha(static_cast<unsigned char>(s[j]))) ++j;
      out.push_back({false, 0, s.substr(i, j - i)});
      i = j;
    } else {
      ++i;
    }
  }
  return out;
}

}  // namespace

int compare_versions(std::string_view a, std::string_view b) {
  auto pa = pieces(a), pb = pieces(b);
  size_t n = std::max(pa.size(), pb.size());
  for (size_t i = 0; i < n; ++i) {
    Piece x = i < pa.size() ? pa[i] : Piece{true, 0, {}};
    Piece y = i < pb.size() ? pb[i] : Piece{true, 0, {}};
    if (x.numeric && y.numeric) {
      if (x.number != y.number) return x.number < y.number ? -1 : 1;
    } else if (x.numeric != y.numeric) {
      // "6.8.0" vs "6.8.0-rc1": a number sorts after text (a release
      // after its candidates), as dpkg does with '~' in spirit.
      return x.numeric ? 1 : -1;
    } else if (x.text != y.text) {
      return x.text < y.text ? -1 : 1;
    }
  }
  return 0;
}

bool version_in_series(std::string_view version, std::string_view series) {
  auto pv = pieces(version), ps = pieces(series);
  if (ps.empty() || pv.size() < ps.size()) return false;
  for (size_t i = 0; i < ps.size(); ++i) {
    if (pv[i].numeric != ps[i].numeric) return false;
    if (pv[i].numeric ? pv[i].number != ps[i].number : pv[i].text != ps[i].text) return false;
  }
  return true;
}

bool names_release(std::string_view wanted, std::string_view version) {
  if (wanted == version) return true;
  if (std::count(wanted.begin(), wanted.end(), '.') != 1) return false;
  return starts_with(version, std::string(wanted) + ".");
}

std::string version_core(std::string_view version) {
  size_t i = 0;
  while (i < version.size() && (std::isdigit(static_cast<unsigned char>(version[i])) || version[i] == '.')) ++i;
  std::string core(version.substr(0, i));
  while (!core.empty() && core.back() == '.') core.pop_back();
  return core;
}

}  // namespace rocmdoc
