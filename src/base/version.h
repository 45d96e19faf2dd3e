// Version strings as ROCm, kernels and distributions write them:
// "6.4.1", "6.8.0-45-generic", "24.04", "2.5.1+rocm6.2", "6.2.41133-dd7f95766".
// Compared piecewise: runs of digits as numbers, other runs as text, and a
// missing piece counts as 0, so "6.8" == "6.8.0" and "6.8.0-45" > "6.8".
#pragma once

#include <string>
#include <string_view>

namespace rocmdoc {

// <0, 0, >0 like strcmp.
int compare_versions(std::string_view a, std::string_view b);
// True when `version` lies in the series `series`: "6.8.0-45-generic" is in
// "6.8" and in "6", not in "6.11".
bool version_in_series(std::string_view version, std::string_view series);
// True when `wanted`, as a user gives a release (--rocm), names `version`:
// the version itself, or a series X.Y for its point releases ("7.2" names
// 7.2.4). A bare major ("7", "10") names none: it would choose between
// release lines, not point releases. The newest release it names is meant.
bool names_release(std::string_view wanted, std::string_view version);
// The leading numeric part: "2.5.1+rocm6.2" -> "2.5.1"; "" when none.
std::string version_core(std::string_view version);

}  // namespace rocmdoc
