// rocmdoc fleet merge on reports that check --json wrote for the fixture
// machines, copied to stand for a small cluster.
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "catch.h"
#include "base/fact.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;
namespace fs = std::filesystem;

namespace {

// One check --json report per fixture machine, made once per test run.
const Json& report_of(const std::string& machine) {
  static std::map<std::string, Json> reports;
  auto it = reports.find(machine);
  if (it != reports.end()) return it->second;
  auto r = run_rocmdoc({"check", "--json", "--root", machine_root(machine)});
  INFO(r.err);
  REQUIRE((r.exit_code == 0 || r.exit_code == 1));
  return reports[machine] = Json::parse(r.out);
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

bool has(const std::string& out, const std::string& line) { return out.find(line) != std::string::npos; }

// gpu001-004: MI300X containers (healthy, 2 GPUs each), gpu002's report a
// year old; gpu005: RX 7900 XTX (healthy); gpu006: PCIe warnings; gpu007
// and a file named other.json whose facts name it gpu008: not in the render
// group (errors); gpu009: a report cut short; gpu010: no report.
fs::path make_cluster(const fs::path& dir) {
  for (int i = 1; i <= 4; ++i) {
    Json r = report_of("mi300x-container");
    if (i == 2) r["facts"]["source"]["collected_at"] = "2025-11-30T12:00:00Z";
    write(dir / fmt::format("gpu{:03}.json", i), r.dump());
  }
  write(dir / "gpu005.json", report_of("ubuntu2404-rx7900xtx").dump(2));
  write(dir / "gpu006.json", report_of("chipset-bridge-no-atomics").dump());
  write(dir / "gpu007.json", report_of("user-not-in-render").dump());
  Json named = report_of("user-not-in-render");
  named["facts"]["host"]["hostname"] = "gpu008";
  write(dir / "other.json", named.dump());
  std::string cut = report_of("ubuntu2404-rx7900xtx").dump();
  write(dir / "gpu009.json", cut.substr(0, cut.size() / 2));
  write(dir / "notes.txt", "not a report: not read, it does not end in .json\n");
  return dir;
}

}  // namespace

TEST_CASE("fleet merge summarises a cluster's reports: nodes, problems, GPUs, stacks and missing ones",
          "[cli][fleet]") {
  ScratchDir scratch;
  fs::path dir = make_cluster(scratch.path);
  auto r = run_rocmdoc({"fleet", "merge", "--expect", "gpu[001-010]", "--max-age", "1d", dir.string()});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);  // gpu007 and gpu008 have errors
  CHECK(r.out.find("\033[") == std::string::npos);
  CHECK(has(r.out, "rocmdoc fleet: 8 nodes read from 9 reports, 1 unreadable, 2 missing\n"));
  CHECK(has(r.out, "[✓] 5 healthy: gpu[001-005]\n"));
  CHECK(has(r.out, "[!] 1 with warnings: gpu006\n"));
  CHECK(has(r.out, "[✗] 2 with errors: gpu[007-008]\n"));
  CHECK(has(r.out, "  ✗ device-node-not-accessible (error) on 2 nodes: gpu[007-008]\n"));
  CHECK(has(r.out, "  ! pcie-atomics-not-routed (warning) on 1 node: gpu006\n"));
  CHECK(has(r.out, "  i rocm-older-than-target (info) on 7 nodes: gpu[001-005,007-008]\n"));
  CHECK(has(r.out, "  • Aqua Vanjaram [Instinct MI300X] (gfx942), 8 on 4 nodes: gpu[001-004]\n"));
  CHECK(has(r.out, "  • Navi 31 [Radeon RX 7900 XT/7900 XTX] (gfx1100), 3 on 3 nodes: gpu[005,007-008]\n"));
  CHECK(has(r.out, "  • ROCm 6.4.1, kernel 5.15.0-119-generic: 4 nodes: gpu[001-004]\n"));
  CHECK(has(r.out, "  • ROCm 6.4.1, kernel 6.8.0-45-generic: 4 nodes: gpu[005-008]\n"));
  CHECK(has(r.out, "  ✗ missing (2): gpu[009-010]\n"));
  CHECK(has(r.out, "  ✗ unreadable: " + (dir / "gpu009.json").string() + ": not JSON: byte "));
  CHECK(has(r.out, "  ! old: gpu002: "));
  CHECK(has(r.out, " old (over --max-age 1d)\n"));
  CHECK_FALSE(has(r.out, "old: gpu001"));

  auto j = run_rocmdoc({"fleet", "merge", "--json", "--expect", "gpu[001-010]", dir.string()});
  CHECK(j.exit_code == 1);
  Json doc = Json::parse(j.out);
  CHECK(doc["schema"] == 1);
  CHECK(doc["summary"]["nodes"] == 8);
  CHECK(doc["summary"]["reports"] == 9);
  CHECK(doc["summary"]["healthy"] == 5);
  CHECK(doc["summary"]["with_errors"] == 2);
  CHECK(doc["nodes"]["with_errors"] == Json({"gpu007", "gpu008"}));
  CHECK(doc["reports"]["missing"] == Json({"gpu009", "gpu010"}));
  CHECK(doc["reports"]["old"].empty());  // no --max-age
  REQUIRE(doc["reports"]["unreadable"].size() == 1);
  CHECK(doc["reports"]["unreadable"][0]["file"] == (dir / "gpu009.json").string());
  // Each problem as check --json reported it on those nodes.
  std::map<std::string, Json> problems;
  for (auto& p : doc["problems"]) problems[p["id"]] = p;
  for (auto& f : report_of("chipset-bridge-no-atomics")["findings"]) {
    REQUIRE(problems.count(f["id"]));
    CHECK(problems[f["id"]]["severity"] == f["severity"]);
    // The title is the first report's (titles name a node's own user or GPU).
    if (problems[f["id"]]["node_count"] == 1) CHECK(problems[f["id"]]["title"] == f["title"]);
  }
  CHECK(problems["device-node-not-accessible"]["node_ranges"] == "gpu[007-008]");
  CHECK(problems["device-node-not-accessible"]["node_count"] == 2);
}

TEST_CASE("fleet merge exit codes: 0 without errors, 2 when nothing was readable", "[cli][fleet]") {
  ScratchDir scratch;
  write(scratch.path / "a.json", report_of("mi300x-container").dump());
  write(scratch.path / "b.json", report_of("chipset-bridge-no-atomics").dump());  // warnings only
  write(scratch.path / "c.json", "{\"schema\": 1");
  auto ok = run_rocmdoc({"fleet", "merge", (scratch.path / "a.json").string(), (scratch.path / "b.json").string(),
                         (scratch.path / "c.json").string()});
  INFO(ok.out << ok.err);
  CHECK(ok.exit_code == 0);  // a corrupt file is reported and skipped
  CHECK(has(ok.out, "unreadable: " + (scratch.path / "c.json").string() + ": not JSON: byte 12: unexpected end"));

  auto none = run_rocmdoc({"fleet", "merge", (scratch.path / "c.json").string(), (scratch.path / "gone.json").string()});
  CHECK(none.exit_code == 2);
  CHECK(has(none.err, "rocmdoc fleet merge: no readable report among 2 files"));
  CHECK(has(none.out, (scratch.path / "gone.json").string() + ": "));
  ScratchDir empty;
  CHECK(run_rocmdoc({"fleet", "merge", empty.path.string()}).exit_code == 2);

  auto age = run_rocmdoc({"fleet", "merge", "--max-age", "10", scratch.path.string()});
  CHECK(age.exit_code == 2);
  CHECK(has(age.err, "--max-age: '10' has no unit"));
  auto expect = run_rocmdoc({"fleet", "merge", "--expect", "gpu[3-1]", scratch.path.string()});
  CHECK(expect.exit_code == 2);
  CHECK(has(expect.err, "--expect: 'gpu[3-1]': the range 3-1 runs backwards"));
  CHECK(run_rocmdoc({"fleet", "merge"}).exit_code == 2);
}

TEST_CASE("fleet merge --redact keeps no host or file name", "[cli][fleet]") {
  ScratchDir scratch;
  fs::path dir = make_cluster(scratch.path);
  auto r = run_rocmdoc({"fleet", "merge", "--redact", "--expect", "gpu[001-010]", dir.string()});
  INFO(r.out);
  CHECK(r.exit_code == 1);
  CHECK_FALSE(has(r.out, "gpu0"));
  CHECK_FALSE(has(r.out, dir.string()));
  CHECK(has(r.out, "[✓] 5 healthy: node[0001-0005]\n"));
  CHECK(has(r.out, "  ✗ missing (2): node[0009-0010]\n"));
  CHECK(has(r.out, "  ✗ unreadable: report-1: not JSON"));
}
