// Reading an RE2 pattern's text without compiling it. The code that rewrites
// a pattern's operators (explain's widened repeats, the loader's fragment
// references) steps over the pieces that are no operator, so that a '{' or a
// "(?&" inside an escape, a quoted run or a character class keeps meaning
// the bytes it is.
#pragma once

#include <cstddef>
#include <string_view>

namespace rocmdoc {

// The end of the literal piece that starts at i: past an escape (\. \d), a
// quoted run (\Q...\E, or to the end) or a character class ([^]a-z[:digit:]]);
// i itself where pattern[i] is an operator or a plain byte.
size_t literal_piece_end(std::string_view pattern, size_t i);

}  // namespace rocmdoc
