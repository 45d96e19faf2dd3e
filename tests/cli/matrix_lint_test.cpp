// rocmdoc rules lint over a copy of rules/matrix with one mistake per file:
// each is reported at its file:line:column, and lint exits 2.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "catch.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;
namespace fs = std::filesystem;

namespace {
// dir/matrix/<file> with the first `from` replaced by `to`; the 1-based
// line and column where `to` now starts.
std::pair<int, int> edit_matrix(const fs::path& dir, const std::string& file, const std::string& from, const std::string& to) {
  std::ifstream in(source_path("rules/matrix/" + file));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  std::ofstream(dir / "matrix" / file) << text;
  int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  return {line, static_cast<int>(at - text.rfind('\n', at))};
}
}  // namespace

TEST_CASE("rules lint reports a misspelt key, a wrong type and a missing field in the matrix where they are", "[cli][rules]") {
  ScratchDir scratch;
  fs::path dir = scratch.path / "rules";
  fs::create_directories(dir);
  fs::copy(source_path("rules/matrix"), dir / "matrix");
  auto typo = edit_matrix(dir, "gpus.yaml", "\n  asic: ", "\n  asci: ");
  auto type = edit_matrix(dir, "hsa-override.yaml", "outcome: works\n", "outcome: [works]\n");
  edit_matrix(dir, "pytorch.yaml", "\n  channel: release\n", "\n");
  auto lint = run_rocmdoc({"rules", "lint", dir.string()});
  INFO(lint.err);
  CHECK(lint.exit_code == 2);
  auto has = [&](const std::string& where, const std::string& what) {
    return lint.err.find("/matrix/" + where + ": " + what) != std::string::npos;
  };
  // "\n  asci" starts a line early; the key is at column 3 of the next line.
  CHECK(has("gpus.yaml:" + std::to_string(typo.first + 1) + ":3", "unknown key 'asci' (allowed: device_id, asic,"));
  CHECK(has("hsa-override.yaml:" + std::to_string(type.first) + ":" + std::to_string(type.second + 9),
            "'outcome' must be text"));
  // The wheel whose channel went missing: the error is at its mapping.
  CHECK(lint.err.find("/matrix/pytorch.yaml:") != std::string::npos);
  CHECK(lint.err.find(": missing 'channel'") != std::string::npos);
}

TEST_CASE("rules lint warns about a recipe release the matrix does not list, and still passes", "[cli][rules]") {
  ScratchDir scratch;
  fs::path dir = scratch.path / "rules";
  fs::copy(source_path("rules"), dir, fs::copy_options::recursive);
  // The matrix no longer knows 7.2.4, which the recipes install.
  std::ifstream in(dir / "matrix/rocm-releases.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  auto at = text.find("- version: \"7.2.4\"");
  REQUIRE(at != std::string::npos);
  text.replace(at, std::string("- version: \"7.2.4\"").size(), "- version: \"7.2.40\"");
  std::ofstream(dir / "matrix/rocm-releases.yaml") << text;
  auto lint = run_rocmdoc({"rules", "lint", dir.string()});
  INFO(lint.err);
  CHECK(lint.exit_code == 0);
  CHECK(lint.err.find("/install/releases.yaml:") != std::string::npos);
  CHECK(lint.err.find(": warning: release 7.2.4 installs on ubuntu 24.04, but ROCm 7.2.4 is not in the matrix") !=
        std::string::npos);
}

TEST_CASE("rules lint reports a distribution row limited to no known GPU family where it is", "[cli][rules]") {
  ScratchDir scratch;
  fs::path dir = scratch.path / "rules";
  fs::create_directories(dir);
  fs::copy(source_path("rules/matrix"), dir / "matrix");
  auto bad = edit_matrix(dir, "rocm-releases.yaml", "  - id: ubuntu\n    version: \"24.04\"\n",
                         "  - id: ubuntu\n    limited_to: {families: [cdna]}\n    version: \"24.04\"\n");
  auto lint = run_rocmdoc({"rules", "lint", dir.string()});
  INFO(lint.err);
  CHECK(lint.exit_code == 2);
  // On the line after the row's first, at the families list (column 28).
  CHECK(lint.err.find("/matrix/rocm-releases.yaml:" + std::to_string(bad.first + 1) + ":28: 'families' is one of instinct, "
                      "radeon, apu (not 'cdna')") != std::string::npos);
  auto check = run_rocmdoc({"check", "--rules", dir.string(), "--root", source_path("tests/machines/rocky96-amd-rocm/root")});
  CHECK(check.exit_code == 2);
  CHECK(check.err.find("'families' is one of instinct, radeon, apu (not 'cdna')") != std::string::npos);
}
