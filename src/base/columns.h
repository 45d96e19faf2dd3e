// How wide text is on a terminal: the columns a line takes, not its bytes.
// Escape sequences (colour) take none, a UTF-8 character one (two for East
// Asian wide ones, none for combining marks), so ✓ and — count as one, as a
// terminal draws them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rocmdoc {

size_t columns(std::string_view text);

// The longest start of `text` that fits in `max` columns, with "…" in place
// of what was cut; whole escape sequences are kept (and a reset added after
// a cut one), so a cut never leaves a colour on.
std::string cut_to_columns(std::string_view text, size_t max);

}  // namespace rocmdoc
