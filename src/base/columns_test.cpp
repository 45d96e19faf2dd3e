#include "base/columns.h"

#include "catch.h"

using namespace rocmdoc;

TEST_CASE("columns counts what a terminal draws: no escape sequences, a column per character", "[columns]") {
  CHECK(columns("") == 0);
  CHECK(columns("plain") == 5);
  CHECK(columns("\033[31m✗\033[0m") == 1);
  CHECK(columns("[✓] System — Ubuntu") == 19);
  CHECK(columns("\033[1mdevice-node-not-accessible:\033[0m") == 27);
  CHECK(columns("…") == 1);
  CHECK(columns("°C") == 2);
  CHECK(columns("日本") == 4);      // wide
  CHECK(columns("e\xCC\x81") == 1);  // e and a combining acute
  CHECK(columns("\xFF") == 1);       // a stray byte is drawn as one replacement character
}

TEST_CASE("cut_to_columns keeps the start that fits, marks the cut and closes a colour", "[columns]") {
  CHECK(cut_to_columns("short", 10) == "short");
  CHECK(cut_to_columns("exactly 10", 10) == "exactly 10");
  CHECK(cut_to_columns("one column too long", 10) == "one colum…");
  CHECK(columns(cut_to_columns("one column too long", 10)) == 10);
  CHECK(cut_to_columns("✓✓✓✓✓", 3) == "✓✓…");
  // An escape sequence costs nothing and is never cut in half; a reset follows.
  std::string cut = cut_to_columns("\033[32mgreen text here\033[0m", 6);
  CHECK(cut == "\033[32mgreen…\033[0m");
  CHECK(columns(cut) == 6);
  CHECK(cut_to_columns("abc", 0) == "");
}
