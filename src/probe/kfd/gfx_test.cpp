#include "catch.h"
#include "probe/kfd/gfx.h"

using rocmdoc::gfx_name_from_target_version;

TEST_CASE("gfx_target_version decodes to the compiler's target names", "[kfd][gfx]") {
  CHECK(gfx_name_from_target_version(90010) == "gfx90a");
  CHECK(gfx_name_from_target_version(90402) == "gfx942");
  CHECK(gfx_name_from_target_version(110000) == "gfx1100");
  CHECK(gfx_name_from_target_version(100300) == "gfx1030");
  CHECK(gfx_name_from_target_version(90012) == "gfx90c");
  CHECK(gfx_name_from_target_version(110003) == "gfx1103");
  CHECK(gfx_name_from_target_version(90000) == "gfx900");
  CHECK(gfx_name_from_target_version(80003) == "gfx803");
  CHECK(gfx_name_from_target_version(100102) == "gfx1012");
  CHECK(gfx_name_from_target_version(110501) == "gfx1151");
  CHECK(gfx_name_from_target_version(120001) == "gfx1201");
  CHECK(gfx_name_from_target_version(90500) == "gfx950");
  // Largest stepping and minor that still fit one hex digit.
  CHECK(gfx_name_from_target_version(91515) == "gfx9ff");
}

TEST_CASE("gfx_target_version 0 is a CPU node, not a target", "[kfd][gfx]") {
  CHECK_FALSE(gfx_name_from_target_version(0).has_value());
}

TEST_CASE("gfx_target_version values no target can have are refused", "[kfd][gfx][malformed]") {
  CHECK_FALSE(gfx_name_from_target_version(91600).has_value());   // minor 16
  CHECK_FALSE(gfx_name_from_target_version(99900).has_value());   // minor 99
  CHECK_FALSE(gfx_name_from_target_version(90016).has_value());   // stepping 16
  CHECK_FALSE(gfx_name_from_target_version(90099).has_value());   // stepping 99
  CHECK_FALSE(gfx_name_from_target_version(9999).has_value());    // major 0
  CHECK_FALSE(gfx_name_from_target_version(1).has_value());
  CHECK_FALSE(gfx_name_from_target_version(0x100000000ULL).has_value());
  CHECK_FALSE(gfx_name_from_target_version(UINT64_MAX).has_value());
}
