// One pasted symptom, machines with different faults: each machine's own
// fault is the first cause (issue 13, "Must hold"). Four are recorded
// machines; three are the healthy RX 7900 XTX machine's facts with one fault
// written in (a CPU torch, a CUDA torch, an installed ROCm older than the
// GPU), replayed through --facts as a user would replay a saved facts file.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>

#include "catch.h"
#include "base/fact.h"
#include "test_support.h"

using namespace rocmdoc;
using test::run_rocmdoc;

namespace {

Json explain_json(const std::vector<std::string>& machine, const std::string& text) {
  std::vector<std::string> args = {"explain", "--json"};
  args.insert(args.end(), machine.begin(), machine.end());
  args.push_back(text);
  auto r = run_rocmdoc(args);
  INFO(r.err);
  return Json::parse(r.out);
}

std::vector<std::string> recorded(const std::string& name) { return {"--root", test::machine_root(name)}; }

// A recorded machine's facts read with the interpreters its expect.json names
// (a torch in a venv --root alone does not search), saved for --facts.
std::vector<std::string> recorded_with_python(const test::ScratchDir& dir, const std::string& name,
                                              const std::string& python) {
  auto saved = run_rocmdoc({"facts", "--root", test::machine_root(name), "--python", python});
  REQUIRE(saved.exit_code == 0);
  std::string path = (dir.path / (name + "-python.json")).string();
  std::ofstream(path) << saved.out;
  return {"--facts", path};
}

// The healthy machine's facts with `fault` applied, saved where --facts reads them.
std::vector<std::string> with_fault(const test::ScratchDir& dir, const std::string& name,
                                    const std::function<void(Json&)>& fault) {
  auto saved = run_rocmdoc({"facts", "--root", test::machine_root("ubuntu2404-rx7900xtx")});
  REQUIRE(saved.exit_code == 0);
  Json facts = Json::parse(saved.out);
  fault(facts);
  std::string path = (dir.path / (name + ".json")).string();
  std::ofstream(path) << facts.dump();
  return {"--facts", path};
}

Json torch(const std::string& version, const std::string& build) {
  return {{"site_packages", "/home/alex/venv/lib/python3.12/site-packages"},
          {"version", version},
          {"hip", build == "rocm" ? Json("6.4.43483") : Json(nullptr)},
          {"cuda", build == "cuda" ? Json("12.4") : Json(nullptr)},
          {"build", build},
          {"python_version", "3.12"}};
}

struct Case {
  std::string machine;
  std::vector<std::string> args;
  std::string fault;
};

}  // namespace

TEST_CASE("a pasted symptom gets each machine's own fault as the first cause", "[explain][symptoms]") {
  test::ScratchDir dir;
  std::vector<Case> cases = {
      {"amdgpu blacklisted", recorded("desktop-amdgpu-not-loaded"), "amdgpu-blacklisted"},
      {"user not in render", recorded("user-not-in-render"), "device-node-not-accessible"},
      // An RX 7700S (gfx1102) beside a visible 780M (gfx1103), with torch
      // 2.7.1+rocm6.3, which carries gfx1102 and not gfx1103: the iGPU, not
      // an override for the dGPU (which would rewrite the iGPU's target too).
      {"an iGPU beside the dGPU", recorded_with_python(dir, "laptop-780m-dgpu", "/home/maya/venvs/torch/bin/python3"),
       "igpu-and-dgpu-visible"},
      {"CPU torch", with_fault(dir, "cpu-torch", [](Json& f) { f["python"]["torch"] = {torch("2.5.1+cpu", "cpu")}; }),
       "torch-cpu-build-on-amd-gpu"},
      {"CUDA torch",
       with_fault(dir, "cuda-torch", [](Json& f) { f["python"]["torch"] = {torch("2.5.1+cu124", "cuda")}; }),
       "torch-cuda-build-on-amd-gpu"},
      // 5.7.0: its documents list no gfx1100 (5.7.1 supports it through the
      // "ROCm on Radeon" track, tests/radeon_track_test.cpp).
      {"ROCm 5.7.0 for an RX 7900 XTX", with_fault(dir, "old-rocm", [](Json& f) {
         for (auto& install : f["rocm"]["installs"]) install["version"] = "5.7.0-63";
       }),
       "installed-rocm-does-not-list-gpu"},
  };
  for (const std::string symptom : {"torch.cuda.is_available() returns False", "RuntimeError: No HIP GPUs are available",
                                    "torch.cuda.device_count() returns 0", "my GPU is not detected"}) {
    for (auto& c : cases) {
      INFO(symptom << " on " << c.machine);
      Json j = explain_json(c.args, symptom);
      // Only a ROCm build of torch prints "No HIP GPUs are available" (its
      // CUDA messages are hipified): that paste came from another torch than
      // the CPU or CUDA one these facts hold, and the text rules them out.
      if (symptom.find("No HIP GPUs") != std::string::npos && c.fault.rfind("torch-", 0) == 0) {
        bool listed = false;
        for (auto& cause : j["causes"])
          if (cause["id"] == c.fault) {
            listed = true;
            CHECK(cause["verdict"] == "refuted");
            CHECK(cause["ruled_out"] == "the text rules it out");
          }
        CHECK(listed);
        continue;
      }
      REQUIRE_FALSE(j["causes"].empty());
      CHECK(j["causes"][0]["id"] == c.fault);
      CHECK(j["causes"][0]["verdict"] == "confirmed");
      // A cause the facts refute is never offered above an open one.
      bool refuted_seen = false;
      for (auto& cause : j["causes"]) {
        if (cause["verdict"] == "refuted") {
          refuted_seen = true;
          CHECK(cause.contains("ruled_out"));
        } else {
          CHECK_FALSE(refuted_seen);
        }
      }
    }
  }
}

// The other symptoms, the same way: "no code for this GPU" on a machine
// whose installed ROCm lacks the GPU (an RX 7900 XTX under 5.7.0, a Strix
// Halo under 6.4.1), one whose GPU no release lists (an RX 7600S, users run
// it as 11.0.0), and a healthy one (the program's own build lacks the
// target); "ROCm sees no GPU" on a machine without the driver, one whose
// user is not in the render group, and an unprivileged LXC container whose
// nodes show as nobody:nogroup.
TEST_CASE("other symptoms get each machine's own fault as the first cause", "[explain][symptoms]") {
  test::ScratchDir dir;
  auto old_rocm = with_fault(dir, "old-rocm", [](Json& f) {
    for (auto& install : f["rocm"]["installs"]) install["version"] = "5.7.0-63";
  });
  auto strix_halo = with_fault(dir, "strix-halo", [](Json& f) {
    f["pci"]["gpus"][0]["device_id"] = "0x1586";
    f["kfd"]["gpus"][0]["gfx"] = "gfx1151";
  });
  // An RX 7600 (gfx1102, which no production release lists) alone, no torch.
  auto rx7600 = with_fault(dir, "rx7600", [](Json& f) {
    f["pci"]["gpus"][0]["device_id"] = "0x7480";
    f["kfd"]["gpus"][0]["gfx"] = "gfx1102";
    f["python"]["torch"] = Json::array();
  });
  auto laptop_torch = recorded_with_python(dir, "laptop-780m-dgpu", "/home/maya/venvs/torch/bin/python3");
  struct Symptom {
    std::vector<std::string> texts;
    std::vector<Case> cases;
  };
  std::vector<Symptom> symptoms = {
      {{"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!",
        "RuntimeError: HIP error: invalid device function"},
       {{"ROCm 5.7.0 for an RX 7900 XTX", old_rocm, "installed-rocm-does-not-list-gpu"},
        {"ROCm 6.4.1 for a Strix Halo", strix_halo, "installed-rocm-does-not-list-gpu"},
        {"an RX 7600 no release lists", rx7600, "unsupported-gfx-needs-override"},
        // The wheel carries the dGPU's gfx1102: the code missing is the
        // visible 780M's (gfx1103).
        {"an RX 7700S beside a 780M, torch 2.7.1+rocm6.3", laptop_torch, "igpu-and-dgpu-visible"},
        {"a healthy RX 7900 XTX", recorded("ubuntu2404-rx7900xtx"), "app-built-without-gpu-target"}}},
      {{"hsa api call failure at: rocminfo.cc:1306\nCall returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime "
        "failed to allocate the necessary resources.",
        "rocminfo says: Unable to open /dev/kfd read-write: Permission denied"},
       {{"amdgpu blacklisted", recorded("desktop-amdgpu-not-loaded"), "amdgpu-blacklisted"},
        {"user not in render", recorded("user-not-in-render"), "device-node-not-accessible"}}},
  };
  for (auto& symptom : symptoms)
    for (auto& text : symptom.texts)
      for (auto& c : symptom.cases) {
        INFO(text << " on " << c.machine);
        Json j = explain_json(c.args, text);
        REQUIRE_FALSE(j["causes"].empty());
        CHECK(j["causes"][0]["id"] == c.fault);
        CHECK(j["causes"][0]["verdict"] == "confirmed");
      }
  // The container: its nodes' ids are unmapped, which both container problems name.
  Json lxc = explain_json(recorded("proxmox-lxc-unprivileged"), "Unable to open /dev/kfd read-write: Permission denied");
  REQUIRE_FALSE(lxc["causes"].empty());
  std::string first = lxc["causes"][0]["id"];
  CHECK((first == "rootless-container-gpu-access" || first == "device-node-ids-unmapped"));
  CHECK(lxc["causes"][0]["verdict"] == "confirmed");
}

TEST_CASE("a torch build's fix uses the interpreter that imports it and the index for this GPU and release", "[explain][symptoms]") {
  test::ScratchDir dir;
  Json cpu = torch("2.5.1+cpu", "cpu");
  cpu["interpreters"] = {"/home/alex/venv/bin/python3"};
  Json j = explain_json(with_fault(dir, "cpu-torch", [&](Json& f) { f["python"]["torch"] = {cpu}; }),
                        "torch.cuda.is_available() returns False");
  REQUIRE_FALSE(j["causes"].empty());
  REQUIRE(j["causes"][0]["id"] == "torch-cpu-build-on-amd-gpu");
  const Json& fix = j["causes"][0]["fix"];
  REQUIRE(fix["steps"].size() == 2);
  for (auto& step : fix["steps"]) CHECK(step["argv"][0] == "/home/alex/venv/bin/python3");
  CHECK(fix["verify"][0] == "/home/alex/venv/bin/python3");
  // The machine has ROCm 6.4.1 installed: the wheel built for it, not the newest.
  CHECK(fix["steps"][1]["argv"].back() == "https://download.pytorch.org/whl/rocm6.4");
  CHECK(fix["steps"][1]["text"].get<std::string>().find("ROCm 6.4.1") != std::string::npos);

  // Without a machine: python3, and the newest torch's widest index from the
  // matrix (never a blank the user must fill in).
  j = explain_json({"--no-probe"}, "torch.cuda.is_available() returns False");
  auto cpu_cause = std::find_if(j["causes"].begin(), j["causes"].end(),
                                [](const Json& c) { return c["id"] == "torch-cpu-build-on-amd-gpu"; });
  REQUIRE(cpu_cause != j["causes"].end());
  const Json& general = (*cpu_cause)["fix"];
  REQUIRE(general["steps"].size() == 2);
  CHECK(general["steps"][0]["argv"][0] == "python3");
  CHECK(general["steps"][1]["argv"].back().get<std::string>().rfind("https://download.pytorch.org/whl/rocm", 0) == 0);
  CHECK(general["steps"][0]["text"].get<std::string>().find("not known") == std::string::npos);
}

TEST_CASE("without facts a symptom lists its problems most common first, none confirmed", "[explain][symptoms]") {
  Json j = explain_json({"--no-probe"}, "torch.cuda.is_available() returns False");
  REQUIRE(j["symptoms"].size() == 1);
  CHECK(j["symptoms"][0]["id"] == "torch-sees-no-gpu");
  REQUIRE(j["causes"].size() > 10);
  // PyPI's CUDA wheel first: a plain `pip install torch` on Linux gets it.
  CHECK(j["causes"][0]["id"] == "torch-cuda-build-on-amd-gpu");
  CHECK(j["causes"][1]["id"] == "torch-cpu-build-on-amd-gpu");
  // Undecided, or ruled out by the text itself (a llama.cpp build for a text
  // that shows no ggml program); never confirmed without facts.
  for (auto& cause : j["causes"]) CHECK(cause["verdict"] != "confirmed");
}

TEST_CASE("TensorFlow skipping a GPU no ROCm release lists names the GPU's override after the build", "[explain][symptoms]") {
  // The build has no code for the target (its own problem, first); the target
  // is in no release either, so the override that the other frameworks need
  // is the next cause, through the symptom "no code for this GPU".
  Json j = explain_json({"--no-probe"},
                        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:2015] Ignoring visible gpu device (device: 0, "
                        "name: AMD Radeon RX 6700 XT, pci bus id: 0000:03:00.0) with AMDGPU version : gfx1031. The "
                        "supported AMDGPU versions are gfx1030, gfx1100, gfx900, gfx906, gfx908, gfx90a.");
  REQUIRE(j["symptoms"].size() == 1);
  CHECK(j["symptoms"][0]["id"] == "no-code-for-gpu");
  REQUIRE(j["causes"].size() >= 2);
  CHECK(j["causes"][0]["id"] == "tensorflow-build-lacks-gpu-target");
  CHECK(j["causes"][1]["id"] == "unsupported-gfx-needs-override");
}

TEST_CASE("plain words reach the symptom, and a literal message outranks them", "[explain][symptoms]") {
  Json words = explain_json(recorded("user-not-in-render"), "rocminfo only works with sudo");
  REQUIRE_FALSE(words["causes"].empty());
  CHECK(words["causes"][0]["id"] == "device-node-not-accessible");
  CHECK(words["symptoms"][0]["id"] == "works-only-as-root");
  Json load = explain_json(recorded("desktop-amdgpu-not-loaded"), "amdgpu won't load after the update");
  REQUIRE_FALSE(load["causes"].empty());
  CHECK(load["causes"][0]["id"] == "amdgpu-blacklisted");
  // The literal message names its own cause directly, above the words' symptom.
  Json both = explain_json({"--no-probe"}, "my gpu is not detected\nModprobe: ERROR: could not insert 'amdgpu': Key was rejected by service");
  REQUIRE_FALSE(both["causes"].empty());
  CHECK(both["causes"][0]["id"] == "secure-boot-blocks-amdgpu-dkms");
  CHECK_FALSE(both["causes"][0].contains("symptom"));
}

TEST_CASE("what the text does not say is filled from the machine's facts", "[explain][symptoms]") {
  const std::string no_binary = "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!";
  Json j = explain_json(recorded("laptop-780m-dgpu"), no_binary);
  REQUIRE_FALSE(j["causes"].empty());
  // The discrete gfx1102, not the iGPU's gfx1103, and never "<gfx>".
  CHECK(j["text"]["gfx"] == "gfx1102");
  CHECK(j["text"]["from_machine"] == Json::array({"gfx", "kernel_release"}));
  // The override for gfx1102 is ruled out (the 780M beside it is visible and
  // lacks code too, and an override rewrites both).
  auto override_cause = std::find_if(j["causes"].begin(), j["causes"].end(), [](const Json& c) {
    return c["id"] == "unsupported-gfx-needs-override";
  });
  REQUIRE(override_cause != j["causes"].end());
  CHECK((*override_cause)["verdict"] == "refuted");
  // Ruled out, it shows its generic title (no fact filled in asserts it).
  CHECK((*override_cause)["title"].get<std::string>().find("The GPU's gfx target is not in the ROCm binaries") == 0);
  for (auto& cause : j["causes"]) CHECK(cause["title"].get<std::string>().find("<gfx>") == std::string::npos);
  // A gfx the text names is kept, and nothing is filled without facts.
  Json named = explain_json(recorded("laptop-780m-dgpu"), "rocBLAS error: Cannot read TensileLibrary.dat: for GPU arch : gfx1103");
  CHECK(named["text"]["gfx"] == "gfx1103");
  CHECK(named["text"]["from_machine"] == Json::array({"kernel_release"}));
  Json bare = explain_json({"--no-probe"}, no_binary);
  CHECK_FALSE(bare["text"].contains("from_machine"));

  // The fix names the one override value for this GPU (gfx1102 runs as
  // gfx1100: 11.0.0 in the matrix), not the family table; without a GPU the
  // table, and no fact reads "(... not known)" in a sentence.
  auto fix_text = [](const Json& cause) {
    std::string all;
    for (auto& step : cause["fix"]["steps"]) all += step["text"].get<std::string>() + "\n";
    return all;
  };
  std::string narrowed = fix_text(*override_cause);
  CHECK(narrowed.find("HSA_OVERRIDE_GFX_VERSION=11.0.0, the value users run gfx1102 with") != std::string::npos);
  CHECK(narrowed.find("10.3.0 for RDNA2") == std::string::npos);
  bool override_listed = false;
  for (auto& cause : bare["causes"])
    if (cause["id"] == "unsupported-gfx-needs-override") {
      override_listed = true;
      std::string general = fix_text(cause);
      CHECK(general.find("10.3.0 for RDNA2 (gfx103x), 11.0.0 for RDNA3") != std::string::npos);
      CHECK(general.find("not known") == std::string::npos);
      CHECK(general.find("-DAMDGPU_TARGETS=<gfx>") != std::string::npos);  // a blank named for the fact, not "<default>"
    }
  CHECK(override_listed);
}

TEST_CASE("torch not importable names the interpreters that do have it", "[explain][symptoms]") {
  // The recorded RX 7900 XTX machine has torch in ~/venv, not for /usr/bin/python3.
  Json j = explain_json(recorded("ubuntu2404-rx7900xtx"), "ModuleNotFoundError: No module named 'torch'");
  REQUIRE_FALSE(j["causes"].empty());
  CHECK(j["symptoms"][0]["id"] == "torch-not-importable");
  CHECK(j["causes"][0]["id"] == "torch-in-another-interpreter");
  CHECK(j["causes"][0]["verdict"] == "confirmed");
  CHECK(j["causes"][0]["title"].get<std::string>().find("/home/alex/venv/bin/python3") != std::string::npos);
  // Where no torch is installed at all, that cause is ruled out.
  Json none = explain_json(recorded("desktop-amdgpu-not-loaded"), "ModuleNotFoundError: No module named 'torch'");
  for (auto& cause : none["causes"])
    if (cause["id"] == "torch-in-another-interpreter") CHECK(cause["verdict"] == "refuted");
}

TEST_CASE("the OpenCL runtimes registered on the machine decide an OpenCL program's causes", "[explain][symptoms]") {
  test::ScratchDir dir;
  Json amd = {{"file", "/etc/OpenCL/vendors/amdocl64_60401_83.icd"}, {"library", "libamdocl64.so"}};
  Json rusticl = {{"file", "/etc/OpenCL/vendors/rusticl.icd"}, {"library", "libRusticlOpenCL.so.1"}};
  auto registered = [&](const std::string& name, Json icds) {
    return with_fault(dir, name, [&](Json& f) { f["rocm"]["opencl_icds"] = icds; });
  };
  auto amd_only = registered("amd", Json::array({amd}));
  auto with_rusticl = registered("rusticl", Json::array({amd, rusticl}));
  auto none = registered("none", Json::array());
  auto verdict_of = [](const Json& j, const std::string& id) {
    for (auto& c : j["causes"])
      if (c["id"] == id) return c["verdict"].get<std::string>();
    return std::string("absent");
  };

  // A crash of an OpenCL program: Mesa's runtime registered beside AMD's is
  // the likelier cause on the machine that has it, and only there.
  const std::string crash = "darktable crashes when OpenCL is enabled: Segmentation fault (core dumped)";
  Json mesa_machine = explain_json(with_rusticl, crash);
  REQUIRE_FALSE(mesa_machine["causes"].empty());
  CHECK(mesa_machine["causes"][0]["id"] == "mesa-opencl-icd-crashes-opencl-program");
  Json amd_machine = explain_json(amd_only, crash);
  REQUIRE_FALSE(amd_machine["causes"].empty());
  CHECK(amd_machine["causes"][0]["id"] != "mesa-opencl-icd-crashes-opencl-program");
  // A crash that is not an OpenCL program's: rusticl registered changes nothing.
  const std::string torch_crash = "python3 -c 'import torch; torch.ones(1).cuda()' crashes: Segmentation fault (core dumped)";
  Json torch_on_mesa = explain_json(with_rusticl, torch_crash);
  Json torch_on_amd = explain_json(amd_only, torch_crash);
  REQUIRE_FALSE(torch_on_mesa["causes"].empty());
  CHECK(torch_on_mesa["causes"][0]["id"] == torch_on_amd["causes"][0]["id"]);
  CHECK(torch_on_mesa["causes"][0]["id"] != "mesa-opencl-icd-crashes-opencl-program");

  // No OpenCL platform: AMD's runtime registered rules "not installed" out,
  // and says which facts did; with none registered the machine's packages
  // (no rocm-opencl) confirm it, as they did before the fact existed.
  const std::string no_platform = "clinfo\nNumber of platforms                               0";
  CHECK(verdict_of(explain_json(amd_only, no_platform), "amd-opencl-runtime-missing") == "refuted");
  CHECK(verdict_of(explain_json(none, no_platform), "amd-opencl-runtime-missing") == "confirmed");
  std::vector<std::string> text_args = {"explain"};
  text_args.insert(text_args.end(), amd_only.begin(), amd_only.end());
  text_args.push_back(no_platform);
  auto text = run_rocmdoc(text_args);
  CHECK(text.out.find("amd-opencl-runtime-missing: the facts rule it out") != std::string::npos);
  CHECK(text.out.find("rocm.opencl_icds") != std::string::npos);
}

// "amdgpu won't load" on machines whose amdgpu is loaded: the kernel is not
// too old for Fedora 43's own ROCm 6.4.2 on a 6.17 kernel, newer than every
// series a row of 6.4.2 lists; no cause stays open, and check's findings
// follow. On CentOS Stream 9 without ROCm packages rocmdoc found no torch
// either, which is not no torch (a venv it did not search may hold a ROCm
// wheel and its runtime): kernel-too-old-for-rocm-runtime stays open there.
TEST_CASE("amdgpu does not load: a kernel newer than the runtime expects is not too old, no torch found leaves it open", "[explain][symptoms]") {
  for (std::string machine : {"fedora43-distro-rocm", "centos-stream9-no-rocm"}) {
    INFO(machine);
    Json j = explain_json(recorded(machine), "amdgpu won't load after the update");
    bool listed = false;
    for (auto& cause : j["causes"]) {
      bool open = machine == "centos-stream9-no-rocm" && cause["id"] == "kernel-too-old-for-rocm-runtime";
      CHECK(cause["verdict"] == (open ? "undecided" : "refuted"));
      if (cause["id"] == "kernel-too-old-for-rocm-runtime") listed = true;
    }
    CHECK(listed);
    CHECK_FALSE(j["machine_problems"].empty());
  }
}

// A package manager that knows no ROCm package: rocmdoc install writes
// AMD's repositories on Debian and Ubuntu only, so on Rocky Linux (AMD's
// repositories already in /etc/yum.repos.d) the fix is dnf's, never
// `rocmdoc install`; dnf's own messages are recognised.
TEST_CASE("a package not found is answered in the machine's package manager's terms", "[explain][symptoms]") {
  auto fix_text = [](const Json& cause) {
    std::string all;
    for (auto& step : cause["fix"]["steps"]) all += step["text"].get<std::string>() + "\n";
    return all;
  };
  for (const char* text : {"E: Unable to locate package rocm", "Error: Unable to find a match: rocm"}) {
    INFO(text);
    Json rocky = explain_json(recorded("rocky96-amd-rocm"), text);
    REQUIRE_FALSE(rocky["causes"].empty());
    CHECK(rocky["causes"][0]["id"] == "rocm-package-name-unknown-to-package-manager");
    std::string fix = fix_text(rocky["causes"][0]);
    CHECK(fix.find("rocmdoc install") == std::string::npos);
    CHECK(fix.find("/etc/yum.repos.d") != std::string::npos);
    Json centos = explain_json(recorded("centos-stream9-no-rocm"), text);
    REQUIRE_FALSE(centos["causes"].empty());
    CHECK(centos["causes"][0]["id"] == "rocm-package-name-unknown-to-package-manager");
    CHECK(fix_text(centos["causes"][0]).find("rocmdoc install") == std::string::npos);
  }
  // dnf's "Problem: conflicting requests" is a signal of the mixed package sets.
  Json mixed = explain_json(recorded("fedora43-mixed-amd-repo"), "Problem: conflicting requests");
  REQUIRE_FALSE(mixed["causes"].empty());
  CHECK(mixed["causes"][0]["id"] == "distro-rocm-packages-mixed-with-amd");
  CHECK(mixed["causes"][0]["verdict"] == "confirmed");
  CHECK(mixed["recognised"] == true);
}

// rocminfo's harmless "ROCk module is NOT loaded" in a container is that
// line's problem only: the user's own words that amdgpu does not load are
// no false alarm, however the container's facts look.
TEST_CASE("plain words that amdgpu does not load are not rocminfo's false alarm", "[explain][symptoms]") {
  Json words = explain_json(recorded("mi300x-container"), "amdgpu won't load after the update");
  for (auto& cause : words["causes"])
    if (cause["id"] == "rocminfo-rock-false-alarm-in-container") {
      CHECK(cause["verdict"] == "refuted");
      CHECK(cause["ruled_out"] == "the text rules it out");
    }
  Json line = explain_json(recorded("mi300x-container"), "ROCk module is NOT loaded, possibly no GPU devices");
  bool confirmed = false;
  for (auto& cause : line["causes"])
    if (cause["id"] == "rocminfo-rock-false-alarm-in-container") confirmed = cause["verdict"] == "confirmed";
  CHECK(confirmed);
}

// Docker inside a VM with no GPU on its bus: the VM has none passed through
// (the host's hypervisor), not a card to reseat.
TEST_CASE("a container inside a VM without a GPU is told about passthrough, not hardware", "[explain][symptoms]") {
  Json j = explain_json(recorded("debian12-vm-distro-rocm"), "my GPU is not detected");
  REQUIRE_FALSE(j["causes"].empty());
  CHECK(j["causes"][0]["id"] == "no-gpu-found");
  CHECK(j["causes"][0]["verdict"] == "confirmed");
  REQUIRE(j["causes"][0]["fix"]["steps"].size() == 1);
  std::string fix = j["causes"][0]["fix"]["steps"][0]["text"];
  CHECK(fix.find("passed through") != std::string::npos);
  CHECK(fix.find("reseat") == std::string::npos);
  // check says the same.
  auto check = run_rocmdoc({"check", "--root", test::machine_root("debian12-vm-distro-rocm")});
  CHECK(check.out.find("reseat") == std::string::npos);
  CHECK(check.out.find("passed through to it") != std::string::npos);
}

// The same VM has no AMD GPU at all: words about a suspend cannot be amdgpu
// failing to resume one (the kernel log, unreadable here, cannot say so).
TEST_CASE("a VM without an AMD GPU rules out amdgpu failing to resume", "[explain][symptoms]") {
  Json j = explain_json(recorded("debian12-vm-distro-rocm"), "the GPU stopped working after suspend");
  bool found = false;
  for (auto& cause : j["causes"]) {
    if (cause["id"] != "amdgpu-resume-failed") continue;
    found = true;
    CHECK(cause["verdict"] == "refuted");
    CHECK(cause.value("ruled_out", "").find("gpus is empty") != std::string::npos);
  }
  CHECK(found);
}
