#include "catch.h"
#include "facts/facts_schema.h"
#include "rules/kernel_log_signatures.h"
#include "rules/knowledge.h"
#include "rules/rule_loader.h"

using namespace rocmdoc;

namespace {

Signature signature(const std::string& id, const std::string& pattern, bool scan) {
  Signature s;
  s.id = id;
  s.pattern = pattern;
  s.scan_kernel_log = scan;
  return s;
}

const std::vector<Signature>& catalogue() {
  static const std::vector<Signature> s = {
      signature("amdgpu-ring-timeout", R"(ring [a-z_0-9.]+ timeout, signaled seq=)", true),
      signature("amdgpu-gpu-reset", "GPU reset begin!", true),
      // Not opted in: check never matches (nor compiles) it.
      signature("hip-no-binary-for-gpu", "hipErrorNoBinaryForGpu", false),
  };
  return s;
}

Json facts_with_lines(const Json& lines) { return {{"kernel_log", {{"readable", true}, {"lines", lines}}}}; }

}  // namespace

TEST_CASE("kernel-log signatures: only the opted-in ones, each with its first lines and a count",
          "[rules][kernel_log]") {
  KernelLogSignatures k(catalogue());
  REQUIRE(k.error().empty());
  CHECK(k.ids() == std::vector<std::string>{"amdgpu-ring-timeout", "amdgpu-gpu-reset"});

  Json lines = Json::array();
  lines.push_back("[    4.10] amdgpu 0000:03:00.0: amdgpu: SMU is initialized successfully!");
  for (int i = 0; i < 7; ++i)
    lines.push_back("[ 830" + std::to_string(i) + ".5] [drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx_0.0.0 timeout, signaled seq=" +
                    std::to_string(100 + i) + ", emitted seq=" + std::to_string(102 + i));
  lines.push_back("[ 8310.0] amdgpu 0000:03:00.0: amdgpu: GPU reset begin!");
  lines.push_back("hipErrorNoBinaryForGpu in a kernel log would be odd, and is not looked for");
  Json facts = facts_with_lines(lines);
  k.add_facts(facts);

  const Json& log = facts["kernel_log"];
  CHECK(log["matched"] == Json::array({"amdgpu-ring-timeout", "amdgpu-gpu-reset"}));
  REQUIRE(log["signatures"].size() == 2);
  const Json& ring = log["signatures"][0];
  CHECK(ring["id"] == "amdgpu-ring-timeout");
  CHECK(ring["count"] == 7);
  REQUIRE(ring["lines"].size() == KernelLogSignatures::kEvidenceLines);  // the first five of seven
  CHECK(ring["lines"][0] == lines[1]);
  CHECK(ring["lines"][4] == lines[5]);
  CHECK(log["signatures"][1] == Json({{"id", "amdgpu-gpu-reset"}, {"lines", {lines[8]}}, {"count", 1}}));
  // The probe's own fields are left as they were.
  CHECK(log["lines"] == lines);
  CHECK(log["readable"] == true);
}

TEST_CASE("kernel-log signatures: a clean log, an unknown log and damaged facts", "[rules][kernel_log][malformed]") {
  KernelLogSignatures k(catalogue());

  Json clean = facts_with_lines({"[    4.10] amdgpu 0000:03:00.0: amdgpu: SMU is initialized successfully!"});
  k.add_facts(clean);
  CHECK(clean["kernel_log"]["matched"] == Json::array());
  CHECK(clean["kernel_log"]["signatures"] == Json::array());

  // The whole section unknown: left so, and its paths read with its reason.
  Json refused = {{"kernel_log", unknown("dmesg: Operation not permitted")}};
  k.add_facts(refused);
  CHECK(refused["kernel_log"] == unknown("dmesg: Operation not permitted"));

  // The lines alone unknown: both derived fields carry their reason.
  Json lines_unknown = facts_with_lines(unknown("dmesg: timed out after 5 s"));
  k.add_facts(lines_unknown);
  CHECK(lines_unknown["kernel_log"]["matched"] == unknown("dmesg: timed out after 5 s"));
  CHECK(lines_unknown["kernel_log"]["signatures"] == unknown("dmesg: timed out after 5 s"));

  // A saved facts file someone edited: not a list, or not strings in it.
  Json not_a_list = facts_with_lines("GPU reset begin!");
  k.add_facts(not_a_list);
  CHECK(is_unknown(not_a_list["kernel_log"]["matched"]));
  Json odd_items = facts_with_lines({42, nullptr, Json::object(), "amdgpu: GPU reset begin!"});
  k.add_facts(odd_items);
  CHECK(odd_items["kernel_log"]["matched"] == Json::array({"amdgpu-gpu-reset"}));

  // No kernel_log section at all (explain --no-probe): nothing is invented.
  Json none = Json::object();
  k.add_facts(none);
  CHECK(none == Json::object());
  Json not_an_object = Json::array();
  k.add_facts(not_an_object);
  CHECK(not_an_object == Json::array());
}

TEST_CASE("kernel-log signatures: a pattern that does not compile is an error naming it", "[rules][kernel_log]") {
  KernelLogSignatures k({signature("broken", "ring (timeout", true)});
  CHECK(k.error().rfind("broken: ", 0) == 0);
  CHECK(k.ids().empty());
  Json facts = facts_with_lines({"ring (timeout"});
  k.add_facts(facts);  // nothing half-compiled is matched
  CHECK(facts["kernel_log"]["matched"] == Json::array());
}

TEST_CASE("check reads the shipped signatures over the kernel log and fires on what they find", "[rules][kernel_log]") {
  Knowledge knowledge = load_knowledge({"", ""});
  REQUIRE(knowledge.errors.empty());
  REQUIRE(knowledge.kernel_log);
  for (const char* id : {"amdgpu-gpu-reset", "amdgpu-mes-timeout", "amdgpu-ring-timeout", "amdgpu-vm-page-fault",
                         "amdgpu-firmware-load-failed", "amdgpu-required-firmware-failed", "kfd-pci-rejects-atomics",
                         "amdgpu-cs-ioctl-failed"}) {
    INFO(id);
    auto& ids = knowledge.kernel_log->ids();
    CHECK(std::find(ids.begin(), ids.end(), id) != ids.end());
  }
  Json facts = {
      {"platform", {{"kind", "bare_metal"}}},
      {"kernel", {{"cmdline", {{"gpu_params", {"amdgpu.cwsr_enable=0"}}}}}},
      {"kernel_log",
       {{"readable", true},
        {"lines",
         {"[ 8312.52] amdgpu 0000:0a:00.0: amdgpu: MES failed to respond to msg=REMOVE_QUEUE",
          "[ 8314.01] amdgpu 0000:0a:00.0: amdgpu: GPU reset begin!",
          "[ 8320.77] [drm:amdgpu_cs_ioctl [amdgpu]] *ERROR* Failed to initialize parser -125!"}}}}};
  CheckReport report = run_check(facts, knowledge, std::nullopt);
  auto outcome = [&](const std::string& id) -> const RuleOutcome& {
    for (auto& o : report.outcomes)
      if (o.rule->id == id) return o;
    FAIL("no outcome for " << id);
    return report.outcomes.front();
  };
  const RuleOutcome& hang = outcome("gpu-hang-mes-timeout");
  REQUIRE(hang.verdict == Verdict::fired);
  REQUIRE(hang.findings.size() == 1);
  // The evidence is the matched signatures (in catalogue order) with their lines.
  const Json& evidence = hang.findings[0].evidence["kernel_log.signatures"];
  Json mes;
  for (auto& s : evidence)
    if (s["id"] == "amdgpu-mes-timeout") mes = s;
  CHECK(mes == Json({{"id", "amdgpu-mes-timeout"},
                     {"lines", {"[ 8312.52] amdgpu 0000:0a:00.0: amdgpu: MES failed to respond to msg=REMOVE_QUEUE"}},
                     {"count", 1}}));
  CHECK(evidence.size() == 3);  // the reset and the refused submission too
  // The workaround is already on the command line: the fix says the hang
  // happened with it, and does not advise it again.
  bool names_cwsr = false, advises_cwsr = false;
  for (auto& step : hang.findings[0].steps) {
    if (step.text.find("amdgpu.cwsr_enable=0 is already on this boot's command line") == 0) names_cwsr = true;
    if (step.text.find("are often stopped by amdgpu.cwsr_enable=0") != std::string::npos) advises_cwsr = true;
  }
  CHECK(names_cwsr);
  CHECK_FALSE(advises_cwsr);
  CHECK(outcome("amdgpu-command-submission-failed").verdict == Verdict::fired);
  CHECK(outcome("gpu-page-faults-logged").verdict == Verdict::passed);

  // The same machine where nobody could read the kernel log: nothing fires.
  Json refused = facts;
  refused["kernel_log"] = unknown("dmesg: Operation not permitted");
  CheckReport unread = run_check(refused, knowledge, std::nullopt);
  for (auto& o : unread.outcomes)
    if (o.rule->id == "gpu-hang-mes-timeout" || o.rule->id == "amdgpu-command-submission-failed" ||
        o.rule->id == "gpu-page-faults-logged") {
      INFO(o.rule->id);
      CHECK(o.verdict == Verdict::unknown);
      CHECK(o.reason.find("dmesg: Operation not permitted") != std::string::npos);
    }
}
