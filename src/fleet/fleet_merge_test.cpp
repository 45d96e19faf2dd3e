#include "fleet/fleet_merge.h"

#include "catch.h"
#include "fleet/report_age.h"

using namespace rocmdoc;

namespace {

const long long kNow = *parse_utc_time("2026-12-01T20:00:00Z");

CheckReportFields node(const std::string& host, std::vector<ReportFinding> findings = {},
                       std::vector<ReportGpu> gpus = {{"Instinct MI300X", "gfx942"}},
                       const std::string& time = "2026-12-01T19:50:00Z") {
  CheckReportFields r;
  r.hostname = host;
  r.collected_at = time;
  r.rocm = "6.4.1";
  r.kernel = "6.8.0-45-generic";
  r.findings = std::move(findings);
  r.gpus = std::move(gpus);
  return r;
}

const ReportFinding kNotLoaded{"amdgpu-not-loaded", "error", "amdgpu is not loaded"};
const ReportFinding kRender{"user-not-in-render", "warning", "not in render"};
const ReportFinding kInfo{"rocm-older-than-target", "info", "older"};

}  // namespace

TEST_CASE("nodes are sorted into healthy, warnings and errors, each problem with its nodes", "[fleet][merge]") {
  FleetMerge m({kNow, {}, {}, false});
  for (int i = 1; i <= 12; ++i) {
    std::vector<ReportFinding> f;
    if (i > 8) f.push_back(kNotLoaded);
    if (i % 2 == 0) f.push_back(kRender);
    f.push_back(kInfo);
    m.add("r/gpu" + std::to_string(i) + ".json", node("gpu" + std::to_string(i), f));
  }
  FleetSummary s = m.finish();
  CHECK(s.nodes == 12);
  CHECK(s.files == 12);
  CHECK(s.healthy == std::vector<std::string>{"gpu1", "gpu3", "gpu5", "gpu7"});  // infos are not problems
  CHECK(s.with_warnings == std::vector<std::string>{"gpu2", "gpu4", "gpu6", "gpu8"});
  CHECK(s.with_errors == std::vector<std::string>{"gpu9", "gpu10", "gpu11", "gpu12"});
  CHECK(s.any_error());
  REQUIRE(s.problems.size() == 3);
  CHECK(s.problems[0].id == "amdgpu-not-loaded");  // errors first
  CHECK(s.problems[0].nodes == std::vector<std::string>{"gpu9", "gpu10", "gpu11", "gpu12"});
  CHECK(s.problems[1].id == "user-not-in-render");
  CHECK(s.problems[1].nodes.size() == 6);
  CHECK(s.problems[2].id == "rocm-older-than-target");
  CHECK(s.problems[2].nodes.size() == 12);
  CHECK(s.problems[2].title == "older");
}

TEST_CASE("nodes are grouped by GPU model and gfx, and by ROCm and kernel", "[fleet][merge]") {
  FleetMerge m({kNow, {}, {}, false});
  m.add("a.json", node("a1", {}, {{"Instinct MI300X", "gfx942"}, {"Instinct MI300X", "gfx942"}}));
  m.add("b.json", node("a2", {}, {{"Instinct MI300X", "gfx942"}, {"Radeon RX 7900 XTX", "gfx1100"}}));
  auto old_stack = node("a3", {}, {{"Radeon RX 7900 XTX", "gfx1100"}});
  old_stack.rocm = "";
  old_stack.kernel = "5.15.0-119-generic";
  m.add("c.json", old_stack);
  m.add("d.json", node("login", {}, {}));
  FleetSummary s = m.finish();
  REQUIRE(s.gpu_models.size() == 3);
  CHECK(s.gpu_models[0].first == "Instinct MI300X");  // 2 nodes, then by name
  CHECK(s.gpu_models[0].second == "gfx942");
  CHECK(s.gpu_models[0].gpus == 3);
  CHECK(s.gpu_models[0].nodes == std::vector<std::string>{"a1", "a2"});
  CHECK(s.gpu_models[1].first == "Radeon RX 7900 XTX");
  CHECK(s.gpu_models[1].nodes == std::vector<std::string>{"a2", "a3"});
  CHECK(s.gpu_models[2].first.empty());  // no GPU at all
  CHECK(s.gpu_models[2].gpus == 0);
  CHECK(s.gpu_models[2].nodes == std::vector<std::string>{"login"});
  REQUIRE(s.stacks.size() == 2);
  CHECK(s.stacks[0].first == "6.4.1");
  CHECK(s.stacks[0].nodes == std::vector<std::string>{"a1", "a2", "login"});
  CHECK(s.stacks[1].first.empty());
  CHECK(s.stacks[1].second == "5.15.0-119-generic");
}

TEST_CASE("old, undated, missing, unexpected, unreadable and repeated reports are each named", "[fleet][merge]") {
  FleetOptions o{kNow, 3600, {"n1", "n2", "n3", "n4"}, false};
  FleetMerge m(o);
  m.add("x/n1.json", node("n1", {}, {}, "2026-12-01T19:30:00Z"));            // 30m: fresh
  m.add("x/n2.json", node("n2", {}, {}, "2026-11-30T17:55:00Z"));            // 1d 2h: old
  m.add("x/n2-new.json", node("n2", {kRender}, {}, "2026-12-01T19:59:00Z"));  // replaces it
  m.add("x/extra.json", node("", {}, {}, ""));                              // no host name, no time
  m.add_unreadable("x/broken.json", "not JSON: byte 5: expected a value");
  FleetSummary s = m.finish();
  CHECK(s.files == 5);
  CHECK(s.nodes == 3);
  CHECK(s.with_warnings == std::vector<std::string>{"n2"});  // the newer report counts
  CHECK(s.missing == std::vector<std::string>{"n3", "n4"});
  CHECK(s.unexpected == std::vector<std::string>{"extra"});  // named by its file
  REQUIRE(s.old.size() == 1);
  CHECK(s.old[0].subject == "extra");
  CHECK(s.old[0].reason == "its report has no readable time (facts.source.collected_at)");
  REQUIRE(s.unreadable.size() == 1);
  CHECK(s.unreadable[0].subject == "x/broken.json");
  REQUIRE(s.superseded.size() == 1);
  CHECK(s.superseded[0].subject == "x/n2.json");
  CHECK(s.superseded[0].reason == "an older report of n2 than x/n2-new.json; not counted");

  FleetMerge late(o);
  late.add("y/n2.json", node("n2", {}, {}, "2026-11-30T17:55:00Z"));
  FleetSummary t = late.finish();
  REQUIRE(t.old.size() == 1);
  CHECK(t.old[0].reason == "1d 2h old (over --max-age 1h)");
}

TEST_CASE("redaction names nodes node0001... in natural order, and files report-N", "[fleet][merge]") {
  FleetMerge m({kNow, {}, {"gpu10", "gpu2", "gpu1"}, true});
  m.add("/reports/gpu10.json", node("gpu10", {kNotLoaded}));
  m.add("/reports/gpu2.json", node("gpu2"));
  m.add_unreadable("/reports/gpu3.json", "not JSON");
  FleetSummary s = m.finish();
  CHECK(s.with_errors == std::vector<std::string>{"node0003"});
  CHECK(s.healthy == std::vector<std::string>{"node0002"});
  CHECK(s.missing == std::vector<std::string>{"node0001"});
  CHECK(s.problems[0].nodes == std::vector<std::string>{"node0003"});
  CHECK(s.unreadable[0].subject == "report-1");
}
