// Node names as operators write them: natural order (gpu2 before gpu10)
// and host ranges in the style of Slurm's hostlists, gpu[001-040,045].
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace rocmdoc {

// a < b with runs of digits compared as numbers: gpu2 < gpu10 < gpu010b.
bool natural_less(std::string_view a, std::string_view b);

// The names (any order, duplicates ignored) in natural order, those that
// differ only in their last number joined into a range of that number:
// {gpu001..gpu040, gpu045, login} -> "gpu[001-040,045],login". Numbers of
// different widths stay apart (gpu9 and gpu10 are "gpu9,gpu10"), so each
// range expands back to exactly the names it came from.
std::string shorten_names(std::vector<std::string> names);

// The inverse: "gpu[001-040,045],login" -> the 42 names, in the order
// written. Errors name the term and what is wrong with it.
Result<std::vector<std::string>> expand_names(std::string_view list);

}  // namespace rocmdoc
