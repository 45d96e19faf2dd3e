// ctest runs each Catch test case by passing its name to the test binary
// (CMakeLists.txt, catch_discover_tests). Some names cannot make that trip:
// one starting with '-' is read as an option ("Unrecognised token"), one
// with ';' is split into two by CMake's lists, one with '[' is joined with
// the names after it; the test then fails, or passes without running
// anything. Running the binary whole never shows it (a fresh-clone CI run
// did, stop 48), so every registered name is checked here.
#include "catch.h"

#include <string>
#include <vector>

TEST_CASE("every test case's name is one ctest can pass to the test binary", "[support]") {
  std::vector<std::string> bad;
#if defined(ROCMDOC_CATCH3)
  for (const Catch::TestCaseInfo* info : Catch::getRegistryHub().getTestCaseRegistry().getAllInfos()) {
    const std::string name(info->name);
#else
  for (const auto& test : Catch::getRegistryHub().getTestCaseRegistry().getAllTests()) {
    const std::string& name = test.getTestCaseInfo().name;
#endif
    if (name.empty() || name.front() == '-' || name.find(';') != std::string::npos ||
        name.find('[') != std::string::npos)
      bad.push_back(name);
  }
  INFO("names that start with '-' or hold ';' or '[': rename them");
  for (const auto& name : bad) UNSCOPED_INFO(name);
  CHECK(bad.empty());
}
