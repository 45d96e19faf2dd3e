#include "fleet/node_names.h"

#include <fmt/format.h>

#include "catch.h"

using namespace rocmdoc;

TEST_CASE("natural_less orders numbers by value, then by their zeros", "[fleet][names]") {
  CHECK(natural_less("gpu2", "gpu10"));
  CHECK_FALSE(natural_less("gpu10", "gpu2"));
  CHECK(natural_less("gpu9", "gpu010"));
  CHECK(natural_less("gpu010", "gpu11"));
  CHECK(natural_less("gpu10b", "gpu010"));  // equal numbers: fewer zeros first, where they differ
  CHECK(natural_less("a", "b"));
  CHECK(natural_less("gpu", "gpu1"));
  CHECK(natural_less("gpu1", "gpu01"));  // equal numbers: fewer zeros first, so the order is total
  CHECK_FALSE(natural_less("gpu1", "gpu1"));
  CHECK(natural_less("rack2-gpu9", "rack10-gpu1"));
}

TEST_CASE("shorten_names joins consecutive numbers into ranges", "[fleet][names]") {
  std::vector<std::string> names;
  for (int i = 40; i >= 1; --i) names.push_back(fmt::format("gpu{:03}", i));
  names.push_back("gpu045");
  names.push_back("login");
  names.push_back("gpu007");  // a duplicate is shown once
  CHECK(shorten_names(names) == "gpu[001-040,045],login");
  CHECK(shorten_names({"n1", "n3", "n5"}) == "n[1,3,5]");
  CHECK(shorten_names({"gpu9", "gpu10", "gpu11"}) == "gpu9,gpu[10-11]");  // widths differ: apart
  CHECK(shorten_names({"a1b", "a2b", "a2c"}) == "a[1-2]b,a2c");
  CHECK(shorten_names({"solo"}) == "solo");
  CHECK(shorten_names({"gpu7"}) == "gpu7");
  CHECK(shorten_names({}).empty());
  CHECK(shorten_names({"rack1-n2", "rack1-n1", "rack2-n1"}) == "rack1-n[1-2],rack2-n1");
}

TEST_CASE("expand_names is the inverse of shorten_names", "[fleet][names]") {
  auto e = expand_names("gpu[001-003,045],login, n[8-10]");
  REQUIRE(e);
  CHECK(*e == std::vector<std::string>{"gpu001", "gpu002", "gpu003", "gpu045", "login", "n8", "n9", "n10"});
  auto two = expand_names("r[1-2]n[1-2]");
  REQUIRE(two);
  CHECK(*two == std::vector<std::string>{"r1n1", "r1n2", "r2n1", "r2n2"});
  std::vector<std::string> names;
  for (int i = 1; i <= 120; i += (i % 7 ? 1 : 3)) names.push_back(fmt::format("node{:04}", i));
  auto back = expand_names(shorten_names(names));
  REQUIRE(back);
  CHECK(*back == names);
}

TEST_CASE("expand_names says what is wrong with a bad list", "[fleet][names]") {
  CHECK(expand_names("gpu[1-").error() == "'gpu[1-': a '[' without its ']'");
  CHECK(expand_names("gpu[5-2]").error() == "'gpu[5-2]': the range 5-2 runs backwards");
  CHECK(expand_names("gpu[a-b]").error() == "'gpu[a-b]': 'a-b' is not a number or a range N-M of numbers");
  CHECK(expand_names("gpu]").error() == "'gpu]': a ']' without its '['");
  CHECK(expand_names("n[0-9999999]").error() == "'n[0-9999999]': the range 0-9999999 is over a million names");
  CHECK(expand_names("")->empty());
}
