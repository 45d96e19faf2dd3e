// ctest runs each Catch test case by passing its name to the test binary
// (CMakeLists.txt, catch_discover_tests). Some names cannot make that trip:
// one starting with '-' is read as an option ("Unrecognised token"), one
// with ';' is split into two by CMake's lists, one with '[' is joined with
// the names after it; the test then fails, or passes without running
// anything. Running the binary whole never shows it (a fresh-clone CI run
// did, stop 48), so every registered name is checked here.
//
// The name also goes through Catch's test-spec parser, which the discovery
// script escapes only ',', '[' and ']' for. What else the parser (Catch2 v2,
// TestSpecParser) reads as syntax: '~' at the start excludes the name, so
// the ctest test runs every other case instead; so does a leading
// "exclude:"; a leading '"' opens a quoted name that ends at the next '"',
// which then matches no case; and '\' anywhere escapes the next character
// and is dropped, so the pattern no longer equals the name. A leading '*'
// is a wildcard too, but the pattern still matches the name itself (and
// at most some others ending alike): the case runs, so it is allowed.
#include "catch.h"

#include <string>
#include <vector>

namespace {

// Why ctest could not run the case of this name by itself; "" when it can.
std::string ctest_unsafe(const std::string& name) {
  if (name.empty()) return "empty";
  if (name.front() == '-') return "starts with '-' (an option)";
  if (name.front() == '~') return "starts with '~' (excludes the case)";
  if (name.rfind("exclude:", 0) == 0) return "starts with \"exclude:\" (excludes the case)";
  if (name.front() == '"') return "starts with '\"' (a quoted name)";
  if (name.find(';') != std::string::npos) return "holds ';' (a CMake list separator)";
  if (name.find('[') != std::string::npos) return "holds '['";
  if (name.find('\\') != std::string::npos) return "holds '\\' (Catch's escape)";
  return "";
}

}  // namespace

TEST_CASE("the test name guard knows what ctest cannot pass to the test binary", "[support]") {
  for (const char* bad : {"", "-x", "~x", "~", "exclude:x", "\"x\" y", "a;b", "a [b]", "a\\b"}) {
    INFO(bad);
    CHECK(!ctest_unsafe(bad).empty());
  }
  // Safe where they are: syntax only at the start, quotes and '*' that still match the name.
  for (const char* good : {"x", "x-y", "x ~y", "x exclude: y", "a \"quoted\" word", "a*", "*a", "a, b", "a]"}) {
    INFO(good);
    CHECK(ctest_unsafe(good).empty());
  }
}

TEST_CASE("every test case's name is one ctest can pass to the test binary", "[support]") {
  std::vector<std::string> bad;
#if defined(ROCMDOC_CATCH3)
  for (const Catch::TestCaseInfo* info : Catch::getRegistryHub().getTestCaseRegistry().getAllInfos()) {
    const std::string name(info->name);
#else
  for (const auto& test : Catch::getRegistryHub().getTestCaseRegistry().getAllTests()) {
    const std::string& name = test.getTestCaseInfo().name;
#endif
    std::string why = ctest_unsafe(name);
    if (!why.empty()) bad.push_back(name + ": " + why);
  }
  INFO("names ctest cannot pass to the test binary: rename them");
  for (const auto& name : bad) UNSCOPED_INFO(name);
  CHECK(bad.empty());
}
