#include "cli/terminal_habits.h"

#include "catch.h"

using namespace rocmdoc;

TEST_CASE("colour in auto mode: a terminal, unless NO_COLOR, TERM=dumb or CLICOLOR_FORCE say otherwise", "[terminal]") {
  TerminalEnvironment none;
  CHECK(use_color(ColorMode::automatic, true, none));
  CHECK_FALSE(use_color(ColorMode::automatic, false, none));
  // NO_COLOR: any value but an empty one (no-color.org).
  TerminalEnvironment no_color;
  no_color.no_color = "1";
  CHECK_FALSE(use_color(ColorMode::automatic, true, no_color));
  no_color.no_color = "";
  CHECK(use_color(ColorMode::automatic, true, no_color));
  // A dumb terminal draws escape sequences as text.
  TerminalEnvironment dumb;
  dumb.term = "dumb";
  CHECK_FALSE(use_color(ColorMode::automatic, true, dumb));
  // CLICOLOR_FORCE colours a pipe too, but not against NO_COLOR; "0" forces nothing.
  TerminalEnvironment forced;
  forced.clicolor_force = "1";
  CHECK(use_color(ColorMode::automatic, false, forced));
  forced.clicolor_force = "0";
  CHECK_FALSE(use_color(ColorMode::automatic, false, forced));
  forced.clicolor_force = "1";
  forced.no_color = "yes";
  CHECK_FALSE(use_color(ColorMode::automatic, false, forced));
}

TEST_CASE("colour always and never decide alone, over NO_COLOR and CLICOLOR_FORCE", "[terminal]") {
  TerminalEnvironment no_color;
  no_color.no_color = "1";
  CHECK(use_color(ColorMode::always, false, no_color));
  CHECK(use_color(ColorMode::always, true, no_color));
  CHECK_FALSE(use_color(ColorMode::never, true, {}));
  TerminalEnvironment forced;
  forced.clicolor_force = "1";
  CHECK_FALSE(use_color(ColorMode::never, true, forced));
  CHECK(color_mode("always") == ColorMode::always);
  CHECK(color_mode("never") == ColorMode::never);
  CHECK(color_mode("auto") == ColorMode::automatic);
}

TEST_CASE("the width is the terminal's, else COLUMNS, else 80, and not a terminal wraps only with COLUMNS", "[terminal]") {
  TerminalEnvironment none;
  CHECK(wrap_width(true, 132, none) == 132);
  CHECK(wrap_width(true, 0, none) == 80);
  CHECK(wrap_width(false, 0, none) == 0);
  TerminalEnvironment columns;
  columns.columns = "100";
  CHECK(wrap_width(true, 132, columns) == 132);  // the terminal knows its size better
  CHECK(wrap_width(true, 0, columns) == 100);
  CHECK(wrap_width(false, 0, columns) == 100);
  // Not a width: ignored.
  for (const char* bad : {"", "abc", "-5", "10", "100000", "80x"}) {
    INFO(bad);
    columns.columns = bad;
    CHECK(wrap_width(false, 0, columns) == 0);
    CHECK(wrap_width(true, 0, columns) == 80);
  }
}
