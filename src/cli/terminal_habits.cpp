#include "cli/terminal_habits.h"

#include <cstdlib>
#include <cstring>

#include "base/text.h"
#include "platform/terminal.h"

namespace rocmdoc {

ColorMode color_mode(const std::string& name) {
  if (name == "always") return ColorMode::always;
  if (name == "never") return ColorMode::never;
  return ColorMode::automatic;
}

TerminalEnvironment TerminalEnvironment::of_process() {
  return {std::getenv("NO_COLOR"), std::getenv("CLICOLOR_FORCE"), std::getenv("TERM"), std::getenv("COLUMNS")};
}

bool use_color(ColorMode mode, bool terminal, const TerminalEnvironment& env) {
  if (mode != ColorMode::automatic) return mode == ColorMode::always;
  if (env.no_color && *env.no_color) return false;
  if (env.clicolor_force && *env.clicolor_force && std::strcmp(env.clicolor_force, "0") != 0) return true;
  return terminal && !(env.term && std::strcmp(env.term, "dumb") == 0);
}

size_t wrap_width(bool terminal, size_t terminal_columns, const TerminalEnvironment& env) {
  std::optional<uint64_t> columns = env.columns ? parse_uint(env.columns) : std::nullopt;
  if (columns && (*columns < 20 || *columns > 1000)) columns.reset();
  if (terminal && terminal_columns > 0) return terminal_columns;
  if (columns) return static_cast<size_t>(*columns);
  return terminal ? 80 : 0;
}

OutputHabits output_habits(int fd, ColorMode mode) {
  TerminalEnvironment env = TerminalEnvironment::of_process();
  bool terminal = is_terminal(fd);
  return {terminal, use_color(mode, terminal, env), wrap_width(terminal, terminal ? terminal_columns(fd) : 0, env)};
}

}  // namespace rocmdoc
