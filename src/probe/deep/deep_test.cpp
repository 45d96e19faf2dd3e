#include "catch.h"
#include "deep_test_support.h"
#include "probe/deep/deep.h"
#include "probe_test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {

const std::string kVenvPython = "/home/alice/venv/bin/python";
const std::string kRocminfo = "/opt/rocm/bin/rocminfo";

// The sections the deep probe builds on: alice runs rocmdoc herself, her
// venv imports a torch, ROCm is in /opt/rocm.
Json earlier_sections(const Json& user = {{"name", "alice"}, {"uid", 1000}, {"target", "alice"}}) {
  Json facts = Json::object();
  facts["access"]["user"] = user;
  facts["python"]["interpreters"] = Json::array({{{"path", kVenvPython}, {"resolved", "/usr/bin/python3.12"}},
                                                 {{"path", "/home/alice/venv/bin/python3"}, {"resolved", "/usr/bin/python3.12"}}});
  facts["python"]["torch"] = Json::array(
      {{{"site_packages", "/home/alice/venv/lib/python3.12/site-packages"},
        {"interpreters", Json::array({kVenvPython, "/home/alice/venv/bin/python3"})}}});
  facts["rocm"]["installs"] = Json::array({{{"path", "/opt/rocm"}}});
  facts["rocm"]["default"] = "/opt/rocm";
  return facts;
}

struct DeepBox {
  MemoryMachine m;
  Json facts = earlier_sections();
  explicit DeepBox(std::map<std::string, ProcessResult> commands, bool deep = true) : m({}, std::move(commands)) {
    m.options.deep = deep;
    m.fs->file(kRocminfo, "", 0755);
  }
  Json run() { return m.run(probe_deep, facts); }
};

std::map<std::string, ProcessResult> outputs(const ProcessResult& python, const ProcessResult& rocminfo) {
  return {{RecordedProcessRunner::key(deep_torch_argv({}, kVenvPython)), python},
          {RecordedProcessRunner::key(deep_tool_argv({}, {kRocminfo})), rocminfo}};
}

const ProcessResult kRocminfoOk = tool_output(0, "ROCk module is loaded\nAgent 2\n  Name: gfx1100\n");

}  // namespace

TEST_CASE("deep: without --deep nothing is run and the section says how to run it", "[deep]") {
  DeepBox box(outputs(deep_script_output(deep_torch_ok()), kRocminfoOk), false);
  ProbeContext ctx(box.m.machine, box.m.options);
  Json d = probe_deep(ctx, box.facts);
  CHECK(unknown_reason(d) == kDeepNotRun);
  CHECK(ctx.commands_run().empty());
}

TEST_CASE("deep: torch runs a tensor op on the GPU, rocminfo answers", "[deep]") {
  DeepBox box(outputs(deep_script_output(deep_torch_ok(), "UserWarning: something harmless\n"), kRocminfoOk));
  Json d = box.run();
  CHECK(d["run_as"] == "alice");
  CHECK(d["switched_by"].is_null());
  CHECK(d["timeout_ms"] == 20000);
  // python and python3 of the venv are one interpreter (one directory,
  // one real file): it runs once.
  REQUIRE(d["torch"].size() == 1);
  const Json& t = d["torch"][0];
  CHECK(t["interpreter"] == kVenvPython);
  CHECK(t["ok"] == true);
  CHECK(t["imported"] == true);
  CHECK(t["version"] == "2.5.1+rocm6.2");
  CHECK(t["hip"] == "6.2.41133");
  CHECK(t["is_available"] == true);
  CHECK(t["device_count"] == 1);
  CHECK(t["devices"][0]["arch"] == "gfx1100");
  CHECK(t["devices"][0]["op_ok"] == true);
  CHECK(t["error"].is_null());
  CHECK(t["exit_code"] == 0);
  REQUIRE(d["tools"].size() == 1);  // amd-smi is not installed
  CHECK(d["tools"][0]["name"] == "rocminfo");
  CHECK(d["tools"][0]["ok"] == true);
  CHECK(d["tools"][0]["argv"] == Json::array({kRocminfo}));
  CHECK(d["not_run"].dump().find("amd-smi: not installed") != std::string::npos);
}

TEST_CASE("deep: torch imports but sees no GPU", "[deep]") {
  Json result = {{"imported", true}, {"version", "2.5.1+rocm6.2"}, {"hip", "6.2.41133"},
                 {"is_available", false}, {"device_count", 0}, {"devices", Json::array()}};
  DeepBox box(outputs(deep_script_output(result), kRocminfoOk));
  const Json t = box.run()["torch"][0];
  CHECK(t["ok"] == false);
  CHECK(t["imported"] == true);
  CHECK(t["is_available"] == false);
  CHECK(t["devices"].empty());
}

TEST_CASE("deep: the tensor op fails with invalid device function", "[deep]") {
  Json result = deep_torch_ok("AMD Radeon RX 6700 XT", "gfx1031");
  result["devices"][0]["op_ok"] = false;
  result["devices"][0]["error"] =
      "RuntimeError: HIP error: invalid device function\nHIP kernel errors might be asynchronously reported";
  DeepBox box(outputs(deep_script_output(result), kRocminfoOk));
  const Json t = box.run()["torch"][0];
  CHECK(t["ok"] == false);
  CHECK(t["devices"][0]["op_ok"] == false);
  CHECK(t["devices"][0]["error"].get<std::string>().find("invalid device function") != std::string::npos);
}

TEST_CASE("deep: import torch fails on a missing HIP library", "[deep]") {
  Json result = {{"imported", false},
                 {"error", "ImportError: libamdhip64.so.6: cannot open shared object file: No such file or directory"}};
  DeepBox box(outputs(deep_script_output(result), kRocminfoOk));
  const Json t = box.run()["torch"][0];
  CHECK(t["ok"] == false);
  CHECK(t["imported"] == false);
  CHECK(t["version"].is_null());
  CHECK(t["error"].get<std::string>().find("libamdhip64.so.6") != std::string::npos);
}

TEST_CASE("deep: a workload that hangs is killed at the timeout", "[deep]") {
  DeepBox box(outputs(timed_out_output(kVenvPython), timed_out_output(kRocminfo)));
  Json d = box.run();
  const Json& t = d["torch"][0];
  CHECK(t["ok"] == false);
  CHECK(t["timed_out"] == true);
  CHECK(t["exit_code"].is_null());
  CHECK(is_unknown(t["imported"]));
  CHECK(t["error"].get<std::string>().find("timed out") != std::string::npos);
  CHECK(d["tools"][0]["timed_out"] == true);
  CHECK(d["tools"][0]["ok"] == false);
}

TEST_CASE("deep: python crashing in import torch and rocminfo failing are failures with their text", "[deep]") {
  ProcessResult crash = tool_output(134, "", "Memory access fault by GPU node-1 (Agent handle: 0x5555) on address (nil).\n");
  ProcessResult rocminfo = tool_output(
      1, "ROCk module is loaded\n",
      "hsa api call failure at: /long_pathname_so_that_rpms_can_package_the_debug_info/src/rocminfo/rocminfo.cc:1306\n"
      "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.\n");
  DeepBox box(outputs(crash, rocminfo));
  Json d = box.run();
  const Json& t = d["torch"][0];
  CHECK(t["ok"] == false);
  CHECK(t["exit_code"] == 134);
  CHECK(t["error"].get<std::string>().find("exited with 134: Memory access fault") == 0);
  CHECK(t["stderr"].get<std::string>().find("Memory access fault") != std::string::npos);
  const Json& r = d["tools"][0];
  CHECK(r["ok"] == false);
  CHECK(r["exit_code"] == 1);
  CHECK(r["error"].get<std::string>().find("HSA_STATUS_ERROR_OUT_OF_RESOURCES") != std::string::npos);
  CHECK(r["stdout"] == "ROCk module is loaded\n");
}

TEST_CASE("deep: under sudo the workloads run as the sudo user through runuser, never as root", "[deep]") {
  Json sudo = {{"name", "root"}, {"uid", 0}, {"via_sudo", true}, {"sudo_user", "alice"}, {"target", "alice"}};
  std::vector<std::string> as_alice = {"/usr/sbin/runuser", "-u", "alice", "--"};
  SECTION("runuser is installed") {
    DeepBox box({{RecordedProcessRunner::key(deep_torch_argv(as_alice, kVenvPython)), deep_script_output(deep_torch_ok())},
                 {RecordedProcessRunner::key(deep_tool_argv(as_alice, {kRocminfo})), kRocminfoOk}});
    box.m.fs->file("/usr/sbin/runuser", "", 0755);
    box.facts["access"]["user"] = sudo;
    Json d = box.run();
    CHECK(d["run_as"] == "alice");
    CHECK(d["switched_by"] == "runuser");
    CHECK(d["torch"][0]["ok"] == true);
    CHECK(d["tools"][0]["ok"] == true);
  }
  SECTION("without runuser nothing runs") {
    DeepBox box({});
    box.facts["access"]["user"] = sudo;
    ProbeContext ctx(box.m.machine, box.m.options);
    Json d = probe_deep(ctx, box.facts);
    CHECK(unknown_reason(d).find("runuser") != std::string::npos);
    CHECK(ctx.commands_run().empty());
  }
  SECTION("another user who is not root cannot switch") {
    DeepBox box({});
    box.facts["access"]["user"] = {{"name", "bob"}, {"uid", 1001}, {"sudo_user", "alice"}, {"target", "alice"}};
    CHECK(unknown_reason(box.run()).find("cannot run the workloads as alice") != std::string::npos);
  }
  SECTION("an unknown target user") {
    DeepBox box({});
    box.facts["access"]["user"]["target"] = unknown("SUDO_USER was not recorded");
    CHECK(unknown_reason(box.run()).find("SUDO_USER was not recorded") != std::string::npos);
    box.facts["access"] = unknown("the access probe failed");
    CHECK(unknown_reason(box.run()).find("the access probe failed") != std::string::npos);
  }
}

TEST_CASE("deep: a recording without the workloads' outputs is unknown, not a failure", "[deep]") {
  DeepBox box({});
  CHECK(unknown_reason(box.run()).find("rocmdoc snapshot --deep") != std::string::npos);
  // One of two recorded: the other goes to not_run.
  DeepBox half({{RecordedProcessRunner::key(deep_tool_argv({}, {kRocminfo})), kRocminfoOk}});
  Json d = half.run();
  CHECK(d["torch"].empty());
  CHECK(d["not_run"].dump().find(kVenvPython + ": not recorded") != std::string::npos);
}

TEST_CASE("deep: bad script output and odd sections never crash", "[deep][malformed]") {
  ProcessResult garbage = tool_output(0, std::string(kDeepResultMarker) + "{not json\n" + kDeepResultMarker + "[1,2]\n");
  DeepBox box(outputs(garbage, kRocminfoOk));
  const Json t = box.run()["torch"][0];
  CHECK(t["ok"] == false);
  CHECK(is_unknown(t["imported"]));
  // Fields of the wrong type are dropped, not trusted.
  Json odd = {{"imported", true}, {"version", 3}, {"is_available", "yes"}, {"device_count", "1"},
              {"devices", Json::array({1, {{"op_ok", "true"}, {"name", std::string(10000, 'x')}}})}};
  DeepBox box2(outputs(deep_script_output(odd), kRocminfoOk));
  const Json t2 = box2.run()["torch"][0];
  CHECK(t2["ok"] == false);
  CHECK(t2["version"].is_null());
  CHECK(t2["is_available"].is_null());
  REQUIRE(t2["devices"].size() == 1);
  CHECK(t2["devices"][0]["op_ok"] == false);
  CHECK(t2["devices"][0]["name"].get<std::string>().size() == 4000);

  DeepBox box3({});
  box3.facts["python"] = unknown("the python probe failed");
  box3.facts["rocm"] = 5;
  Json d = box3.run();
  CHECK(is_unknown(d["torch"]));
  CHECK(d["tools"].empty());  // rocm is not an object: no install to look in
  box3.facts["python"] = Json::object();
  box3.facts["python"]["torch"] = Json::array({{{"site_packages", "/x"}, {"interpreters", Json::array()}}});
  box3.facts["python"]["torch"].push_back(7);
  CHECK_NOTHROW(box3.run());
}

TEST_CASE("deep: more interpreters than the cap are listed as not run", "[deep]") {
  DeepBox box({});
  Json importers = Json::array();
  for (int i = 0; i < 10; ++i) importers.push_back("/home/alice/v" + std::to_string(i) + "/bin/python");
  box.facts["python"]["interpreters"] = Json::array();
  box.facts["python"]["torch"][0]["interpreters"] = importers;
  ProbeContext ctx(box.m.machine, box.m.options);
  Json d = probe_deep(ctx, box.facts);
  CHECK(ctx.commands_run().size() == 9);  // 8 interpreters and rocminfo
}

TEST_CASE("deep: output is kept within its bound, head and tail", "[deep]") {
  CHECK(bounded_output("short") == "short");
  std::string big = "HEAD" + std::string(200000, '.') + "TAIL";
  std::string kept = bounded_output(big);
  CHECK(kept.size() < kDeepOutputLimit + 100);
  CHECK(kept.rfind("HEAD", 0) == 0);
  CHECK(kept.substr(kept.size() - 4) == "TAIL");
  CHECK(kept.find("bytes cut") != std::string::npos);
}

TEST_CASE("deep: the script is fixed text that prints one marked JSON line", "[deep]") {
  const std::string& s = deep_torch_script();
  CHECK(s.find(kDeepResultMarker) != std::string::npos);
  CHECK(s.find("gcnArchName") != std::string::npos);
  CHECK(s.find("torch.ones(4") != std::string::npos);
  auto argv = deep_torch_argv({"/usr/sbin/runuser", "-u", "alice", "--"}, "/usr/bin/python3");
  CHECK(argv == std::vector<std::string>{"/usr/sbin/runuser", "-u", "alice", "--", "/usr/bin/python3", "-c", s});
}
