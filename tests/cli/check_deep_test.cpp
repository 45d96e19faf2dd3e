// check --deep on recorded outputs: what each workload did reaches the
// report, a failure's text is explained on the machine's facts, and plain
// check runs nothing. No real Python or rocminfo runs here.
#include <filesystem>
#include <fstream>

#include "catch.h"
#include "cli/workloads.h"
#include "deep_test_support.h"
#include "facts/facts_document.h"
#include "output/text_report.h"
#include "probe_test_support.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;
namespace fs = std::filesystem;

namespace {

// ubuntu2204-rx6700xt: sam runs rocmdoc himself; /usr/bin/python3 (and
// python3.10, the same file) imports torch from ~/.local; ROCm 6.3.3; an
// RX 6700 XT (gfx1031), which no ROCm release builds for.
const char* kMachine = "ubuntu2204-rx6700xt";
const std::string kPython = "/usr/bin/python3";
const std::string kRocminfo = "/opt/rocm-6.3.3/bin/rocminfo";

const Knowledge& knowledge() {
  static Knowledge k = load_knowledge({"", ""});
  return k;
}

struct Judged {
  CheckReport report;
  WorkloadReport workloads;
};

// The fixture's facts, its deep section probed from these recorded outputs,
// then checked and judged as check --deep does.
Judged judge(const ProcessResult& python, const ProcessResult& rocminfo, bool override_unset = false) {
  Json facts = facts_for_root(machine_root(kMachine));
  if (override_unset) facts["env"]["HSA_OVERRIDE_GFX_VERSION"] = nullptr;
  MemoryMachine m({}, {{RecordedProcessRunner::key(deep_torch_argv({}, kPython)), python},
                       {RecordedProcessRunner::key(deep_tool_argv({}, {kRocminfo})), rocminfo}});
  m.options.deep = true;
  m.fs->file(kRocminfo, "", 0755);
  facts["deep"] = m.run(probe_deep, facts);
  REQUIRE(facts["deep"].is_object());
  REQUIRE_FALSE(is_unknown(facts["deep"]));
  REQUIRE(knowledge().errors.empty());
  Judged j{run_check(facts, knowledge(), std::nullopt), {}};
  j.workloads = judge_workloads(j.report.facts, knowledge());
  return j;
}

const ProcessResult kRocminfoOk = tool_output(0, "ROCk module is loaded\n  Name:                    gfx1031\n");

const Workload& torch_of(const Judged& j) {
  REQUIRE_FALSE(j.workloads.workloads.empty());
  REQUIRE(j.workloads.workloads.front().kind == "torch");
  return j.workloads.workloads.front();
}

}  // namespace

TEST_CASE("check --deep: torch runs on the GPU and rocminfo answers: both ✓", "[deep][cli]") {
  Judged j = judge(deep_script_output(deep_torch_ok("AMD Radeon RX 6700 XT", "gfx1031")), kRocminfoOk);
  REQUIRE(j.workloads.ran);
  CHECK(j.workloads.run_as == "sam");
  REQUIRE(j.workloads.workloads.size() == 2);  // python3 and python3.10 are one file: it runs once
  CHECK(torch_of(j).ok);
  CHECK(torch_of(j).name == kPython);
  CHECK(torch_of(j).summary.find("a tensor op ran on 1 GPU: device 0 (AMD Radeon RX 6700 XT, gfx1031)") != std::string::npos);
  CHECK(j.workloads.workloads[1].ok);
  CHECK(j.workloads.failed() == 0);
  std::string text = render_text_report(j.report, {}, &j.workloads);
  CHECK(text.find("[✓] Workloads — 2 run as sam\n") != std::string::npos);
  CHECK(text.find("    ✓ rocminfo: ran (exit 0)") != std::string::npos);
  Json json = render_json_report(j.report, &j.workloads);
  CHECK(json["summary"]["workloads_failed"] == 0);
  CHECK(json["workloads"]["items"][0]["ok"] == true);
  CHECK(json["facts"]["deep"]["torch"][0]["ok"] == true);
}

TEST_CASE("check --deep: torch sees no GPU: ✗ with the cause explain ranks first", "[deep][cli]") {
  Json result = {{"imported", true}, {"version", "2.5.1+rocm6.2"}, {"hip", "6.2.41133"},
                 {"is_available", false}, {"device_count", 0}, {"devices", Json::array()}};
  Judged j = judge(deep_script_output(result), kRocminfoOk);
  const Workload& w = torch_of(j);
  CHECK_FALSE(w.ok);
  CHECK(w.summary.find("torch.cuda.is_available() is False") != std::string::npos);
  CHECK(w.failure.find("torch.cuda.is_available() is False") != std::string::npos);
  // The symptom's problems, ranked on this machine's facts.
  REQUIRE(w.cause);
  INFO(w.cause->id << ": " << w.cause->title);
  CHECK_FALSE(w.cause->id.empty());
  CHECK(j.workloads.failed() == 1);
  Json json = render_json_report(j.report, &j.workloads);
  CHECK(json["summary"]["problems"] == true);
  CHECK(json["workloads"]["items"][0]["cause"]["id"] == w.cause->id);
}

TEST_CASE("check --deep: invalid device function on a gfx1031 names the missing code for that GPU", "[deep][cli]") {
  Json result = deep_torch_ok("AMD Radeon RX 6700 XT", "gfx1031");
  result["devices"][0]["op_ok"] = false;
  result["devices"][0]["error"] =
      "RuntimeError: HIP error: invalid device function\n"
      "HIP kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be "
      "incorrect.";
  Judged j = judge(deep_script_output(result), kRocminfoOk, /*override_unset=*/true);
  const Workload& w = torch_of(j);
  CHECK_FALSE(w.ok);
  CHECK(w.summary.find("device 0 (AMD Radeon RX 6700 XT, gfx1031): RuntimeError: HIP error: invalid device function") !=
        std::string::npos);
  REQUIRE(w.cause);
  INFO(w.cause->id << ": " << w.cause->title);
  CHECK(w.cause->id == "unsupported-gfx-needs-override");
  CHECK(w.cause->title.find("gfx1031") != std::string::npos);
  std::string text = render_text_report(j.report, {}, &j.workloads);
  CHECK(text.find("[✗] Workloads — 2 run as sam, 1 failed") != std::string::npos);
  CHECK(text.find("      cause: unsupported-gfx-needs-override:") != std::string::npos);
  CHECK(text.find("1 workload failed") != std::string::npos);
}

TEST_CASE("check --deep: import torch fails on libamdhip64.so.6", "[deep][cli]") {
  Json result = {{"imported", false},
                 {"error", "ImportError: libamdhip64.so.6: cannot open shared object file: No such file or directory"}};
  Judged j = judge(deep_script_output(result), kRocminfoOk);
  const Workload& w = torch_of(j);
  CHECK_FALSE(w.ok);
  CHECK(w.summary == "ImportError: libamdhip64.so.6: cannot open shared object file: No such file or directory");
  REQUIRE(w.cause);
  INFO(w.cause->id << ": " << w.cause->title);
  CHECK_FALSE(w.cause->id.empty());
}

TEST_CASE("check --deep: a hung workload and a failing rocminfo are ✗, with the tool's text explained", "[deep][cli]") {
  ProcessResult rocminfo = tool_output(
      1, "ROCk module is loaded\n",
      "hsa api call failure at: /long_pathname_so_that_rpms_can_package_the_debug_info/src/rocminfo/rocminfo.cc:1306\n"
      "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources. This "
      "error may also occur when the core runtime library needs to spawn threads or create internal OS-specific "
      "events.\n");
  Judged j = judge(timed_out_output(kPython), rocminfo);
  REQUIRE(j.workloads.workloads.size() == 2);
  const Workload& py = j.workloads.workloads[0];
  CHECK_FALSE(py.ok);
  CHECK(py.summary.find("timed out after 20000 ms") != std::string::npos);
  const Workload& tool = j.workloads.workloads[1];
  CHECK_FALSE(tool.ok);
  CHECK(tool.name == "rocminfo");
  CHECK(tool.summary == "exited with 1: hsa api call failure at: "
                        "/long_pathname_so_that_rpms_can_package_the_debug_info/src/rocminfo/rocminfo.cc:1306");
  CHECK(tool.failure.find("HSA_STATUS_ERROR_OUT_OF_RESOURCES") != std::string::npos);
  REQUIRE(tool.cause);
  CHECK(tool.cause->id == "hsa-out-of-resources");
  CHECK(j.workloads.failed() == 2);
  std::string text = render_text_report(j.report, {}, &j.workloads);
  CHECK(text.find("    ✗ rocminfo: exited with 1") != std::string::npos);
  CHECK(text.find("2 workloads failed") != std::string::npos);
}

TEST_CASE("check without --deep runs no workload and prints no Workloads line", "[deep][cli]") {
  // Every command any probe asks for, counted on the way to the recording.
  struct Counting : ProcessRunner {
    std::unique_ptr<ProcessRunner> inner;
    std::vector<std::vector<std::string>> asked;
    ProcessResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) override {
      asked.push_back(argv);
      return inner->run(argv, timeout);
    }
  };
  for (bool deep : {false, true}) {
    auto machine = open_recorded_machine(machine_root(kMachine));
    REQUIRE(machine);
    auto counting = std::make_unique<Counting>();
    counting->inner = std::move((*machine)->runner);
    Counting& seen = *counting;
    (*machine)->runner = std::move(counting);
    ProbeOptions options;
    options.deep = deep;
    Json facts = collect_facts(**machine, options);
    size_t workloads = 0;
    for (auto& argv : seen.asked)
      if (argv.front() == kPython || argv.front() == kRocminfo || argv.front().find("amd-smi") != std::string::npos)
        ++workloads;
    if (!deep) {
      CHECK(workloads == 0);
      CHECK(unknown_reason(facts["deep"]) == kDeepNotRun);
    } else {
      CHECK(workloads == 1);  // python3 once; rocminfo is not in this recording's tree
      CHECK(unknown_reason(facts["deep"]).find("rocmdoc snapshot --deep") != std::string::npos);
    }
  }
  auto plain = run_rocmdoc({"check", "--root", machine_root(kMachine)});
  CHECK(plain.out.find("Workloads") == std::string::npos);
  auto json = run_rocmdoc({"check", "--root", machine_root(kMachine), "--json"});
  CHECK(json.out.find("\"workloads\"") == std::string::npos);
}

TEST_CASE("check --deep --root replays the workloads a snapshot recorded", "[deep][cli][snapshot]") {
  ScratchDir dir;
  fs::copy(machine_root(kMachine), dir.path, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  fs::create_directories(dir.path / "opt/rocm-6.3.3/bin");
  std::ofstream(dir.path / "opt/rocm-6.3.3/bin/rocminfo").put('\n');
  fs::path sidecar = dir.path / ".rocmdoc/machine.json";
  Json doc = Json::parse(std::ifstream(sidecar));
  Json result = deep_torch_ok("AMD Radeon RX 6700 XT", "gfx1031");
  result["devices"][0]["op_ok"] = false;
  result["devices"][0]["error"] = "RuntimeError: HIP error: invalid device function";
  ProcessResult py = deep_script_output(result);
  doc["commands"][RecordedProcessRunner::key(deep_torch_argv({}, kPython))] = {
      {"started", true}, {"exit_code", 0}, {"stdout", py.out}, {"stderr", ""}};
  doc["commands"][RecordedProcessRunner::key(deep_tool_argv({}, {kRocminfo}))] = {
      {"started", true}, {"exit_code", 0}, {"stdout", "ROCk module is loaded\n"}, {"stderr", ""}};
  std::ofstream(sidecar, std::ios::trunc) << doc.dump(2);

  auto text = run_rocmdoc({"check", "--deep", "--root", dir.path.string()});
  INFO(text.out << text.err);
  CHECK(text.exit_code == 1);
  CHECK(text.out.find("[✗] Workloads — 2 run as sam, 1 failed") != std::string::npos);
  CHECK(text.out.find("    ✗ /usr/bin/python3: torch 2.5.1+rocm6.2, HIP 6.2.41133: device 0") != std::string::npos);
  CHECK(text.out.find("    ✓ rocminfo: ran (exit 0)") != std::string::npos);
  CHECK(text.out.find("      cause: ") != std::string::npos);

  auto json = run_rocmdoc({"check", "--deep", "--root", dir.path.string(), "--json"});
  Json report = Json::parse(json.out);
  CHECK(report["workloads"]["ran"] == true);
  CHECK(report["workloads"]["items"].size() == 2);
  CHECK(report["summary"]["workloads_failed"] == 1);
  CHECK(report["facts"]["deep"]["torch"][0]["devices"][0]["op_ok"] == false);

  // Without --deep the same recording runs (and replays) nothing.
  auto plain = run_rocmdoc({"check", "--root", dir.path.string()});
  CHECK(plain.out.find("Workloads") == std::string::npos);
}

TEST_CASE("check --deep with --facts is a usage error, and --help explains --deep", "[deep][cli]") {
  ScratchDir dir;
  auto saved = run_rocmdoc({"facts", "--root", machine_root(kMachine), "-o", (dir.path / "f.json").string()});
  REQUIRE(saved.exit_code == 0);
  auto both = run_rocmdoc({"check", "--deep", "--facts", (dir.path / "f.json").string()});
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("--deep") != std::string::npos);
  auto help = run_rocmdoc({"check", "--help"});
  CHECK(help.out.find("--deep") != std::string::npos);
  CHECK(help.out.find("--deep-timeout") != std::string::npos);
  CHECK(help.out.find("runs none of it") != std::string::npos);
}

TEST_CASE("check --facts shows the workloads a facts file holds", "[deep][cli]") {
  ScratchDir dir;
  fs::path file = dir.path / "f.json";
  auto saved = run_rocmdoc({"facts", "--root", machine_root(kMachine), "-o", file.string()});
  REQUIRE(saved.exit_code == 0);
  Json facts = Json::parse(std::ifstream(file));
  facts["deep"] = {{"run_as", "sam"}, {"switched_by", nullptr}, {"timeout_ms", 20000},
                   {"torch", Json::array()},
                   {"tools", Json::array({{{"name", "rocminfo"}, {"argv", {kRocminfo}}, {"exit_code", 0},
                                           {"timed_out", false}, {"ok", true}, {"error", nullptr},
                                           {"stdout", ""}, {"stderr", ""}}})},
                   {"not_run", Json::array()}};
  std::ofstream(file, std::ios::trunc) << facts.dump();
  auto text = run_rocmdoc({"check", "--facts", file.string()});
  CHECK(text.out.find("[✓] Workloads — 1 run as sam\n") != std::string::npos);
}
