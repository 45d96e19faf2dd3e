// The explain knowledge covers the failure catalogue it was built from
// (../shared/reference/errors.md): every id, with the same spelling, since
// users see these ids and `rocmdoc fix` accepts them.
#include <set>

#include "catch.h"
#include "knowledge_test_support.h"
#include "rules/knowledge.h"

using namespace rocmdoc;

namespace {

const std::vector<std::string> kCatalogue = {
    "torch-cpu-wheel", "torch-cuda-wheel-on-amd", "cuda-only-extension-on-rocm-torch",
    "no-torch-wheel-for-python-or-platform", "torch-wheel-vs-system-rocm-mismatch",
    "libamdhip64-or-runtime-lib-not-found", "wsl-unsupported-configuration", "wsl-wrong-torch-wheel-or-runtime",
    "user-not-in-render-video-group", "render-group-absent", "container-missing-device-nodes",
    "container-render-gid-mismatch", "rootless-container-gpu-access", "docker-host-has-no-kfd",
    "rocminfo-rock-false-alarm-in-container", "smi-amdgpu-not-found-false-alarm", "amdgpu-not-loaded",
    "amdgpu-dkms-kernel-too-new", "dkms-kernel-headers-missing", "dkms-tree-inconsistent",
    "dkms-module-not-built-for-running-kernel", "secure-boot-blocks-amdgpu-dkms", "kernel-too-old-for-gpu",
    "amdgpu-firmware-missing", "optional-firmware-missing-benign", "radeon-driver-bound-legacy-gcn",
    "asic-not-supported-by-kfd", "pcie-atomics-unsupported", "kfd-open-cannot-allocate-memory",
    "vm-without-gpu-passthrough", "apt-distro-rocm-packages-conflict", "apt-repo-codename-or-release-mismatch",
    "apt-partial-upgrade-dev-version-skew", "dpkg-overwrite-mixed-package-sets", "unsupported-gfx-needs-override",
    "gfx-dropped-no-override", "hsa-override-wrong-value", "hsa-override-stale-or-on-supported-gpu",
    "hsa-override-not-propagated", "igpu-selected-instead-of-dgpu", "apu-igpu-unsupported",
    "app-built-without-gpu-target", "rocblas-tensile-library-missing", "windows-hip-sdk-library-mismatch",
    "attention-kernel-unsupported-arch", "hipblaslt-unsupported-arch-warning", "hsa-invalid-isa-or-code-object",
    "memory-access-fault", "gpu-hang-mes-timeout", "hsa-out-of-resources", "oom-true-capacity",
    "oom-fragmentation", "apu-small-vram-carveout", "rccl-hang-iommu", "rccl-p2p-failure-consumer-gpus",
    "nccl-unhandled-system-error-network", "build-rocm-device-libs-missing", "hip-source-built-with-host-compiler",
    "miopen-kdb-missing-warning", "ollama-amdgpu-version-file-warning", "amdgpu-ids-missing-warning",
    "torch-smi-init-warnings", "rccl-net-plugin-missing-info", "stray-amd-gpu-on-non-amd-host"};

// Marked [benign] in the catalogue (16 as "benign-ish": the smi tools' false alarm in a
// container): harmless noise, never ranked above a real error.
const std::set<std::string> kBenign = {"rocminfo-rock-false-alarm-in-container", "smi-amdgpu-not-found-false-alarm", "optional-firmware-missing-benign",
                                       "hipblaslt-unsupported-arch-warning",     "miopen-kdb-missing-warning",
                                       "ollama-amdgpu-version-file-warning",     "amdgpu-ids-missing-warning",
                                       "torch-smi-init-warnings",                "rccl-net-plugin-missing-info"};

// Asked for by the explain issue beyond the catalogue.
const std::vector<std::string> kExtra = {"rocm-tools-not-on-path", "system-rccl-shadows-torch", "app-requires-nvidia-smi",
                                         "hip-async-error-locate-call"};

}  // namespace

// The ids are the catalogue's first ones; a problem merged with check's
// keeps its former id as an alias.
TEST_CASE("every catalogue failure mode and the four extra ones is a problem with that id or alias", "[explain][knowledge]") {
  Knowledge k = test::shipped_knowledge();
  REQUIRE(kCatalogue.size() == 64);
  std::map<std::string, const Problem*> causes;
  for (auto& c : k.catalogue.problems) {
    causes[c.rule.id] = &c;
    for (auto& alias : c.aliases) causes[alias] = &c;
  }
  for (auto& id : kCatalogue) {
    INFO(id);
    REQUIRE(causes.count(id));
    CHECK(causes[id]->benign == (kBenign.count(id) > 0));
    // Found by its own signals, or through a symptom that lists it.
    bool listed = false;
    for (auto& symptom : k.catalogue.symptoms)
      for (auto& p : symptom.problems) listed = listed || causes[id]->has_id(p);
    CHECK((!causes[id]->signals.empty() || listed));
    CHECK_FALSE(causes[id]->rule.sources.empty());
  }
  for (auto& id : kExtra) {
    INFO(id);
    CHECK(causes.count(id));
  }
}

// A fix names the command or the package (issue 14, item 10): a user has no
// copy of rocmdoc's source, so "see rules/matrix/rocm-releases.yaml" sends
// them nowhere. What such a text needs comes from facts (target.kernels,
// target.torch_index, gpus[].hsa_override.value, gpus[].rocm_releases).
TEST_CASE("no fix, why or title sends the user to a file of rocmdoc's rules", "[rules][catalogue]") {
  Knowledge k = load_knowledge({"", ""});
  REQUIRE(k.errors.empty());
  auto names_rules_file = [](const std::string& text) {
    return text.find("rules/") != std::string::npos || text.find(".yaml") != std::string::npos;
  };
  size_t steps = 0;
  for (auto& p : k.catalogue.problems) {
    const Rule& rule = p.rule;
    std::vector<const Template*> texts = {&rule.title, &rule.why};
    for (auto& step : rule.fix.steps) {
      ++steps;
      texts.push_back(&step.text);
      for (auto& a : step.argv) texts.push_back(&a);
    }
    for (auto& step : p.confirm) texts.push_back(&step.text);
    for (auto* t : texts) {
      INFO(rule.id << ": " << t->text);
      CHECK_FALSE(names_rules_file(t->text));
    }
  }
  CHECK(steps > 100);  // the catalogue was read, not an empty set
}
