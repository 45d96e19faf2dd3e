#include "catch.h"
#include "base/version.h"

using namespace rocmdoc;

TEST_CASE("versions compare piecewise as numbers", "[version]") {
  CHECK(compare_versions("6.10", "6.9") > 0);
  CHECK(compare_versions("6.8", "6.8.0") == 0);
  CHECK(compare_versions("6.8.0-45-generic", "6.8") > 0);
  CHECK(compare_versions("6.8.0-45-generic", "6.11") < 0);
  CHECK(compare_versions("7.2.4", "7.2.10") < 0);
  CHECK(compare_versions("6.8.0", "6.8.0-rc1") > 0);
  CHECK(compare_versions("", "0") == 0);
  CHECK(compare_versions("99999999999999999999999", "1") > 0);  // no overflow trap
}

TEST_CASE("series membership and version cores", "[version]") {
  CHECK(version_in_series("6.8.0-45-generic", "6.8"));
  CHECK(version_in_series("6.8.0-45-generic", "6"));
  CHECK_FALSE(version_in_series("6.8.0-45-generic", "6.11"));
  CHECK_FALSE(version_in_series("6.1", "6.11"));
  CHECK_FALSE(version_in_series("6", "6.8"));
  CHECK(version_core("2.5.1+rocm6.2") == "2.5.1");
  CHECK(version_core("6.4.1-83") == "6.4.1");
  CHECK(version_core("abc") == "");
}

TEST_CASE("a release as users give it names the version or its series, never a bare major", "[version]") {
  CHECK(names_release("7.2.4", "7.2.4"));
  CHECK(names_release("7.2", "7.2.4"));
  CHECK(names_release("10.1", "10.1.0"));
  CHECK_FALSE(names_release("7.2", "7.20.0"));
  CHECK_FALSE(names_release("7", "7.2.4"));
  CHECK_FALSE(names_release("10", "10.1.0"));
  CHECK_FALSE(names_release("7.2.4", "7.2.40"));
  CHECK_FALSE(names_release("", "7.2.4"));
}
