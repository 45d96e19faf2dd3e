// rocmdoc rules info: the matrix's as-of date, the newest releases and the
// counts, as text and JSON; and the matrix's releases are each dated and
// sourced, or say plainly what is unconfirmed.
#include <sstream>

#include "base/version.h"
#include "catch.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "rules/knowledge.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {
// YYYY-MM-DD in this century, month 01-12, day 01-31. By hand: std::regex
// draws -Wmaybe-uninitialized from GCC 12 in the sanitizer build.
bool is_iso_date(const std::string& d) {
  auto digits = [&](size_t from, size_t n) {
    for (size_t i = from; i < from + n; ++i)
      if (i >= d.size() || d[i] < '0' || d[i] > '9') return false;
    return true;
  };
  if (d.size() != 10 || d[4] != '-' || d[7] != '-' || !digits(0, 4) || !digits(5, 2) || !digits(8, 2)) return false;
  int year = std::stoi(d.substr(0, 4)), month = std::stoi(d.substr(5, 2)), day = std::stoi(d.substr(8, 2));
  return year >= 2000 && year < 2100 && month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

Knowledge matrix_only() {
  RuleSources sources{"", ""};
  sources.catalogue = false;
  Knowledge k = load_knowledge(sources);
  REQUIRE(k.errors.empty());
  return k;
}
}  // namespace

TEST_CASE("every release in the matrix has a source and a date, or says the date is unconfirmed", "[matrix][rules_info]") {
  Knowledge k = matrix_only();
  REQUIRE(!k.matrix->releases().empty());
  for (auto& r : k.matrix->releases()) {
    INFO("ROCm " << r.version);
    CHECK(!r.sources.empty());
    if (r.date) {
      CHECK(is_iso_date(std::string(*r.date)));
    } else {
      // The files' way of saying a fact is missing: an `unconfirmed` text
      // that names it ("release date ... not found").
      REQUIRE(r.unconfirmed);
      CHECK(r.unconfirmed->find("date") != std::string_view::npos);
    }
    // rules/matrix/README.md: low confidence carries `unconfirmed: "<what exactly>"`.
    if (r.confidence == "low") CHECK((r.unconfirmed && !r.unconfirmed->empty()));
  }
}

TEST_CASE("rules info prints the as-of date, the newest releases and the counts", "[cli][rules_info]") {
  Knowledge k = matrix_only();
  std::ostringstream out, err;
  REQUIRE(run_rules_info("", false, out, err) == kExitOk);
  std::string text = out.str();
  INFO(text << err.str());
  CHECK(text.find("matrix as of " + k.matrix->as_of() + "\n") != std::string::npos);
  CHECK(text.find("newest ROCm release: ") != std::string::npos);
  CHECK(text.find("newest PyTorch release: ") != std::string::npos);
  CHECK(text.find(std::to_string(k.matrix->releases().size()) + " releases, " +
                  std::to_string(k.matrix->devices().size()) + " GPU devices, " +
                  std::to_string(k.matrix->gfx_targets().size()) + " gfx targets") != std::string::npos);
  CHECK(text.find("catalogue: ") != std::string::npos);
  CHECK(text.find("install recipes: ") != std::string::npos);

  std::ostringstream json_out;
  REQUIRE(run_rules_info("", true, json_out, err) == kExitOk);
  Json info = Json::parse(json_out.str());
  CHECK(info["matrix_as_of"] == k.matrix->as_of());
  CHECK(info["counts"]["releases"] == k.matrix->releases().size());
  CHECK(info["counts"]["gfx_targets"] == k.matrix->gfx_targets().size());
  CHECK(info["counts"]["problems"].get<size_t>() > 0);
  CHECK(info["counts"]["install_recipes"].get<size_t>() > 0);
  // The newest production release is the greatest version of that line.
  const Json& production = info["newest_rocm_by_line"]["production"];
  REQUIRE(production.is_object());
  for (auto& r : k.matrix->releases())
    if (r.line == "production") CHECK(compare_versions(r.version, production["version"].get<std::string>()) <= 0);
  CHECK(info["newest_torch"]["torch"].is_string());
}

TEST_CASE("rules info --help explains it and a broken rules directory is exit 2", "[cli][rules_info]") {
  auto help = run_rocmdoc({"rules", "info", "--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("--json") != std::string::npos);
  CHECK(help.out.find("as-of") != std::string::npos);
  auto bad = run_rocmdoc({"rules", "info", "/nonexistent-rocmdoc-rules"});
  CHECK(bad.exit_code == 2);
  CHECK(!bad.err.empty());
}
