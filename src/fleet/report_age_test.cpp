#include "fleet/report_age.h"

#include "catch.h"

using namespace rocmdoc;

TEST_CASE("parse_duration reads s, m, h, d, w and runs of them", "[fleet][age]") {
  CHECK(*parse_duration("90s") == 90);
  CHECK(*parse_duration("15m") == 900);
  CHECK(*parse_duration("2h") == 7200);
  CHECK(*parse_duration("1d") == 86400);
  CHECK(*parse_duration("1w") == 604800);
  CHECK(*parse_duration("1h30m") == 5400);
  CHECK(parse_duration("30").error() == "'30' has no unit (s, m, h, d or w) after its last number");
  CHECK(parse_duration("1y").error() == "'1y': 'y' is not a unit (s, m, h, d or w)");
  CHECK_FALSE(parse_duration("h"));
  CHECK_FALSE(parse_duration(""));
  CHECK_FALSE(parse_duration("99999999999h"));
}

TEST_CASE("parse_utc_time reads the time rocmdoc writes, and nothing looser", "[fleet][age]") {
  CHECK(parse_utc_time("1970-01-01T00:00:00Z") == 0);
  CHECK(parse_utc_time("2026-12-01T19:14:28Z") == 1796152468);
  CHECK_FALSE(parse_utc_time("2026-12-01 19:14:28"));
  CHECK_FALSE(parse_utc_time("2026-12-01T19:14:28Zjunk"));
  CHECK_FALSE(parse_utc_time(""));
}

TEST_CASE("format_age shows the two largest units", "[fleet][age]") {
  CHECK(format_age(45) == "45s");
  CHECK(format_age(0) == "0s");
  CHECK(format_age(3 * 3600 + 5 * 60 + 9) == "3h 5m");
  CHECK(format_age(2 * 86400 + 4 * 3600) == "2d 4h");
  CHECK(format_age(2 * 86400 + 3 * 60) == "2d");
  CHECK(format_age(-120) == "from 2m in the future");
}
