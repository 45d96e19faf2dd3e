// Rendered text fitted to a terminal's width. The renderers write one line
// per item however long; this breaks the long ones at spaces for a terminal
// of `width` columns, each continuation indented under the text it
// continues (past the line's mark, "[✓] " or "✗ ", and its label, "why: ";
// on a line laid out in columns, under the last column that starts in the
// first half of the line).
// What a user copies is never broken: a word (a path, a URL), a line that
// is a command ("$ sudo usermod ..."), a `quoted` span, and a command in
// the text, from `sudo`, `rocmdoc`, `python3`, `pip`, `pip3` or `export`
// to the next ';', ',', ':', ')', '.' or '(' — such a piece longer than the
// line goes on a line of its own, whole.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rocmdoc {

// width 0: the text unchanged (not a terminal, docs/check.md).
std::string wrap_to_width(std::string_view text, size_t width);

}  // namespace rocmdoc
