// A problem that exists only when the user set a variable (`needs_set`: a
// device mask, LD_LIBRARY_PATH) ranks after the open causes that need
// nothing set while neither the text nor the facts show the variable set;
// it stays undecided, with the command that decides it. Shown by the text or
// set in the facts, it ranks as any other problem (issue 13).
#include <fstream>

#include "catch.h"
#include "base/fact.h"
#include "test_support.h"

using namespace rocmdoc;
using test::run_rocmdoc;

namespace {

Json explain_json(const std::vector<std::string>& args, const std::string& text) {
  std::vector<std::string> argv = {"explain", "--json"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back(text);
  auto r = run_rocmdoc(argv);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return Json::parse(r.out);
}

// The rank of `id` among the causes (SIZE_MAX when absent) and the cause itself.
size_t rank_of(const Json& j, const std::string& id) {
  for (size_t i = 0; i < j["causes"].size(); ++i)
    if (j["causes"][i]["id"] == id) return i;
  return SIZE_MAX;
}

size_t open_causes(const Json& j) {
  size_t n = 0;
  for (auto& c : j["causes"]) n += c["verdict"] != "refuted";
  return n;
}

const char* kNoGpu = "torch.cuda.is_available() returns False";
const char* kMask = "hip-visible-devices-hides-all-gpus";

}  // namespace

TEST_CASE("without the variable in the text, a problem that needs it set ranks after every open cause",
          "[explain][needs-set]") {
  Json j = explain_json({"--no-probe"}, kNoGpu);
  size_t at = rank_of(j, kMask);
  REQUIRE(at != SIZE_MAX);
  const Json& c = j["causes"][at];
  // Demoted, not ruled out: undecided, after each cause that needs nothing set.
  CHECK(c["verdict"] == "undecided");
  CHECK(c["not_shown_set"] == Json::array({"HIP_VISIBLE_DEVICES"}));
  CHECK(c["reason"].get<std::string>().find("HIP_VISIBLE_DEVICES") != std::string::npos);
  CHECK(c["confirm"]["argv"] == Json::array({"printenv", "HIP_VISIBLE_DEVICES"}));
  for (size_t i = 0; i < at; ++i) CHECK_FALSE(j["causes"][i].contains("not_shown_set"));
  for (size_t i = at; i < open_causes(j); ++i) CHECK(j["causes"][i].contains("not_shown_set"));
  // In the symptom's list it comes before the runtime's other masks and the
  // group problems; demoted, it is after all of them.
  size_t relogin = rank_of(j, "group-needs-relogin");
  REQUIRE(relogin != SIZE_MAX);
  CHECK(relogin < at);

  // The text shows the one command that decides it on the candidate's line.
  auto text = run_rocmdoc({"explain", "--no-probe", "-v", kNoGpu});
  CHECK(text.out.find("$ printenv HIP_VISIBLE_DEVICES") != std::string::npos);
}

TEST_CASE("the variable set in the text puts the problem back among the candidates", "[explain][needs-set]") {
  Json without = explain_json({"--no-probe"}, kNoGpu);
  Json with = explain_json({"--no-probe"}, std::string("export HIP_VISIBLE_DEVICES=1\n") + kNoGpu);
  size_t before = rank_of(without, kMask), after = rank_of(with, kMask);
  REQUIRE(after != SIZE_MAX);
  CHECK(after < before);
  // Its own signal (the assignment, weight 2) names it first among the open causes.
  CHECK(after == 0);
  CHECK(with["causes"][after]["verdict"] == "undecided");
  CHECK_FALSE(with["causes"][after].contains("not_shown_set"));
}

TEST_CASE("with machine facts, the facts decide as before", "[explain][needs-set]") {
  test::ScratchDir dir;
  auto saved = run_rocmdoc({"facts", "--root", test::machine_root("ubuntu2404-rx7900xtx")});
  REQUIRE(saved.exit_code == 0);
  Json facts = Json::parse(saved.out);
  // One GPU and a mask that names the second: every GPU hidden.
  facts["env"]["HIP_VISIBLE_DEVICES"] = "1";
  std::string masked = (dir.path / "masked.json").string();
  std::ofstream(masked) << facts.dump();
  Json set = explain_json({"--facts", masked}, kNoGpu);
  REQUIRE_FALSE(set["causes"].empty());
  CHECK(set["causes"][0]["id"] == kMask);
  CHECK(set["causes"][0]["verdict"] == "confirmed");
  CHECK_FALSE(set["causes"][0].contains("not_shown_set"));

  // Not set on the machine: ruled out by the facts, not merely demoted.
  facts["env"]["HIP_VISIBLE_DEVICES"] = nullptr;
  std::string clear = (dir.path / "clear.json").string();
  std::ofstream(clear) << facts.dump();
  Json unset = explain_json({"--facts", clear}, kNoGpu);
  size_t at = rank_of(unset, kMask);
  REQUIRE(at != SIZE_MAX);
  CHECK(unset["causes"][at]["verdict"] == "refuted");
  CHECK_FALSE(unset["causes"][at].contains("not_shown_set"));
}

TEST_CASE("LD_LIBRARY_PATH into /opt/rocm in the text shows what the loader-path problems need",
          "[explain][needs-set]") {
  const char* crash = "Segmentation fault (core dumped)";
  Json without = explain_json({"--no-probe"}, crash);
  size_t at = rank_of(without, "ld-library-path-shadows-torch-rocm");
  REQUIRE(at != SIZE_MAX);
  CHECK(without["causes"][at]["not_shown_set"] == Json::array({"LD_LIBRARY_PATH"}));
  Json with = explain_json({"--no-probe"}, std::string("export LD_LIBRARY_PATH=/opt/rocm/lib\n") + crash);
  size_t shown = rank_of(with, "ld-library-path-shadows-torch-rocm");
  REQUIRE(shown != SIZE_MAX);
  CHECK_FALSE(with["causes"][shown].contains("not_shown_set"));
  CHECK(shown < at);
}
