// amdgpu-not-loaded gives way (gives_way_to) only to problems whose own
// condition implies the module is not loaded. A GPU on vfio-pci beside a
// loaded amdgpu confirms gpu-bound-to-vfio, yet the text's "ROCk module is
// NOT loaded" is not its case: with amdgpu loaded, the message says nothing
// about the GPU vfio holds.
#include "catch.h"
#include "explain/explanation.h"
#include "explain/log_scanner.h"
#include "rules/knowledge.h"
#include "rules/rule_engine.h"
#include "knowledge_test_support.h"
#include "test_support.h"

using namespace rocmdoc;

TEST_CASE("a GPU on vfio-pci beside a loaded amdgpu does not take \"ROCk module is NOT loaded\"", "[explain][gives-way]") {
  Knowledge k = test::shipped_knowledge();
  const Problem* general = k.catalogue.find("amdgpu-not-loaded");
  REQUIRE(general);

  Json facts = test::facts_for_root(test::machine_root("ubuntu2404-rx7900xtx"));
  REQUIRE(facts["amdgpu"]["module"]["loaded"] == true);
  REQUIRE(facts["amdgpu"]["devices"].is_array());
  REQUIRE(!facts["amdgpu"]["devices"].empty());
  // A second AMD GPU, held by vfio-pci for a virtual machine.
  Json held = facts["amdgpu"]["devices"][0];
  held["address"] = "0000:0b:00.0";
  held["driver"] = "vfio-pci";
  facts["amdgpu"]["devices"].push_back(held);

  LogScanner scanner(k.catalogue.signatures, k.catalogue.origins);
  scanner.feed("ROCk module is NOT loaded, possibly no GPU devices\n");
  scanner.finish();
  Explanation e = explain(scanner.result(), facts, k);

  const ExplainedCause *not_loaded = nullptr, *vfio = nullptr;
  for (auto& c : e.causes) {
    if (c.cause == general) not_loaded = &c;
    if (c.cause->rule.id == "gpu-bound-to-vfio") vfio = &c;
  }
  REQUIRE(not_loaded);
  // The facts confirm the vfio problem on this machine (so giving way to it
  // would happen if the list named it) ...
  const Problem* on_vfio = k.catalogue.find("gpu-bound-to-vfio");
  REQUIRE(on_vfio);
  CHECK(judge_problem(*on_vfio, e.facts, k.functions).verdict == Verdict::fired);
  // ... but amdgpu is loaded: amdgpu-not-loaded is ruled out by that fact,
  // not handed to the vfio problem, which takes none of the message.
  CHECK(not_loaded->verdict == CauseVerdict::refuted);
  CHECK(not_loaded->ruled_out.find("gpu-bound-to-vfio") == std::string::npos);
  CHECK(not_loaded->ruled_out.find("case of") == std::string::npos);
  // Where the symptom lists it, it stays the symptom's guess.
  if (vfio) CHECK(vfio->symptom != nullptr);
}

namespace {

const ExplainedCause* cause_of(const Explanation& e, const std::string& id) {
  for (auto& c : e.causes)
    if (c.cause->rule.id == id) return &c;
  return nullptr;
}

}  // namespace

// give_way hands a general problem's message to a specific one the facts
// confirm, but not where the text itself rules the general one out
// (RuleOutcome::ruled_out_by_text): the message is then no one's case. On a
// machine whose amdgpu is blacklisted, "ROCk module is NOT loaded" alone is
// amdgpu-blacklisted's case; beside "ROCk module is loaded" (the driver
// works in the text's own run) amdgpu-not-loaded's when_in_text is false,
// and the blacklist takes nothing from it: it stays the guess of the
// symptom that lists it.
TEST_CASE("give_way leaves a problem the text itself rules out where it is", "[explain][gives-way]") {
  Knowledge k = test::shipped_knowledge();
  Json facts = test::facts_for_root(test::machine_root("desktop-amdgpu-not-loaded"));
  REQUIRE(facts["amdgpu"]["blacklisted"]["value"] == true);
  REQUIRE(facts["amdgpu"]["module"]["loaded"] == false);
  auto explain_text = [&](const std::string& text) {
    LogScanner scanner(k.catalogue.signatures, k.catalogue.origins);
    scanner.feed(text);
    scanner.finish();
    return explain(scanner.result(), facts, k);
  };

  // The message alone: the blacklist's case, which takes its evidence.
  Explanation handed = explain_text("ROCk module is NOT loaded, possibly no GPU devices\n");
  const ExplainedCause* general = cause_of(handed, "amdgpu-not-loaded");
  REQUIRE(general);
  CHECK_FALSE(general->ruled_out_by_text);
  CHECK(general->ruled_out.find("case of amdgpu-blacklisted") != std::string::npos);
  const ExplainedCause* blacklisted = cause_of(handed, "amdgpu-blacklisted");
  REQUIRE(blacklisted);
  CHECK(blacklisted->verdict == CauseVerdict::confirmed);
  CHECK(blacklisted->symptom == nullptr);  // a cause of the text's own, not a symptom's guess
  CHECK(blacklisted->text_score > 0);

  // The text's own run has the driver loaded: ruled out by the text, and
  // handed to no one.
  Explanation kept = explain_text("ROCk module is NOT loaded, possibly no GPU devices\nROCk module is loaded\n");
  general = cause_of(kept, "amdgpu-not-loaded");
  REQUIRE(general);
  CHECK(general->verdict == CauseVerdict::refuted);
  CHECK(general->ruled_out_by_text);
  CHECK(general->ruled_out.find("case of") == std::string::npos);
  // The blacklist stays what the text's symptom lists, a guess.
  blacklisted = cause_of(kept, "amdgpu-blacklisted");
  REQUIRE(blacklisted);
  CHECK(blacklisted->symptom != nullptr);
}
