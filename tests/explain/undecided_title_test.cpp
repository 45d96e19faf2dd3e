// An undecided problem's title must not say why it is undecided: where the
// title reads the reason a fact of its condition is unknown, explain shows
// the summary. Decided by the facts the title reads, not by its words.
#include <fstream>

#include "catch.h"
#include "explain/explanation.h"
#include "explain/log_scanner.h"
#include "rules/knowledge.h"
#include "rules/rule_engine.h"
#include "test_support.h"

using namespace rocmdoc;

namespace {

// A local problem whose title's own words are an unknown fact's reason
// ("permission denied"), while every fact it reads is known.
const char* kLocalRules = R"(signatures:
  - id: local-kfd-probe-message
    pattern: 'kfd probe said no'
    examples:
      match: ["kfd probe said no"]
      no_match: ["kfd probe said yes"]
problems:
  - id: local-kfd-denied
    area: access
    severity: error
    when: kfd.device_node.present == false
    signals:
      - {signature: local-kfd-probe-message, weight: 3}
    title: "/dev/kfd on {kernel.release}: permission denied"
    summary: "/dev/kfd is missing"
    why: "a test problem"
    fix:
      steps:
        - text: "load amdgpu"
    sources: [https://example.invalid/doc]
    examples:
      - name: absent
        facts: {kfd: {device_node: {present: false}}}
        expect: fire
)";

const ExplainedCause* cause(const Explanation& e, const std::string& id) {
  for (auto& c : e.causes)
    if (c.cause->rule.id == id) return &c;
  return nullptr;
}

Explanation explain_text(const Knowledge& k, const std::string& text, const Json& facts) {
  LogScanner scanner(k.catalogue.signatures, k.catalogue.origins);
  scanner.feed(text);
  scanner.finish();
  return explain(scanner.result(), facts, k);
}

}  // namespace

TEST_CASE("an undecided title gives way to its summary when it reads why a fact is unknown, not when its words match",
          "[explain][title]") {
  test::ScratchDir local;
  std::ofstream(local.path / "local.yaml") << kLocalRules;
  RuleSources sources{"", local.path.string()};
  sources.compile_patterns = true;
  Knowledge k = load_knowledge(sources);
  std::string errors;
  for (auto& error : k.errors) errors += error.str() + "\n";
  INFO(errors);
  REQUIRE(k.errors.empty());

  // The condition's fact is unknown for the very reason the title's words
  // say; the title reads only the kernel release, which is known.
  Json facts = {{"kernel", {{"release", "6.8.0-31-generic"}}},
                {"kfd", {{"device_node", {{"present", {{"unknown", "permission denied"}}}}}}}};
  Explanation e = explain_text(k, "kfd probe said no\n", facts);
  const ExplainedCause* c = cause(e, "local-kfd-denied");
  REQUIRE(c);
  REQUIRE(c->verdict == CauseVerdict::undecided);
  CHECK(c->reason == "kfd.device_node.present: permission denied");
  CHECK(c->finding.title == "/dev/kfd on 6.8.0-31-generic: permission denied");

  // pcie-atomics-not-routed's title reads firmware.gpus[].atomics.reason,
  // which the probe sets to why routed_to_root is unknown: the summary.
  const std::string unreadable = "config space past 64 bytes is not readable (run as root)";
  Json gpu = {{"address", "0000:03:00.0"},
              {"atomics", {{"routed_to_root", {{"unknown", unreadable}}}, {"reason", unreadable}}}};
  Json machine = {{"platform", {{"kind", "bare_metal"}}},
                  {"kernel_log", {{"signatures", Json::array()}}},
                  {"firmware", {{"gpus", Json::array({gpu})}}}};
  Explanation atomics = explain_text(k, "amdgpu 0000:03:00.0: amdgpu: PCIE atomic ops is not supported\n", machine);
  const ExplainedCause* a = cause(atomics, "pcie-atomics-not-routed");
  REQUIRE(a);
  REQUIRE(a->verdict == CauseVerdict::undecided);
  CHECK(a->finding.title == a->cause->rule.summary);
  // Known, the reason is the title's.
  machine["firmware"]["gpus"][0]["atomics"] = {
      {"routed_to_root", false}, {"reason", "0000:00:1c.4 (root_port) cannot complete 32- and 64-bit AtomicOps"}};
  CHECK(describe_rule(a->cause->rule, machine, k.functions).title.find("cannot complete") != std::string::npos);
}
