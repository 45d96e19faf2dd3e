// The terminal rocmdoc's own output goes to (not the machine it looks at):
// whether a descriptor is one, and how many columns it has.
#pragma once

#include <cstddef>

namespace rocmdoc {

bool is_terminal(int fd);

// The terminal's width (TIOCGWINSZ on fd); 0 when fd is not a terminal or
// the terminal does not say (a serial console).
size_t terminal_columns(int fd);

}  // namespace rocmdoc
