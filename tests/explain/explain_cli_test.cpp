// rocmdoc explain end to end: inputs, facts modes, output, exit codes.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "catch.h"
#include "base/fact.h"
#include "test_support.h"

using namespace rocmdoc;
using test::run_rocmdoc;

namespace {

Json json_of(const test::CliRun& r) {
  INFO(r.err);
  return Json::parse(r.out);
}

std::string top_id(const Json& j) { return j["causes"].empty() ? "" : j["causes"][0]["id"].get<std::string>(); }

const char* kOutOfResources =
    "hsa api call failure at line 1204, file: rocminfo.cc. Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: "
    "The runtime failed to allocate the necessary resources.";

}  // namespace

TEST_CASE("explain --no-probe --json names the cause and shows the evidence line", "[explain][cli]") {
  auto r = run_rocmdoc({"explain", "--no-probe", "--json",
                        "loading model\nRuntimeError: Torch not compiled with CUDA enabled\n"});
  CHECK(r.exit_code == 0);
  Json j = json_of(r);
  CHECK(j["recognised"] == true);
  CHECK(top_id(j) == "torch-cpu-build-on-amd-gpu");
  CHECK(j["causes"][0]["evidence"][0]["line"] == 2);
  CHECK(j["causes"][0]["evidence"][0]["text"] == "RuntimeError: Torch not compiled with CUDA enabled");
  CHECK(j["facts_from"].is_null());
  CHECK(j["causes"][0]["fix"]["steps"].size() > 0);
}

// With no machine facts nothing is known of the PCI devices: a problem that
// needs an AMD GPU there stays open, never "ruled out" by a null list.
TEST_CASE("explain --no-probe leaves a problem that reads the PCI devices undecided", "[explain][cli]") {
  Json j = json_of(run_rocmdoc({"explain", "--no-probe", "--json", "/bin/sh: 1: nvidia-smi: not found"}));
  bool listed = false;
  for (auto& cause : j["causes"])
    if (cause["id"] == "app-requires-nvidia-smi") {
      listed = true;
      CHECK(cause["verdict"] == "undecided");
    }
  CHECK(listed);
}

TEST_CASE("the machine's facts decide between the causes a routing message points to", "[explain][cli]") {
  auto not_loaded = run_rocmdoc({"explain", "--json", "--root", test::machine_root("desktop-amdgpu-not-loaded"), kOutOfResources});
  auto no_group = run_rocmdoc({"explain", "--json", "--root", test::machine_root("user-not-in-render"), kOutOfResources});
  auto text_only = run_rocmdoc({"explain", "--json", "--no-probe", kOutOfResources});
  Json a = json_of(not_loaded), b = json_of(no_group), c = json_of(text_only);
  // The driver is not loaded because it is blacklisted: the specific cause,
  // which check reports, comes first, and the generic one is ruled out.
  CHECK(top_id(a) == "amdgpu-blacklisted");
  CHECK(a["causes"][0]["verdict"] == "confirmed");
  CHECK(top_id(b) == "device-node-not-accessible");
  CHECK(b["causes"][0]["verdict"] == "confirmed");
  // Without facts nothing is confirmed; the text alone puts the driver first (triage order).
  for (auto& cause : c["causes"]) CHECK(cause["verdict"] != "confirmed");
  CHECK(top_id(c) == "amdgpu-not-loaded");
  // Both directions: the facts of the render-group machine promote its cause and demote the
  // driver (loaded there) below every cause they leave open.
  auto verdict_of = [](const Json& j, const std::string& id) {
    for (auto& cause : j["causes"])
      if (cause["id"] == id) return cause["verdict"].get<std::string>();
    return std::string("absent");
  };
  CHECK(verdict_of(b, "amdgpu-not-loaded") == "refuted");
  CHECK(verdict_of(a, "device-node-not-accessible") == "refuted");
}

TEST_CASE("a fix names this machine's package manager, and none on the text alone", "[explain][cli]") {
  const char* apt = "E: Unable to locate package rocm-hip-sdk";
  auto commands = [](const Json& j) {
    std::vector<std::string> out;
    REQUIRE(top_id(j) == "rocm-package-name-unknown-to-package-manager");
    for (auto& step : j["causes"][0]["fix"]["steps"])
      if (!step["argv"].empty()) out.push_back(step["argv"][0].get<std::string>());
    return out;
  };
  using V = std::vector<std::string>;
  // Ubuntu, a release AMD lists: refresh, AMD's repository, apt's search.
  CHECK(commands(json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("ubuntu2204-rx6700xt"), apt}))) ==
        V{"apt-get", "rocmdoc", "apt-cache"});
  // Arch: no AMD repository to add (install would refuse), pacman's search.
  CHECK(commands(json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("arch-distro-rocm"), apt}))) ==
        V{"pacman"});
  CHECK(commands(json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("fedora43-distro-rocm"), apt}))) ==
        V{"dnf"});
  // No facts: no command for a package manager the text does not name.
  CHECK(commands(json_of(run_rocmdoc({"explain", "--json", "--no-probe", apt}))).empty());
}

TEST_CASE("a paste through a forum or a web page is explained as the program's own output", "[explain][cli]") {
  auto plain = json_of(run_rocmdoc({"explain", "--no-probe", "--json", "ModuleNotFoundError: No module named 'torch'"}));
  REQUIRE_FALSE(plain["causes"].empty());
  for (const char* paste : {"ModuleNotFoundError: No module named \xE2\x80\x98torch\xE2\x80\x99",
                            "ModuleNotFoundError: No module named &#39;torch&#39;"}) {
    auto j = json_of(run_rocmdoc({"explain", "--no-probe", "--json", paste}));
    CHECK(top_id(j) == top_id(plain));
    CHECK(j["causes"][0]["evidence"][0]["text"] == "ModuleNotFoundError: No module named 'torch'");
  }
}

TEST_CASE("the fix for a mismatched torchvision installs from the index of the torch the text shows", "[explain][cli]") {
  auto steps = [](const std::string& text) {
    Json j = json_of(run_rocmdoc({"explain", "--no-probe", "--json", text}));
    REQUIRE(top_id(j) == "torchvision-built-for-another-torch");
    return j["causes"][0]["fix"]["steps"];
  };
  Json known = steps("pytorch version: 2.10.0+rocm7.1\nRuntimeError: operator torchvision::nms does not exist");
  REQUIRE_FALSE(known[0]["argv"].empty());
  std::vector<std::string> argv = known[0]["argv"];
  CHECK(argv.back() == "https://download.pytorch.org/whl/rocm7.1");
  CHECK(std::find(argv.begin(), argv.end(), "torch==2.10.0+rocm7.1") != argv.end());
  // A nightly the matrix does not list: the rule to find the index, no command.
  Json nightly = steps("pytorch version: 2.3.0.dev20240126+rocm6.0\nRuntimeError: operator torchvision::nms does not exist");
  CHECK(nightly[0]["argv"].empty());
  CHECK(nightly[0]["text"].get<std::string>().find("+rocm suffix") != std::string::npos);
}

TEST_CASE("a root cause comes before the problem it leads to", "[explain][cli]") {
  // pip found no ROCm wheel for this Python, then took PyPI's CUDA torch,
  // which finds no NVIDIA driver: both problems are in the text.
  const char* log =
      "ERROR: Could not find a version that satisfies the requirement torch (from versions: none)\n"
      "ERROR: No matching distribution found for torch\n"
      "Collecting nvidia-cudnn-cu12==9.1.0.70 (from torch)\n"
      "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver\n";
  Json j = json_of(run_rocmdoc({"explain", "--no-probe", "--json", log}));
  REQUIRE(j["causes"].size() >= 2);
  CHECK(j["causes"][0]["id"] == "no-torch-wheel-for-python-or-platform");
  CHECK(j["causes"][1]["id"] == "torch-cuda-build-on-amd-gpu");
  // The CUDA torch alone: it is the answer.
  Json alone = json_of(run_rocmdoc({"explain", "--no-probe", "--json", "Collecting nvidia-cudnn-cu12==9.1.0.70 (from torch)"}));
  CHECK(top_id(alone) == "torch-cuda-build-on-amd-gpu");
}

TEST_CASE("by default explain judges on this machine's own facts", "[explain][cli][live]") {
  auto live = run_rocmdoc({"explain", "--json", kOutOfResources});
  auto text_only = run_rocmdoc({"explain", "--json", "--no-probe", kOutOfResources});
  Json a = json_of(live), b = json_of(text_only);
  CHECK(a["facts_from"] == "this machine");
  // The same candidates, but the facts decide some of them.
  REQUIRE(a["causes"].size() == b["causes"].size());
  size_t decided = 0;
  for (auto& cause : a["causes"]) decided += cause["verdict"] != "undecided";
  CHECK(decided > 0);
}

TEST_CASE("facts from a file judge like the recorded machine they came from", "[explain][cli]") {
  std::string facts_file =
      (std::filesystem::temp_directory_path() / ("rocmdoc-explain-facts-" + std::to_string(::getpid()) + ".json")).string();
  auto saved = run_rocmdoc({"facts", "--root", test::machine_root("user-not-in-render"), "-o", facts_file});
  REQUIRE(saved.exit_code == 0);
  auto r = run_rocmdoc({"explain", "--json", "--facts", facts_file, kOutOfResources});
  CHECK(top_id(json_of(r)) == "device-node-not-accessible");
  std::filesystem::remove(facts_file);
}

TEST_CASE("text that matches nothing says so and where to report it", "[explain][cli]") {
  auto r = run_rocmdoc({"explain", "--no-probe", "Traceback (most recent call last):\n  File \"x.py\"\nimport torch\nKeyError: 'lr'"});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("Nothing in this text") != std::string::npos);
  CHECK(r.out.find("https://github.com/pytorch/pytorch/issues") != std::string::npos);
  CHECK(r.out.find("rocmdoc snapshot") != std::string::npos);
}

TEST_CASE("explain input errors exit 2 and say what and where", "[explain][cli]") {
  auto missing = run_rocmdoc({"explain", "--no-probe", "-f", "/nonexistent/train.log"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("/nonexistent/train.log") != std::string::npos);
  auto dir = run_rocmdoc({"explain", "--no-probe", "-f", "/"});
  CHECK(dir.exit_code == 2);
  auto both = run_rocmdoc({"explain", "--no-probe", "--facts", "x.json", "text"});
  CHECK(both.exit_code == 2);
  auto bad_facts = run_rocmdoc({"explain", "--facts", "/nonexistent.json", "text"});
  CHECK(bad_facts.exit_code == 2);
  CHECK(bad_facts.err.find("/nonexistent.json") != std::string::npos);
  auto run_nothing = run_rocmdoc({"explain", "--run"});
  CHECK(run_nothing.exit_code == 2);
}

TEST_CASE("explain --run passes output through and explains a failure", "[explain][cli]") {
  auto failed = run_rocmdoc({"explain", "--no-probe", "--run", "--", "/bin/sh", "-c",
                             "echo step 1; echo 'RuntimeError: Torch not compiled with CUDA enabled' >&2; exit 3"});
  CHECK(failed.exit_code == 3);
  CHECK(failed.out == "step 1\n");
  CHECK(failed.err.find("RuntimeError: Torch not compiled with CUDA enabled\n") == 0);
  CHECK(failed.err.find("torch-cpu-build-on-amd-gpu") != std::string::npos);
  auto ok = run_rocmdoc({"explain", "--no-probe", "--run", "--", "/bin/sh", "-c", "echo hipErrorNoBinaryForGpu"});
  CHECK(ok.exit_code == 0);
  CHECK(ok.out == "hipErrorNoBinaryForGpu\n");
  CHECK(ok.err.empty());
  auto absent = run_rocmdoc({"explain", "--no-probe", "--run", "--", "/nonexistent/tool"});
  CHECK(absent.exit_code == 2);
}

TEST_CASE("benign noise never ranks above a real error", "[explain][cli]") {
  auto r = run_rocmdoc({"explain", "--no-probe", "--json",
                        "MIOpen(HIP): Warning [SQLiteBase] Missing system database file: gfx1030_30.kdb Performance may degrade. "
                        "Please follow instructions to install: https://github.com/ROCmSoftwarePlatform/MIOpen#installing-miopen-kernels-package\n"
                        "RuntimeError: Torch not compiled with CUDA enabled\n"});
  Json j = json_of(r);
  REQUIRE(j["causes"].size() >= 2);
  CHECK(top_id(j) == "torch-cpu-build-on-amd-gpu");
  // After the benign line come only causes the text itself rules out.
  bool benign_seen = false;
  for (auto& cause : j["causes"]) {
    if (cause["severity"] == "benign") benign_seen = true;
    else if (benign_seen) CHECK(cause["verdict"] == "refuted");
  }
  CHECK(benign_seen);
}

// issue 13: a symptom the catalogue has no signature for, on a machine
// whose driver check knows to be blacklisted, names that problem instead
// of sending the user upstream; on a healthy machine, and from the text
// alone, it still says where to report.
TEST_CASE("explain names check's problems when the text names nothing known", "[explain][cli]") {
  // A real error, but not one the catalogue knows.
  const std::string unknown = "torch.nn.functional: RuntimeError: expected scalar type BFloat16 but found Float";
  auto broken = run_rocmdoc({"explain", "--root", test::machine_root("desktop-amdgpu-not-loaded"), unknown});
  INFO(broken.out);
  CHECK(broken.exit_code == 1);
  CHECK(broken.out.find("on this machine, check finds:") != std::string::npos);
  CHECK(broken.out.find("✗ amdgpu-blacklisted: amdgpu is blacklisted") != std::string::npos);
  CHECK(broken.out.find("eport it") == std::string::npos);

  auto json = run_rocmdoc({"explain", "--root", test::machine_root("desktop-amdgpu-not-loaded"), "--json", unknown});
  Json doc = Json::parse(json.out);
  REQUIRE(doc["machine_problems"].is_array());
  REQUIRE(!doc["machine_problems"].empty());
  CHECK(doc["machine_problems"][0]["id"] == "amdgpu-blacklisted");
  CHECK(doc["machine_problems"][0]["severity"] == "error");

  auto healthy = run_rocmdoc({"explain", "--root", test::machine_root("ubuntu2404-rx7900xtx"), unknown});
  CHECK(healthy.out.find("check finds") == std::string::npos);
  CHECK(healthy.out.find("report it at https://github.com/pytorch/pytorch/issues") != std::string::npos);

  auto text_only = run_rocmdoc({"explain", "--no-probe", "--json", unknown});
  CHECK(Json::parse(text_only.out)["machine_problems"] == Json::array());
}

namespace {

// The cause with this id in explain --json's causes, or null.
Json cause_of(const Json& j, const std::string& id) {
  for (auto& c : j["causes"])
    if (c["id"] == id) return c;
  return nullptr;
}

std::string step_texts(const Json& cause) {
  std::string out;
  for (auto& s : cause["fix"]["steps"]) out += s["text"].get<std::string>() + "\n";
  return out;
}

const char* kHipMissing =
    "./llama-server: error while loading shared libraries: libamdhip64.so.6: cannot open shared object file: "
    "No such file or directory\n";

}  // namespace

TEST_CASE("a missing ROCm library is named with its package and the install command", "[explain][cli][libraries]") {
  // A recorded Ubuntu 24.04 machine with ROCm 6.4.1 from AMD's packages:
  // hip-runtime-amd is installed, rocblas is not. A program that cannot
  // load librocblas gets the package that ships it, confirmed by the
  // machine's package list.
  const char* rocblas_missing =
      "OSError: librocblas.so.4: cannot open shared object file: No such file or directory\n";
  auto text = run_rocmdoc({"explain", "--root", test::machine_root("ubuntu2404-rx7900xtx"), rocblas_missing});
  INFO(text.out << text.err);
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("✗ libamdhip64-or-runtime-lib-not-found:") != std::string::npos);
  CHECK(text.out.find("librocblas.so.4 is in package rocblas: sudo apt install rocblas") != std::string::npos);
  CHECK(text.out.find("$ sudo apt-get install rocblas") != std::string::npos);
  auto json = run_rocmdoc({"explain", "--json", "--root", test::machine_root("ubuntu2404-rx7900xtx"), rocblas_missing});
  Json cause = cause_of(json_of(json), "libamdhip64-or-runtime-lib-not-found");
  REQUIRE(cause.is_object());
  CHECK(cause["verdict"] == "confirmed");
  bool command = false;
  for (auto& s : cause["fix"]["steps"])
    command = command || s.value("argv", Json::array()) == Json::array({"apt-get", "install", "rocblas"});
  CHECK(command);

  // libamdhip64 is ROCm's own, not a system library, and its package is
  // installed here: nothing tells the user to install what they have.
  auto hip = run_rocmdoc({"explain", "--json", "--root", test::machine_root("ubuntu2404-rx7900xtx"), kHipMissing});
  Json doc = json_of(hip);
  for (auto& c : doc["causes"]) {
    INFO(c["id"]);
    if (c.value("verdict", "") == "refuted") continue;
    CHECK(step_texts(c).find("sudo apt install hip-runtime-amd") == std::string::npos);
  }
  Json system = cause_of(doc, "rocm-package-undeclared-system-dependency");
  REQUIRE(system.is_object());
  CHECK(system["verdict"] == "refuted");
}

TEST_CASE("without AMD's repository a missing ROCm library is the distribution's own package, of its soname major",
          "[explain][cli][libraries]") {
  // A fresh Ubuntu 26.04 (no ROCm, no AMD repository): AMD's hip-runtime-amd
  // cannot install, Ubuntu's own libamdhip64-7 (ROCm 7.1.0) ships .so.7.
  const char* hip7 =
      "./llama-server: error while loading shared libraries: libamdhip64.so.7: cannot open shared object file: "
      "No such file or directory\n";
  auto json = run_rocmdoc({"explain", "--json", "--root", test::machine_root("ubuntu2604-rx7900xtx"), hip7});
  Json cause = cause_of(json_of(json), "libamdhip64-or-runtime-lib-not-found");
  REQUIRE(cause.is_object());
  std::string steps = step_texts(cause);
  INFO(steps);
  CHECK(steps.find("libamdhip64.so.7 is in Ubuntu 26.04's own package libamdhip64-7") != std::string::npos);
  bool own = false, rocmdoc_install = false, amd_name = false;
  for (auto& s : cause["fix"]["steps"]) {
    Json argv = s.value("argv", Json::array());
    own = own || argv == Json::array({"apt-get", "install", "libamdhip64-7"});
    rocmdoc_install = rocmdoc_install || argv == Json::array({"rocmdoc", "install", "--auto", "--dry-run"});
    amd_name = amd_name || argv == Json::array({"apt-get", "install", "hip-runtime-amd"}) ||
               argv == Json::array({"apt-get", "install", "rocm-hip-runtime"});
  }
  CHECK(own);
  CHECK(rocmdoc_install);
  CHECK_FALSE(amd_name);  // no repository configured here has them
  // A program built for ROCm 6 needs .so.6, which Ubuntu 26.04 does not
  // ship: no distribution package, still the way to AMD's repository.
  auto six = run_rocmdoc({"explain", "--json", "--root", test::machine_root("ubuntu2604-rx7900xtx"), kHipMissing});
  Json for_six = cause_of(json_of(six), "libamdhip64-or-runtime-lib-not-found");
  REQUIRE(for_six.is_object());
  CHECK(step_texts(for_six).find("libamdhip64-7") == std::string::npos);
  CHECK(step_texts(for_six).find("AMD's repository, which is not configured here") != std::string::npos);
  // With AMD's repository configured (ROCm 6.4.1 from it on 24.04), AMD's
  // package names stay and the distribution's are not offered.
  // libamdhip64.so.5 is the .so Ubuntu 24.04's own libamdhip64-5 ships.
  auto amd = run_rocmdoc({"explain", "--json", "--root", test::machine_root("ubuntu2404-rx7900xtx"),
                          "OSError: libamdhip64.so.5: cannot open shared object file: No such file or directory\n"});
  Json with_amd = cause_of(json_of(amd), "libamdhip64-or-runtime-lib-not-found");
  REQUIRE(with_amd.is_object());
  INFO(step_texts(with_amd));
  CHECK(step_texts(with_amd).find("libamdhip64.so.5 is in package hip-runtime-amd: sudo apt install hip-runtime-amd") !=
        std::string::npos);
  CHECK(step_texts(with_amd).find("own package") == std::string::npos);
  CHECK(step_texts(with_amd).find("is not configured here") == std::string::npos);
}

TEST_CASE("a missing library the map has no package for keeps the search", "[explain][cli][libraries]") {
  // Arch: the map names no package, so the fix says how to look it up.
  auto json = run_rocmdoc({"explain", "--json", "--root", test::machine_root("arch-distro-rocm"), kHipMissing});
  Json cause = cause_of(json_of(json), "libamdhip64-or-runtime-lib-not-found");
  REQUIRE(cause.is_object());
  std::string steps = step_texts(cause);
  INFO(steps);
  CHECK(steps.find("is in package") == std::string::npos);
  CHECK(steps.find("apt-file search") != std::string::npos);
  // Fedora's ROCm is its own: AMD's package name would not install there.
  auto fedora = run_rocmdoc({"explain", "--json", "--root", test::machine_root("fedora43-distro-rocm"), kHipMissing});
  Json on_fedora = cause_of(json_of(fedora), "libamdhip64-or-runtime-lib-not-found");
  REQUIRE(on_fedora.is_object());
  CHECK(step_texts(on_fedora).find("hip-runtime-amd") == std::string::npos);
  CHECK(step_texts(on_fedora).find("apt-file search") != std::string::npos);

  // A system library on Fedora: the package from the map, and dnf.
  auto numa = run_rocmdoc({"explain", "--json", "--root", test::machine_root("fedora43-distro-rocm"),
                           "hipcc: error while loading shared libraries: libnuma.so.1: cannot open shared object "
                           "file: No such file or directory\n"});
  Json system = cause_of(json_of(numa), "rocm-package-undeclared-system-dependency");
  REQUIRE(system.is_object());
  CHECK(step_texts(system).find("libnuma.so.1 is in package numactl-libs: sudo dnf install numactl-libs") !=
        std::string::npos);
}

// The goldens mask rule_file's line:column (tests/golden_test.cpp), so this
// is where it is checked: each cause's rule_file names the line of its own
// `- id:` in the rules tree.
TEST_CASE("each cause's rule_file points at the line that defines it", "[explain][cli]") {
  auto r = run_rocmdoc({"explain", "--no-probe", "--json",
                        "RuntimeError: No HIP GPUs are available\nhipErrorNoBinaryForGpu\n"
                        "Unable to open /dev/kfd read-write: Permission denied\n"});
  Json j = json_of(r);
  REQUIRE(j["causes"].size() >= 3);
  for (auto& cause : j["causes"]) {
    std::string where = cause["rule_file"].get<std::string>(), id = cause["id"].get<std::string>();
    INFO(id << " at " << where);
    size_t colon = where.find(".yaml:");
    REQUIRE(colon != std::string::npos);
    std::string file = where.substr(0, colon + 5);
    int line = std::stoi(where.substr(colon + 6));
    std::ifstream in(test::source_path(file));
    REQUIRE(in);
    std::string text;
    for (int n = 0; n < line && std::getline(in, text); ++n) {
    }
    CHECK(text.find("id: " + id) != std::string::npos);
  }
}

// likely_in_text: what the text shows around a symptom raises the problem
// it points to, undecided, above the symptom's usual order.
TEST_CASE("a container's command line or a GPU that needs PCIe atomics raises the problem it points to",
          "[explain][cli]") {
  const std::string no_gpus = "RuntimeError: No HIP GPUs are available";
  Json passed = json_of(run_rocmdoc({"explain", "--no-probe", "--json",
                                     "$ docker run -it --device=/dev/kfd --device=/dev/dri --group-add video "
                                     "rocm/pytorch\n" + no_gpus + "\n"}));
  CHECK(top_id(passed) == "container-device-gid-mismatch");
  CHECK(passed["causes"][0]["verdict"] == "undecided");
  CHECK(passed["causes"][0]["likely_in_text"] == true);
  Json bare = json_of(run_rocmdoc({"explain", "--no-probe", "--json", "$ docker run -it rocm/pytorch\n" + no_gpus + "\n"}));
  CHECK(top_id(bare) == "container-without-gpu-devices");
  // Without a container in the text neither is raised.
  Json plain = json_of(run_rocmdoc({"explain", "--no-probe", "--json", no_gpus}));
  for (auto& c : plain["causes"]) CHECK_FALSE(c.contains("likely_in_text"));

  auto rank_of = [](const Json& j, const std::string& id) {
    for (size_t i = 0; i < j["causes"].size(); ++i)
      if (j["causes"][i]["id"] == id) return static_cast<int>(i);
    return -1;
  };
  Json rx580 = json_of(run_rocmdoc({"explain", "--no-probe", "--json", "rocminfo only shows the CPU agent on my RX 580"}));
  Json rx6800 = json_of(run_rocmdoc({"explain", "--no-probe", "--json", "rocminfo only shows the CPU agent on my RX 6800"}));
  int with_atomics = rank_of(rx580, "kfd-rejected-gpu-pcie-atomics");
  REQUIRE(with_atomics >= 0);
  CHECK(with_atomics < 3);
  CHECK(rank_of(rx6800, "kfd-rejected-gpu-pcie-atomics") > with_atomics);
  // It orders the open problems only: a problem the text confirms stays
  // above it, and its confidence is the text's own (low here).
  Json with_message = json_of(run_rocmdoc({"explain", "--no-probe", "--json",
                                           "My RX 580: rocminfo shows no GPU\n"
                                           "Unable to open /dev/kfd read-write: Cannot allocate memory\n"}));
  int atomics = rank_of(with_message, "kfd-rejected-gpu-pcie-atomics");
  int dropped = rank_of(with_message, "gfx-dropped-no-override");
  REQUIRE(atomics >= 0);
  REQUIRE(dropped >= 0);
  CHECK(with_message["causes"][dropped]["verdict"] == "confirmed");
  CHECK(dropped < atomics);
  CHECK(with_message["causes"][atomics]["likely_in_text"] == true);
  CHECK(with_message["causes"][atomics]["confidence"] == "low");
  // Works as root: KFD did not skip the GPU.
  Json as_root = json_of(run_rocmdoc({"explain", "--no-probe", "--json",
                                      "rocminfo shows no GPU on my RX 580, but as root it works"}));
  for (auto& c : as_root["causes"])
    if (c["id"] == "kfd-rejected-gpu-pcie-atomics") CHECK(c["verdict"] == "refuted");
}

// "No module named 'torch'": where another interpreter has torch, that one;
// where none rocmdoc searched has it, that torch is not installed at all.
TEST_CASE("'No module named torch' names the interpreter that has torch, or that none has", "[explain][cli]") {
  const std::string text = "ModuleNotFoundError: No module named 'torch'";
  Json none = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("desktop-amdgpu-not-loaded"), text}));
  CHECK(top_id(none) == "torch-not-installed");
  CHECK(none["causes"][0]["verdict"] == "confirmed");
  Json venv = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("ubuntu2404-rx7900xtx"), text}));
  CHECK(top_id(venv) == "torch-in-another-interpreter");
  for (auto& c : venv["causes"])
    if (c["id"] == "torch-not-installed") CHECK(c["verdict"] == "refuted");
}

// A text whose own causes the machine rules out (AMD's packages of two
// releases in one apt run, where apt reads one AMD release only) gets no
// other cause headlined in their place: the install-failure symptom's apt
// key or dpkg problems are candidates nothing in the text names, and are
// said to be. "Key was rejected by service" where Secure Boot is off and
// amdgpu is loaded has no such candidates: the driver-build symptom lists
// only the driver's own problems, never apt's signing key. On the text
// alone (--no-probe) Secure Boot stays the answer.
TEST_CASE("when the facts rule out what the text points to, the symptom's other causes are not its cause",
          "[explain][cli]") {
  const std::string apt = " rocm-hip-runtime : Depends: rocm-core (= 6.1.0.60100-82~22.04) but 6.2.0.60200-66~22.04 is to be installed";
  auto machine = run_rocmdoc({"explain", "--root", test::machine_root("ubuntu2404-rx7900xtx"), apt});
  INFO(machine.out);
  // After the symptom the text shows, before any cause.
  size_t said = machine.out.find("\n! What the text itself points to does not hold on");
  CHECK(machine.out.find("The text shows: The install fails") == 0);
  CHECK(said != std::string::npos);
  CHECK(said < machine.out.find("Other known causes of \"The install fails"));
  CHECK(machine.out.find("  - rocm-apt-source-other-release: ") != std::string::npos);
  CHECK(machine.out.find("Other known causes of \"The install fails") != std::string::npos);
  CHECK(machine.out.find("why:") == std::string::npos);  // no cause in full: none is the text's
  Json j = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("ubuntu2404-rx7900xtx"), apt}));
  CHECK(j["own_causes_ruled_out"] == true);

  const std::string text = "modprobe: ERROR: could not insert 'amdgpu': Key was rejected by service";
  Json key = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("ubuntu2404-rx7900xtx"), text}));
  REQUIRE(key["symptoms"].size() == 1);
  CHECK(key["symptoms"][0]["id"] == "driver-build-fails");
  CHECK(key["own_causes_ruled_out"] == false);
  for (auto& c : key["causes"]) {
    INFO(c["id"]);
    CHECK(c["verdict"] == "refuted");
    CHECK(c["id"] != "rocm-apt-signing-key-missing-or-expired");
  }
  Json alone = json_of(run_rocmdoc({"explain", "--json", "--no-probe", text}));
  CHECK(alone["own_causes_ruled_out"] == false);
  CHECK(top_id(alone) == "secure-boot-blocks-amdgpu-dkms");
  // A text whose own cause holds is explained as before.
  Json holds = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("user-not-in-render"),
                                    "rocminfo only works with sudo"}));
  CHECK(holds["own_causes_ruled_out"] == false);
  CHECK(top_id(holds) == "device-node-not-accessible");
}

// issue 13: a failure told in other words than any known message still
// points at the problem whose words it shares, as a guess that says so,
// judged on the machine's facts like a cause: kept and first where the
// facts show the problem, dropped where they rule it out.
TEST_CASE("a text no message matches is compared with the problems' words", "[explain][cli]") {
  const std::string told = "the render group owns the kfd node and alex is not a member of it";
  auto has = run_rocmdoc({"explain", "--root", test::machine_root("user-not-in-render"), "--json", told});
  Json doc = Json::parse(has.out);
  CHECK(doc["causes"].empty());
  CHECK(doc["recognised"] == false);
  REQUIRE(!doc["resembles"].empty());
  CHECK(doc["resembles"][0]["id"] == "device-node-not-accessible");
  CHECK(doc["resembles"][0]["verdict"] == "confirmed");
  CHECK(doc["resembles"][0]["shared_words"].size() >= 2);
  auto text = run_rocmdoc({"explain", "--root", test::machine_root("user-not-in-render"), told});
  INFO(text.out);
  CHECK(text.out.find("a guess from shared words") != std::string::npos);
  CHECK(text.out.find("device-node-not-accessible") != std::string::npos);
  CHECK(text.out.find("this machine has it") != std::string::npos);

  // Where the user is in render, the facts rule it out: no guess is left.
  auto healthy = run_rocmdoc({"explain", "--root", test::machine_root("ubuntu2404-rx7900xtx"), "--json", told});
  CHECK(Json::parse(healthy.out)["resembles"].empty());

  // From the text alone: a guess, low confidence, never a cause. (Words that
  // say the file is missing, "cannot read TensileLibrary.dat", are a signature
  // of their own now: words-tensile-library-missing.)
  auto alone = run_rocmdoc({"explain", "--no-probe", "--json", "my card stops in rocBLAS at TensileLibrary.dat"});
  Json a = Json::parse(alone.out);
  CHECK(a["causes"].empty());
  REQUIRE(!a["resembles"].empty());
  // Either problem of rocBLAS's kernel files (the library directory, the
  // installed ROCm's gap): the words name no install.
  std::string guess = a["resembles"][0]["id"].get<std::string>();
  CHECK((guess == "rocblas-tensile-library-missing" || guess == "rocm-install-rocblas-lacks-gpu-target"));
  CHECK(a["resembles"][0]["confidence"] == "low");
  // Words no problem has give no guess.
  CHECK(Json::parse(run_rocmdoc({"explain", "--no-probe", "--json", "hello world"}).out)["resembles"].empty());
}

// A fix's command is the machine's package manager's: apt-get was once the
// HIP runtime's command on Rocky and Fedora too.
TEST_CASE("install commands in fixes follow the machine's package manager", "[explain][cli]") {
  auto argvs = [](const Json& j, const std::string& id) {
    std::vector<std::string> firsts;
    for (auto& c : j["causes"])
      if (c["id"] == id)
        for (auto& step : c["fix"]["steps"])
          if (step.contains("argv") && !step["argv"].empty()) firsts.push_back(step["argv"][0].get<std::string>());
    return firsts;
  };
  const std::string lib = "ImportError: libamdhip64.so.6: cannot open shared object file: No such file or directory";
  for (auto& [machine, manager] : std::vector<std::pair<std::string, std::string>>{
           {"rocky96-amd-rocm", "dnf"}, {"fedora43-mixed-amd-repo", "dnf"}, {"arch-distro-rocm", "pacman"},
           {"ubuntu2404-rx7900xtx", "apt-get"}}) {
    INFO(machine);
    auto firsts = argvs(json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root(machine), lib})),
                        "libamdhip64-or-runtime-lib-not-found");
    REQUIRE_FALSE(firsts.empty());
    for (auto& f : firsts) CHECK((f == manager || f == "ldconfig"));
  }
  Json tool = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("fedora43-mixed-amd-repo"),
                                   "bash: rocminfo: command not found"}));
  REQUIRE(top_id(tool) == "rocm-command-not-installed");
  bool dnf = false;
  for (auto& step : tool["causes"][0]["fix"]["steps"])
    dnf = dnf || (step.contains("argv") && step["argv"] == Json::array({"dnf", "install", "rocminfo"}));
  CHECK(dnf);
  // The way to check it asks the same package manager (not dpkg on Fedora);
  // from the text alone, which names none, the sentence names each.
  auto confirm_of = [&](const Json& out) {
    for (auto& c : out["causes"])
      if (c["id"] == "rocm-command-not-installed") return c["confirm"];
    return Json();
  };
  for (auto& [machine, argv0] : std::vector<std::pair<std::string, std::string>>{
           {"fedora43-mixed-amd-repo", "dnf"}, {"arch-distro-rocm", "pacman"}, {"user-not-in-render", "dpkg"}}) {
    INFO(machine);
    Json confirm = confirm_of(json_of(run_rocmdoc(
        {"explain", "--json", "--root", test::machine_root(machine), "bash: rocminfo: command not found"})));
    REQUIRE(confirm.is_object());
    REQUIRE(confirm["argv"].is_array());
    REQUIRE_FALSE(confirm["argv"].empty());
    CHECK(confirm["argv"][0] == argv0);
  }
  // A dnf repository's metadata 404 on Rocky: dnf's step to confirm and to
  // fix, no apt-get (the problem was apt's only before).
  Json repo = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("rocky96-amd-rocm"),
                                   "  - Status code: 404 for https://repo.radeon.com/amdgpu/latest/rhel/9.7/main/x86_64/"
                                   "repodata/63835e2a2ff7449039ca686e86cb2387ef9dd6821284d0a9bd1fba8a27596be3-primary.xml.gz"}));
  REQUIRE(top_id(repo) == "amd-repo-metadata-out-of-sync");
  CHECK(repo["causes"][0]["confirm"]["argv"] == Json::array({"dnf", "makecache"}));
  for (auto& step : repo["causes"][0]["fix"]["steps"]) {
    CHECK(step["text"].get<std::string>().find("apt") == std::string::npos);
    if (step.contains("argv") && !step["argv"].empty()) CHECK(step["argv"][0] != "apt-get");
  }
  Json text_only = confirm_of(json_of(run_rocmdoc({"explain", "--json", "--no-probe", "bash: rocminfo: command not found"})));
  REQUIRE(text_only.is_object());
  CHECK(text_only["argv"].empty());
  CHECK(text_only["text"].get<std::string>().find("dnf provides '*/bin/rocminfo'") != std::string::npos);
}

namespace {

const Json* find_cause(const Json& j, const std::string& id) {
  for (auto& c : j["causes"])
    if (c["id"] == id) return &c;
  return nullptr;
}

}  // namespace

// Only a torch built without GPU support prints "Torch not compiled with
// CUDA enabled": where rocmdoc found no torch (laptop's sits in a venv it
// did not search), the empty list refutes nothing.
TEST_CASE("a torch the text shows is undecided, not ruled out, where rocmdoc found none", "[explain][cli]") {
  for (auto machine : {"ubuntu2604-rx7900xtx", "laptop-780m-dgpu", "desktop-amdgpu-not-loaded", "cloud-vm-mi300x-vf"}) {
    INFO(machine);
    Json cpu = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root(machine),
                                    "AssertionError: Torch not compiled with CUDA enabled"}));
    const Json* c = find_cause(cpu, "torch-cpu-build-on-amd-gpu");
    REQUIRE(c);
    CHECK((*c)["verdict"] == "undecided");
    CHECK(cpu["own_causes_ruled_out"] == false);
    CHECK((*c).contains("confirm"));
    Json cuda = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root(machine),
                                     "RuntimeError: Found no NVIDIA driver on your system."}));
    const Json* d = find_cause(cuda, "torch-cuda-build-on-amd-gpu");
    REQUIRE(d);
    CHECK((*d)["verdict"] != "refuted");
  }
  // check still fires these only where it finds a torch.
  auto check = run_rocmdoc({"check", "--root", test::machine_root("laptop-780m-dgpu")});
  CHECK(check.out.find("torch-cpu-build-on-amd-gpu") == std::string::npos);
}

// amdgpu-not-loaded's `when` leaves a blacklisted amdgpu to
// amdgpu-blacklisted: "ROCk module is NOT loaded" there is that case, not a
// text from another boot.
TEST_CASE("a problem that gives way to a confirmed specific one is its case, not another boot's", "[explain][cli]") {
  auto r = run_rocmdoc({"explain", "--root", test::machine_root("desktop-amdgpu-not-loaded"),
                        "ROCk module is NOT loaded, possibly no GPU devices"});
  CHECK(r.out.find("another boot") == std::string::npos);
  CHECK(r.out.find("\n✗ amdgpu-blacklisted:") != std::string::npos);
  CHECK(r.out.find("it is the case of amdgpu-blacklisted, which the facts confirm") != std::string::npos);
  Json j = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("desktop-amdgpu-not-loaded"),
                                "ROCk module is NOT loaded, possibly no GPU devices"}));
  CHECK(top_id(j) == "amdgpu-blacklisted");
  CHECK(j["causes"][0]["verdict"] == "confirmed");
  CHECK(!j["causes"][0].contains("symptom"));
  CHECK(j["own_causes_ruled_out"] == false);
}

// A refuted problem's title filled from the facts asserted what they refute.
TEST_CASE("a ruled-out problem is named by its title without facts", "[explain][cli]") {
  Json j = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("ubuntu2404-rx7900xtx"),
                                "RuntimeError: Found no NVIDIA driver on your system."}));
  const Json* c = find_cause(j, "torch-cuda-build-on-amd-gpu");
  REQUIRE(c);
  CHECK((*c)["verdict"] == "refuted");
  CHECK((*c)["title"] == "The installed torch is a CUDA build, and this machine has no NVIDIA GPU");
  // In the container, device-node-not-accessible gives way to the unmapped
  // ids the facts confirm; no title of a ruled-out one asserts root cannot
  // open /dev/kfd.
  auto r = run_rocmdoc({"explain", "--root", test::machine_root("proxmox-lxc-unprivileged"),
                        "Unable to open /dev/kfd read-write: Permission denied"});
  CHECK(r.out.find("another boot") == std::string::npos);
  CHECK(r.out.find("\n✗ device-node-ids-unmapped:") != std::string::npos);
  for (size_t at = r.out.find("(ruled out:"); at != std::string::npos; at = r.out.find("(ruled out:", at + 1)) {
    size_t line = r.out.rfind('\n', at);
    CHECK(r.out.substr(line, at - line).find("root cannot open") == std::string::npos);
  }
}

// No ROCm on either machine, and no release lists gfx1100 on them: no
// release is in use that could have dropped the GPU.
TEST_CASE("a GPU is not dropped by a release where none is installed or chosen", "[explain][cli]") {
  for (auto machine : {"centos-stream9-no-rocm", "leap156-no-rocm"}) {
    INFO(machine);
    Json j = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root(machine),
                                  "RuntimeError: No HIP GPUs are available"}));
    const Json* c = find_cause(j, "gpu-unsupported-in-target-release");
    REQUIRE(c);
    CHECK((*c)["verdict"] == "refuted");
    CHECK(j.dump().find("keep apt") == std::string::npos);
  }
}

// amdgpu's "PCIE atomic ops is not supported" is pcie-atomics-not-routed's
// own message; the kernel log the facts read shows it too.
TEST_CASE("amdgpu's PCIe atomics line names the unrouted path the facts confirm", "[explain][cli]") {
  Json j = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("chipset-bridge-no-atomics"),
                                "amdgpu 0000:0d:00.0: amdgpu: PCIE atomic ops is not supported"}));
  CHECK(top_id(j) == "pcie-atomics-not-routed");
  CHECK(j["causes"][0]["verdict"] == "confirmed");
  const Json* k = find_cause(j, "kfd-rejected-gpu-pcie-atomics");
  REQUIRE(k);
  CHECK((*k)["ruled_out"].get<std::string>().find("kernel_log.signatures is empty") == std::string::npos);
}

// A GPU reset shows no memory fault: the thermal limit the facts confirm
// comes first.
TEST_CASE("a GPU reset line alone does not confirm a memory access fault", "[explain][cli]") {
  for (auto text : {"amdgpu 0000:03:00.0: amdgpu: GPU reset begin!", "the GPU hangs and the screen goes black under load"}) {
    INFO(text);
    Json j = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("ubuntu2404-rx7900xtx-throttled"), text}));
    CHECK(top_id(j) == "gpu-at-thermal-limit");
    const Json* m = find_cause(j, "memory-access-fault");
    if (m) CHECK((*m)["verdict"] != "confirmed");
  }
}

// Where the kernel log is closed to the user (kernel.dmesg_restrict 1), the
// dmesg to confirm with needs sudo; an undecided title carries no reason.
TEST_CASE("confirm commands need sudo where dmesg is restricted, and titles carry no unknown reason", "[explain][cli]") {
  for (auto machine : {"user-not-in-render", "ubuntu2204-rx6700xt", "cloud-vm-mi300x-vf"}) {
    INFO(machine);
    Json j = json_of(run_rocmdoc({"explain", "--json", "-v", "--root", test::machine_root(machine),
                                  "the GPU hangs and the screen goes black under load"}));
    const Json* c = find_cause(j, "amdgpu-resume-failed");
    REQUIRE(c);
    if ((*c)["verdict"] == "undecided") {
      REQUIRE((*c).contains("confirm"));
      CHECK((*c)["confirm"]["sudo"] == true);
    }
    for (auto& cause : j["causes"])
      if (cause["id"] == "pcie-atomics-not-routed") CHECK(cause["title"].get<std::string>().find("not readable") == std::string::npos);
  }
}

// "amdgpu won't load" where it is loaded: said beside the symptom, and
// instead of a request to report it when every cause is ruled out; where
// it is not loaded the machine's own cause comes first and nothing is said.
TEST_CASE("a symptom the machine does not show now is said to be so", "[explain][cli]") {
  const char* text = "amdgpu won't load after the update";
  auto loaded = run_rocmdoc({"explain", "--root", test::machine_root("ubuntu2404-rx7900xtx"), text});
  CHECK(loaded.out.find(" now: amdgpu is loaded on this boot (kernel 6.8.0-45-generic) and /dev/kfd is there") !=
        std::string::npos);
  CHECK(loaded.out.find("the text may come from an earlier boot") != std::string::npos);
  CHECK(loaded.out.find("report it with `rocmdoc snapshot`") == std::string::npos);
  Json j = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("ubuntu2404-rx7900xtx"), text}));
  REQUIRE(j["symptoms"].size() == 1);
  CHECK(j["symptoms"][0]["not_here"].get<std::string>().find("amdgpu is loaded on this boot") == 0);
  Json off = json_of(run_rocmdoc({"explain", "--json", "--root", test::machine_root("desktop-amdgpu-not-loaded"), text}));
  CHECK(top_id(off) == "amdgpu-blacklisted");
  REQUIRE(off["symptoms"].size() == 1);
  CHECK_FALSE(off["symptoms"][0].contains("not_here"));
  // From the text alone nothing is known of the machine.
  Json none = json_of(run_rocmdoc({"explain", "--json", "--no-probe", text}));
  CHECK_FALSE(none["symptoms"][0].contains("not_here"));
}
