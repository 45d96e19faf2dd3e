#include "fleet/check_report_reader.h"

#include "base/fact.h"
#include "catch.h"

using namespace rocmdoc;

namespace {

// A report shaped like check --json's, with the fields the reader keeps
// and some it steps over.
Json sample_report() {
  return Json::parse(R"JSON({
    "schema": 1,
    "summary": {"errors": 1, "warnings": 0, "infos": 0, "not_checked": 0, "problems": true},
    "target": {"rocm": "6.4.1", "installed": "6.4.1", "distros": ["ubuntu 24.04"], "kernels": ["6.8 (GA)"]},
    "findings": [{"id": "amdgpu-not-loaded", "severity": "error", "area": "driver", "title": "amdgpu is not loaded",
                  "why": "w \"quoted\" \\ back", "fix": {"steps": [{"text": "t", "argv": ["modprobe", "amdgpu"]}]},
                  "evidence": {"amdgpu.loaded": false, "n": -1.5e3}}],
    "not_checked": [], "passed": ["a", "b"],
    "facts": {"schema": 1, "source": {"kind": "live", "collected_at": "2026-12-01T19:00:00Z"},
              "host": {"arch": "x86_64", "hostname": "gpu017"},
              "kernel": {"release": "6.8.0-45-generic", "version": [6, 8, 0]},
              "gpus": [{"address": "0000:03:00.0", "name": "Navi 31 [Radeon RX 7900 XTX]", "gfx": "gfx1100",
                        "rocm_releases": ["6.4.1"]}],
              "pci": {"gpus": [null, true, {"unknown": "x"}]}}
  })JSON");
}

}  // namespace

TEST_CASE("the reader keeps a report's node, time, stack, findings and GPUs", "[fleet][reader]") {
  auto r = read_check_report(sample_report().dump(2));
  INFO(r.error());
  REQUIRE(r);
  CHECK(r->hostname == "gpu017");
  CHECK(r->collected_at == "2026-12-01T19:00:00Z");
  CHECK(r->rocm == "6.4.1");
  CHECK(r->kernel == "6.8.0-45-generic");
  REQUIRE(r->findings.size() == 1);
  CHECK(r->findings[0].id == "amdgpu-not-loaded");
  CHECK(r->findings[0].severity == "error");
  CHECK(r->findings[0].title == "amdgpu is not loaded");
  REQUIRE(r->gpus.size() == 1);
  CHECK(r->gpus[0].name == "Navi 31 [Radeon RX 7900 XTX]");
  CHECK(r->gpus[0].gfx == "gfx1100");
}

TEST_CASE("unknown facts leave the fields empty", "[fleet][reader]") {
  Json j = sample_report();
  j["facts"]["host"]["hostname"] = {{"unknown", "/proc/sys/kernel/hostname: no such file"}};
  j["target"]["installed"] = nullptr;
  j["facts"]["kernel"] = {{"unknown", "x"}};
  j["facts"]["title"] = "é \u00e9 \\u00e9";  // escapes and UTF-8 the reader steps over
  auto r = read_check_report(j.dump());
  REQUIRE(r);
  CHECK(r->hostname.empty());
  CHECK(r->rocm.empty());
  CHECK(r->kernel.empty());
}

TEST_CASE("a corrupt or foreign file is refused with where and why", "[fleet][reader]") {
  std::string text = sample_report().dump();
  // Cut anywhere, the text is refused: never half a report taken as whole.
  for (size_t cut = 0; cut < text.size(); cut += 37) {
    auto r = read_check_report(text.substr(0, cut));
    INFO("cut at " << cut);
    CHECK_FALSE(r);
    CHECK(r.error().rfind("not JSON: byte ", 0) == 0);
  }
  CHECK(read_check_report("{\"schema\": 1,}").error() == "not JSON: byte 13: expected a member name");
  CHECK(read_check_report("{\"schema\": 01}").error().rfind("not JSON", 0) == 0);
  CHECK(read_check_report("{\"a\": \"x\ty\"}").error() == "not JSON: byte 8: a control character inside a string");
  CHECK(read_check_report("{\"a\": \"\\q\"}").error() == "not JSON: byte 8: bad escape in a string");
  CHECK(read_check_report("{} {}").error() == "not JSON: byte 3: more text after the report's closing '}'");
  CHECK(read_check_report(std::string(100000, '[')).error() == "not JSON: byte 0: expected a JSON object");
  CHECK(read_check_report("{\"x\":" + std::string(100000, '[')).error() == "not JSON: byte 262: nested over 256 deep");
  CHECK(read_check_report("{}").error() == "no schema: not a `rocmdoc check --json` report");
  CHECK(read_check_report("{\"schema\": 2}").error() ==
        "schema 2 is not supported (rocmdoc reads check --json schema 1)");
  CHECK(read_check_report("{\"schema\": 1, \"facts\": {}}").error() ==
        "no findings or facts: not a `rocmdoc check --json` report");
  Json no_id = sample_report();
  no_id["findings"][0].erase("id");
  CHECK(read_check_report(no_id.dump()).error().find("a finding without an id") != std::string::npos);
}
