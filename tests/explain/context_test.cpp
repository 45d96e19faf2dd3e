// What a text says about its GPU without an error message: a gfx target
// named in passing and a product name ("RX470", "Radeon 5700XT") decide the
// gfx causes with --no-probe, and never replace the gfx a runtime's own
// message names (rules/catalogue/context.yaml, docs/explain.md).
#include "catch.h"
#include "base/fact.h"
#include "test_support.h"

using namespace rocmdoc;
using test::run_rocmdoc;

namespace {

Json explain_text(const std::string& text) {
  auto r = run_rocmdoc({"explain", "--no-probe", "--json", text});
  INFO(r.err);
  REQUIRE((r.exit_code == 0 || r.exit_code == 1));
  return Json::parse(r.out);
}

std::string first_cause(const Json& j) { return j["causes"].empty() ? "" : j["causes"][0]["id"].get<std::string>(); }

}  // namespace

TEST_CASE("a product name in the text names the GPU's target", "[explain][context]") {
  // The same runtime message: the card the user names decides the cause.
  Json polaris = explain_text("hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\nGPU: Radeon RX 470");
  CHECK(polaris["text"]["gpu_name"] == "Radeon RX 470");
  CHECK(polaris["text"]["gfx"] == "gfx803");
  CHECK(first_cause(polaris) == "gfx-dropped-no-override");
  CHECK(polaris["causes"][0]["verdict"] == "confirmed");

  // A rule that describes each GPU of the machine ("lists {it.gfx}"): on the
  // text alone the GPU the text names takes its place. (The title also names
  // {it.address}, which no text gives, so it gives way to the summary.)
  Json apu = explain_text("my Radeon 780M is not used");
  std::string why;
  for (auto& c : apu["causes"])
    if (c["id"] == "gpu-not-in-any-release-override-known") why = c["why"];
  CHECK(why.find("lists gfx1103") != std::string::npos);
  CHECK(why.find("<gfx>") == std::string::npos);
  // Only a rule over the GPUs: one over the packages never takes the card's
  // name for a package's ("sudo apt-get remove 'RX 6700XT'").
  Json mixed = explain_text(
      "The following packages have unmet dependencies:\n"
      " rocm-hip-runtime : Depends: rocminfo (= 1.0.0.60401-83~24.04) but 5.7.1-3build1 is to be installed\n"
      "my card: RX 6700XT");
  REQUIRE_FALSE(mixed["causes"].empty());
  for (auto& c : mixed["causes"]) {
    CHECK(c["title"].get<std::string>().find("6700") == std::string::npos);
    for (auto& step : c["fix"]["steps"])
      for (auto& word : step["argv"]) CHECK(word.get<std::string>().find("6700") == std::string::npos);
  }

  Json rdna2 = explain_text("hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\nmy card: RX 6700XT");
  CHECK(rdna2["text"]["gfx"] == "gfx1031");
  CHECK(first_cause(rdna2) == "unsupported-gfx-needs-override");

  // The matrix lists "Radeon RX 470/480/570/580/590" and "Radeon RX Vega
  // 56/64": each card of such a list is known by its own name.
  for (const char* card : {"RX 580", "RX570", "Radeon RX 590"})
    CHECK(explain_text(std::string("hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n") + card)["text"]["gfx"] ==
          "gfx803");
  CHECK(explain_text("hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\nRX Vega 64")["text"]["gfx"] ==
        "gfx900");

  // A name the matrix does not know gives no target.
  Json unknown = explain_text("hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\nRX 9999");
  CHECK_FALSE(unknown["text"].contains("gfx"));
}

TEST_CASE("a gfx mentioned in passing fills in, but the runtime's own wins", "[explain][context]") {
  Json mentioned = explain_text("hipErrorNoBinaryForGpu: Coudn't find binary for current devices!\n- RX470 (gfx803)");
  CHECK(mentioned["text"]["gfx"] == "gfx803");
  // The override note comes first, the runtime's message names the real target.
  Json both = explain_text(
      "I run it as gfx1030 with the override\n"
      ":1:hip_fatbin.cpp :687 : No compatible code objects found for: gfx1031, value of HIP_FORCE_SPIRV_CODEOBJECT: 0");
  CHECK(both["text"]["gfx"] == "gfx1031");
  // Context alone is no failure: nothing to explain.
  Json alone = explain_text("My box: Ryzen 7 7800X3D, RX 7900 XTX (gfx1100), 64 GB");
  CHECK(alone["causes"].empty());
}

TEST_CASE("a text from a program without PyTorch is not about a torch wheel", "[explain][context]") {
  auto verdict_of = [](const Json& j, const std::string& id) {
    for (auto& c : j["causes"])
      if (c["id"] == id) return c["verdict"].get<std::string>();
    return std::string("absent");
  };
  // The same plain-words symptom: from ollama, the CPU and CUDA torch
  // problems are ruled out; from a torch program they stay candidates.
  Json ollama = explain_text("ollama doesn't detect my GPU and falls back to CPU");
  CHECK(ollama["text"]["origins"] == Json::array({"ollama"}));
  CHECK(verdict_of(ollama, "torch-cpu-build-on-amd-gpu") == "refuted");
  CHECK(verdict_of(ollama, "torch-cuda-build-on-amd-gpu") == "refuted");
  CHECK(first_cause(ollama) != "torch-cpu-build-on-amd-gpu");

  Json torch = explain_text("import torch; torch.cuda.is_available() returns False, it falls back to CPU");
  CHECK(verdict_of(torch, "torch-cpu-build-on-amd-gpu") == "undecided");

  // An ollama text that shows PyTorch too (a script beside it) keeps them.
  Json both = explain_text("ollama works but PyTorch doesn't detect my GPU");
  CHECK(verdict_of(both, "torch-cpu-build-on-amd-gpu") == "undecided");
}
