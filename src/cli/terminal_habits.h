// How a command prints for a person: colour and width, decided once in main
// for the descriptor the text goes to (standard output; standard error for
// explain --run), from --color, the environment and the terminal.
//   colour, --color=auto (the default): off when NO_COLOR is set and not
//     empty (no-color.org), else on when CLICOLOR_FORCE is set and not "0",
//     else on for a terminal whose TERM is not "dumb"; --color=always and
//     --color=never decide alone (always wins over NO_COLOR).
//   width: a terminal's own columns (TIOCGWINSZ), else COLUMNS, else 80;
//     not a terminal: COLUMNS when it is set, else no wrapping at all, so a
//     log or a pipe gets each line whole.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace rocmdoc {

enum class ColorMode { automatic, always, never };
// --color's values, in this order.
inline const std::vector<std::string> kColorModeNames{"auto", "always", "never"};
ColorMode color_mode(const std::string& name);  // a name of kColorModeNames ("auto" otherwise)

// The variables that decide, null when unset.
struct TerminalEnvironment {
  const char* no_color = nullptr;
  const char* clicolor_force = nullptr;
  const char* term = nullptr;
  const char* columns = nullptr;
  static TerminalEnvironment of_process();
};

bool use_color(ColorMode mode, bool terminal, const TerminalEnvironment& env);
// 0: do not wrap. COLUMNS outside 20..1000 (or not a number) is ignored.
size_t wrap_width(bool terminal, size_t terminal_columns, const TerminalEnvironment& env);

struct OutputHabits {
  bool terminal = false;  // a status line can be redrawn in place
  bool color = false;
  size_t width = 0;       // 0: lines are not wrapped
};
OutputHabits output_habits(int fd, ColorMode mode);

}  // namespace rocmdoc
