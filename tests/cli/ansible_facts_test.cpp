// rocmdoc facts --format ansible on the recorded machines: the object
// ansible_local.rocmdoc holds (the real Ansible run is tests/ansible/).
#include <fstream>

#include "catch.h"
#include "base/fact.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {
Json ansible_facts(const std::string& machine) {
  auto r = run_rocmdoc({"facts", "--format", "ansible", "--root", machine_root(machine)});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // Compact: one line.
  REQUIRE(r.out.find('\n') == r.out.size() - 1);
  return Json::parse(r.out);
}
}  // namespace

TEST_CASE("facts --format ansible: a healthy machine's GPU, ROCm and torch", "[ansible]") {
  Json j = ansible_facts("ubuntu2404-rx7900xtx");
  CHECK(j["schema"] == 1);
  CHECK(j["summary"]["healthy"] == true);
  CHECK(j["summary"]["errors"] == 0);
  REQUIRE(j["gpus"].size() == 1);
  CHECK(j["gpus"][0]["gfx"] == "gfx1100");
  CHECK(j["gpus"][0]["address"] == "0000:03:00.0");
  CHECK(j["gpus"][0]["name"].get<std::string>().find("7900 XTX") != std::string::npos);
  CHECK(j["rocm"]["installed"] == "6.4.1");
  CHECK(j["rocm"]["target"] == "6.4.1");
  REQUIRE(j["torch"].size() == 1);
  CHECK(j["torch"][0] == Json({{"version", "2.8.0+rocm6.4"}, {"build", "rocm"}, {"hip", "6.4.43482-0f2d60242"}}));
  // Every finding with just its id, severity and title; the same ones check reports.
  auto check = run_rocmdoc({"check", "--json", "--root", machine_root("ubuntu2404-rx7900xtx")});
  Json report = Json::parse(check.out);
  REQUIRE(j["findings"].size() == report["findings"].size());
  for (size_t i = 0; i < j["findings"].size(); ++i) {
    CHECK(j["findings"][i].size() == 3);
    CHECK(j["findings"][i]["id"] == report["findings"][i]["id"]);
    CHECK(j["findings"][i]["severity"] == report["findings"][i]["severity"]);
    CHECK(j["findings"][i]["title"] == report["findings"][i]["title"]);
  }
}

TEST_CASE("facts --format ansible: a broken machine is not healthy and names its error", "[ansible]") {
  Json j = ansible_facts("desktop-amdgpu-not-loaded");
  CHECK(j["summary"]["healthy"] == false);
  CHECK(j["summary"]["errors"].get<int>() >= 1);
  bool blacklisted = false;
  for (auto& f : j["findings"]) blacklisted |= f["id"] == "amdgpu-blacklisted" && f["severity"] == "error";
  CHECK(blacklisted);
  REQUIRE(j["gpus"].size() == 1);
  CHECK(j["gpus"][0]["gfx"] == "gfx1030");
  CHECK(j["rocm"]["installed"].is_null());  // no /opt/rocm
}

TEST_CASE("facts --format: an unknown format is a usage error, and -o writes the file", "[ansible]") {
  auto bad = run_rocmdoc({"facts", "--format", "yaml"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--format") != std::string::npos);
  ScratchDir dir;
  std::string out = (dir.path / "fact.json").string();
  auto r = run_rocmdoc({"facts", "--format", "ansible", "--root", machine_root("ubuntu2404-rx7900xtx"), "-o", out});
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(Json::parse(std::ifstream(out))["summary"]["healthy"] == true);
}
