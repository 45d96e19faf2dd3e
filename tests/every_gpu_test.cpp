// Every GPU the matrix knows, and one it does not, on one recorded machine:
// every command runs to an answer (no exception, no abort), every GPU has a
// name, and no title prints "null". The machine is a fixture's facts with its
// AMD GPU replaced: the PCI device id, the KFD node's gfx and
// gfx_target_version, and the pci.ids name this computer's database gives.
//
// In process, with one loaded Knowledge, so the 200-odd machines stay fast
// under the sanitizer build too; a few machines also go through the
// commands' own entry points for their exit codes.
#include <fstream>
#include <optional>
#include <sstream>

#include "catch.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/fix_command.h"
#include "cli/install_command.h"
#include "explain/explanation.h"
#include "facts/facts_document.h"
#include "fix/fix.h"
#include "formats/pci_names.h"
#include "install/plan/planner.h"
#include "output/explain_output.h"
#include "output/install_output.h"
#include "output/text_report.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {

constexpr const char* kBase = "ubuntu2204-rx6700xt";

// One GPU to put into the machine.
struct GpuCase {
  std::string device_id;          // "0x744c"
  std::optional<std::string> gfx; // what KFD reports; nullopt: no gfx from the kernel
  int64_t kfd_version = 0;
  std::string label;              // for failure messages
};

// What the machine's own pci.ids would call the device (null when it lacks it).
Json pci_ids_name(const std::string& device_id) {
  auto name = system_pci_names().device(0x1002, static_cast<uint16_t>(std::stoul(device_id, nullptr, 16)));
  return name ? Json(*name) : Json(nullptr);
}

// The base machine with its AMD GPU replaced by `gpu`; `name` is the
// pci.ids name to record for it.
Json machine_with(const Json& base, const GpuCase& gpu, const Json& name) {
  Json f = base;
  std::string address;
  for (auto& g : f["pci"]["gpus"])
    if (g["vendor"] == "amd") {
      address = g["address"].get<std::string>();
      g["device_id"] = gpu.device_id;
      g["name"] = name;
    }
  REQUIRE(!address.empty());
  for (auto& d : f["pci"]["devices"])
    if (d["address"] == address) d["device_id"] = gpu.device_id, d["device_name"] = name;
  Json gfx = gpu.gfx ? Json(*gpu.gfx) : Json(nullptr);
  for (auto& n : f["kfd"]["nodes"])
    if (n["pci_address"] == address) {
      n["gfx"] = gfx;
      n["gfx_target_version"] = gpu.kfd_version;
      n["device_id"] = gpu.device_id;
    }
  for (auto& g : f["kfd"]["gpus"])
    if (g["pci_address"] == address) g["gfx"] = gfx;
  return f;
}

// Every gfx target (as a device of that target, else an unknown device) and
// every device the matrix lists, and one device and target it does not.
std::vector<GpuCase> every_gpu(const Matrix& m) {
  std::vector<GpuCase> out;
  for (auto& t : m.gfx_targets()) {
    std::string id = "0x7fff";
    for (auto& d : m.devices())
      if (d.gfx && *d.gfx == t.gfx) {
        id = std::string(d.device_id);
        break;
      }
    out.push_back({id, std::string(t.gfx), t.kfd_target_version, "target " + std::string(t.gfx)});
  }
  for (auto& d : m.devices()) {
    const GfxTarget* t = d.gfx ? m.gfx_target(*d.gfx) : nullptr;
    out.push_back({std::string(d.device_id), d.gfx ? std::optional<std::string>(std::string(*d.gfx)) : std::nullopt,
                   t ? t->kfd_target_version : 0, "device " + std::string(d.device_id)});
  }
  out.push_back({"0x7fff", "gfx1299", 120909, "unknown device 0x7fff, gfx1299"});
  out.push_back({"0x7fff", std::nullopt, 0, "unknown device 0x7fff, no gfx"});
  return out;
}

// What gpus[].name must be: pci.ids' name, else one the matrix gives, else
// the literal "unknown name".
void check_name(const Json& gpu, const Json& pci_name, const GpuDevice* entry) {
  REQUIRE(gpu["name"].is_string());
  std::string name = gpu["name"].get<std::string>();
  CHECK(!name.empty());
  if (pci_name.is_string()) CHECK(name == pci_name.get<std::string>());
  else if (entry) {
    CHECK(name != "unknown name");
    CHECK(name.find(entry->pci_ids_name ? std::string(*entry->pci_ids_name) : std::string(entry->asic)) !=
          std::string::npos);
  } else CHECK(name == "unknown name");
}

void check_title(const std::string& title, const std::string& what) {
  INFO(what << ": " << title);
  CHECK(!title.empty());
  CHECK(title.find("null") == std::string::npos);
}

// Explain's inputs, scanned once: an error with a gfx, a symptom in plain
// words, and an error that names the HSA override.
std::vector<ScanResult> scanned_texts(const Knowledge& k) {
  std::vector<std::string> texts = {
      "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory for "
      "GPU arch : gfx1201\n",
      "torch.cuda.is_available() is False\n",
      "HIP error: invalid device function\nhipErrorNoBinaryForGpu: Unable to find code object for all current "
      "devices!\n"};
  std::vector<ScanResult> out;
  for (auto& t : texts) {
    LogScanner scanner(k.catalogue.signatures, k.catalogue.origins);
    REQUIRE(scanner.error().empty());
    scanner.feed(t);
    scanner.finish();
    out.push_back(scanner.result());
  }
  return out;
}

struct Shared {
  Knowledge knowledge;
  InstallRecipes recipes;
  Json base;
  std::vector<ScanResult> texts;
};

Shared& shared() {
  static Shared* s = [] {
    auto* out = new Shared;
    RuleSources sources{"", ""};
    sources.compile_patterns = true;
    out->knowledge = load_knowledge(sources);
    std::vector<LoadError> errors;
    out->recipes = load_install_recipes_from("", errors);
    REQUIRE(errors.empty());
    out->base = facts_for_root(machine_root(kBase));
    return out;
  }();
  REQUIRE(s->knowledge.errors.empty());
  if (s->texts.empty()) s->texts = scanned_texts(s->knowledge);
  return *s;
}

// check (text and JSON), explain on one of the texts, fix's list and
// install's plan on one machine, as the commands call them. Each machine gets
// one text, in turn, so all of them meet every text's causes in a few
// hundred milliseconds, sanitizers included.
void run_every_command(const Json& facts, const GpuCase& gpu, const Json& pci_name, const ScanResult& scan) {
  Shared& s = shared();
  const Knowledge& k = s.knowledge;
  INFO(gpu.label);
  CheckReport report = run_check(facts, k, std::nullopt);
  const Json& gpus = report.facts["gpus"];
  REQUIRE(gpus.is_array());
  REQUIRE(gpus.size() == 1);
  check_name(gpus[0], pci_name, k.matrix->device(gpu.device_id));
  std::string text = render_text_report(report, {true, false});
  CHECK(text.find("GPU — " + gpus[0]["name"].get<std::string>()) != std::string::npos);
  CHECK(!facts_to_string(render_json_report(report)).empty());
  for (auto& o : report.outcomes)
    for (auto& f : o.findings) check_title(f.title, "check " + o.rule->id);
  for (auto& fix : fixes_from_report(report)) check_title(fix.title, "fix " + fix.id);
  Explanation e = explain(scan, facts, k);
  CHECK(!render_explain_text(e, {}).empty());
  CHECK(!facts_to_string(render_explain_json(e, "a facts file")).empty());
  for (auto& c : e.causes) check_title(c.finding.title, "explain " + c.cause->rule.id);
  PlanInput input;
  input.facts = facts;
  input.recipes = &s.recipes;
  input.matrix = k.matrix.get();
  PlanResult plan = build_install_plan(std::move(input));
  if (auto* p = std::get_if<InstallPlan>(&plan)) {
    CHECK(!render_plan_text(*p).empty());
    CHECK(!facts_to_string(render_plan_json(*p)).empty());
  } else {
    auto& refusal = std::get<InstallRefusal>(plan);
    CHECK(!render_refusal_text(refusal).empty());
    CHECK(!facts_to_string(render_refusal_json(refusal)).empty());
  }
}

}  // namespace

TEST_CASE("every GPU the matrix knows, and one it does not, runs through every command", "[every_gpu]") {
  Shared& s = shared();
  auto cases = every_gpu(*s.knowledge.matrix);
  CHECK(cases.size() >= s.knowledge.matrix->gfx_targets().size() + s.knowledge.matrix->devices().size() + 2);
  for (size_t i = 0; i < cases.size(); ++i) {
    Json name = pci_ids_name(cases[i].device_id);
    Json facts = machine_with(s.base, cases[i], name);
    CHECK_NOTHROW(run_every_command(facts, cases[i], name, s.texts[i % s.texts.size()]));
  }
}

TEST_CASE("a GPU this computer's pci.ids lacks is named from the matrix, else 'unknown name'", "[every_gpu]") {
  Shared& s = shared();
  // Debian 12's pci.ids has no 0x7550 (the RX 9070 family).
  CheckReport known = run_check(machine_with(s.base, {"0x7550", "gfx1201", 120001, "0x7550"}, nullptr), s.knowledge,
                                std::nullopt);
  CHECK(known.facts["gpus"][0]["name"] == "Navi 48 [Radeon RX 9070/9070 XT/9070 GRE]");
  CHECK(render_text_report(known, {}).find("GPU — Navi 48 [Radeon RX 9070/9070 XT/9070 GRE] (gfx1201)") !=
        std::string::npos);
  CheckReport unknown_gpu = run_check(machine_with(s.base, {"0x7fff", "gfx1299", 120909, "0x7fff"}, nullptr),
                                      s.knowledge, std::nullopt);
  CHECK(unknown_gpu.facts["gpus"][0]["name"] == "unknown name");
  // pci.ids' own name wins over the matrix's.
  CheckReport named = run_check(machine_with(s.base, {"0x7550", "gfx1201", 120001, "0x7550"}, "Navi 48 [from pci.ids]"),
                                s.knowledge, std::nullopt);
  CHECK(named.facts["gpus"][0]["name"] == "Navi 48 [from pci.ids]");
}

TEST_CASE("a KFD node without a PCI address, or a PCI GPU with unknown ids, is unknown, never an abort",
          "[every_gpu]") {
  Shared& s = shared();
  // An old kernel's topology has no domain line, so the node's PCI address
  // is unknown; a recording may also hold null there.
  for (Json address : {unknown("no domain line in the node's properties"), Json(nullptr), Json(42)}) {
    Json facts = s.base;
    for (auto& g : facts["kfd"]["gpus"]) g["pci_address"] = address;
    INFO(address.dump());
    CheckReport report;
    REQUIRE_NOTHROW(report = run_check(facts, s.knowledge, std::nullopt));
    // Without the KFD node, the gfx comes from the matrix by device id.
    CHECK(report.facts["gpus"][0]["gfx_source"] == "matrix");
  }
  Json facts = s.base;
  for (auto& g : facts["pci"]["gpus"])
    if (g["vendor"] == "amd") g["address"] = nullptr, g["device_id"] = unknown("no device file"), g["name"] = 7;
  CheckReport report;
  REQUIRE_NOTHROW(report = run_check(facts, s.knowledge, std::nullopt));
  CHECK(report.facts["gpus"][0]["name"] == "unknown name");
  CHECK(is_unknown(report.facts["gpus"][0]["gfx"]));
}

TEST_CASE("check against every release in the matrix, on a known and an unknown GPU", "[every_gpu]") {
  Shared& s = shared();
  for (GpuCase gpu : {GpuCase{"0x7550", "gfx1201", 120001, "0x7550"}, GpuCase{"0x7fff", "gfx1299", 120909, "0x7fff"}}) {
    Json facts = machine_with(s.base, gpu, nullptr);
    for (auto& r : s.knowledge.matrix->releases()) {
      INFO(gpu.label << " --rocm " << r.version);
      CheckReport report;
      REQUIRE_NOTHROW(report = run_check(facts, s.knowledge, std::string(r.version)));
      for (auto& o : report.outcomes)
        for (auto& f : o.findings) check_title(f.title, o.rule->id);
    }
  }
}

TEST_CASE("the commands' exit codes on a few GPUs are answers, not errors", "[every_gpu]") {
  Shared& s = shared();
  ScratchDir dir;
  for (GpuCase gpu : {GpuCase{"0x7550", "gfx1201", 120001, "gfx1201"}, GpuCase{"0x66af", "gfx906", 90006, "gfx906"},
                      GpuCase{"0x67df", "gfx803", 80003, "gfx803"}, GpuCase{"0x7fff", "gfx1299", 120909, "unknown"}}) {
    INFO(gpu.label);
    std::string file = (dir.path / (gpu.label + ".json")).string();
    std::ofstream(file) << facts_to_string(machine_with(s.base, gpu, nullptr));
    MachineOptions machine;
    std::istringstream no_input;
    for (bool json : {false, true}) {
      std::ostringstream out, err;
      CheckOptions check;
      check.facts_file = file;
      check.json = json;
      int code = run_check_command(machine, check, out, err);
      INFO(err.str());
      CHECK((code == kExitOk || code == kExitProblems));
    }
    {
      std::ostringstream out, err;
      ExplainOptions explain;
      explain.text = {"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"};
      explain.facts_file = file;
      int code = run_explain_command(machine, explain, no_input, out, err);
      INFO(err.str());
      CHECK((code == kExitOk || code == kExitProblems));
    }
    {
      std::ostringstream out, err;
      FixOptions fix;
      fix.facts_file = file;
      int code = run_fix_command(machine, fix, no_input, out, err);
      INFO(err.str());
      CHECK(code == kExitOk);
    }
    {
      std::ostringstream out, err;
      InstallCommandOptions install;
      install.facts_file = file;
      install.dry_run = true;
      int code = run_install_command(machine, install, no_input, out, err);
      INFO(err.str());
      CHECK((code == kExitOk || code == kExitProblems));
    }
  }
}

// Krackan2 (0x1902): AMD's ROCm table lists its Radeon 820M as gfx1152, the
// kernel's APU table (GC 11.5.3) and TheRock as gfx1153. Without the kernel's
// answer, what the user reads says the target is unconfirmed and names
// both; no product name settles it; the kernel's KFD node, where there is
// one, does.
TEST_CASE("a GPU whose target AMD's sources disagree on is shown unconfirmed, never as one of them", "[every_gpu]") {
  Shared& s = shared();
  const Matrix& m = *s.knowledge.matrix;
  const GpuDevice* krackan2 = m.device("0x1902");
  REQUIRE(krackan2);
  CHECK(!krackan2->gfx);
  CHECK(krackan2->gfx_disputed == MatrixTexts{"gfx1152", "gfx1153"});
  // A log naming the 820M gets no target from its name; the 860M does.
  CHECK(!m.gfx_for_product_name("AMD Radeon 820M"));
  CHECK(m.gfx_for_product_name("AMD Radeon 860M") == "gfx1152");

  Json facts = machine_with(s.base, {"0x1902", std::nullopt, 0, "0x1902"}, "Krackan2");
  CheckReport report = run_check(facts, s.knowledge, std::nullopt);
  const Json& gpu = report.facts["gpus"][0];
  REQUIRE(is_unknown(gpu["gfx"]));
  CHECK(unknown_reason(gpu["gfx"]).find("the gfx target of device 0x1902 (Krackan2) is unconfirmed: AMD's sources name "
                                        "gfx1152 and gfx1153") != std::string::npos);
  CHECK(gpu["gfx_disputed"] == Json::array({"gfx1152", "gfx1153"}));
  std::string text = render_text_report(report, {});
  INFO(text);
  CHECK(text.find("GPU — Krackan2 (gfx unconfirmed: gfx1152 or gfx1153)") != std::string::npos);

  PlanInput input;
  input.facts = facts;
  input.recipes = &s.recipes;
  input.matrix = &m;
  PlanResult plan = build_install_plan(std::move(input));
  REQUIRE(std::holds_alternative<InstallRefusal>(plan));
  const InstallRefusal& refusal = std::get<InstallRefusal>(plan);
  CHECK(refusal.id == "unsupported-gpu");
  CHECK(refusal.reason.find("unconfirmed: AMD's sources name gfx1152 and gfx1153") != std::string::npos);
  CHECK(render_refusal_text(refusal).find("gfx1152 and gfx1153") != std::string::npos);

  // The kernel's KFD node answers for its machine; the dispute stays listed.
  CheckReport kfd = run_check(machine_with(s.base, {"0x1902", "gfx1153", 110503, "0x1902"}, "Krackan2"), s.knowledge,
                              std::nullopt);
  CHECK(kfd.facts["gpus"][0]["gfx"] == "gfx1153");
  CHECK(kfd.facts["gpus"][0]["gfx_source"] == "kfd");
  CHECK(render_text_report(kfd, {}).find("GPU — Krackan2 (gfx1153)") != std::string::npos);
}

// Where no KFD node names the target, the GC version amdgpu read from the
// GPU's discovery table does, through the kernel's own mapping: for a device
// newer than the matrix, and for one whose target AMD's sources dispute.
TEST_CASE("without a KFD node the GC version from IP discovery names the target", "[every_gpu]") {
  Shared& s = shared();
  auto with_gc = [&](const std::string& device_id, const Json& gc) {
    Json f = machine_with(s.base, {device_id, std::nullopt, 0, device_id}, "a new GPU");
    for (auto& g : f["pci"]["gpus"])
      if (g["vendor"] == "amd") g["gc_version"] = gc;
    return run_check(f, s.knowledge, std::nullopt);
  };
  CheckReport fresh = with_gc("0x7fff", "12.0.1");  // a device id the matrix does not list
  const Json& gpu = fresh.facts["gpus"][0];
  CHECK(gpu["gfx"] == "gfx1201");
  CHECK(gpu["gfx_source"] == "ip_discovery");
  CHECK(gpu["apu"] == false);  // from the target, as the device is not listed
  CHECK(gpu["architecture"].is_string());

  CheckReport krackan2 = with_gc("0x1902", "11.5.3");
  CHECK(krackan2.facts["gpus"][0]["gfx"] == "gfx1153");
  CHECK(krackan2.facts["gpus"][0]["gfx_source"] == "ip_discovery");
  CHECK(krackan2.facts["gpus"][0]["gfx_disputed"] == Json::array({"gfx1152", "gfx1153"}));  // still listed

  // A version that does not decide (GC 9.4.3) or none at all leaves it unknown, saying why.
  CheckReport mi300 = with_gc("0x7fff", "9.4.3");
  REQUIRE(is_unknown(mi300.facts["gpus"][0]["gfx"]));
  CHECK(unknown_reason(mi300.facts["gpus"][0]["gfx"]).find("amdgpu reports GC 9.4.3, which gives no single target") !=
        std::string::npos);
  CheckReport none = with_gc("0x7fff", nullptr);
  CHECK(is_unknown(none.facts["gpus"][0]["gfx"]));
  CHECK(unknown_reason(none.facts["gpus"][0]["gfx"]).find("GC") == std::string::npos);
}

// AMD's tables limit some distributions to some products of a gfx target:
// Rocky Linux 9 is listed for the Instinct MI300X and MI300A, not the
// MI325X, though all three are gfx942. On the recorded Rocky Linux 9.6
// machine (ROCm 7.1.1 installed) with either GPU, check and install judge
// by the product, read from the device id.
TEST_CASE("a distribution AMD lists for some products of a target leaves the others out", "[every_gpu]") {
  Shared& s = shared();
  Json base = facts_for_root(machine_root("rocky96-amd-rocm"));
  Json mi300x = machine_with(base, {"0x74a1", "gfx942", 90402, "MI300X"}, "Aqua Vanjaram [Instinct MI300X]");
  Json mi325x = machine_with(base, {"0x74a5", "gfx942", 90402, "MI325X"}, "Aqua Vanjaram [Instinct MI325X]");
  const std::string limit = "lists Rocky Linux 9.6 only for Instinct MI300X and Instinct MI300A";

  CheckReport listed = run_check(mi300x, s.knowledge, std::nullopt);
  CheckReport left = run_check(mi325x, s.knowledge, std::nullopt);
  INFO(listed.facts["target"].dump() << "\n" << left.facts["target"].dump());
  REQUIRE(listed.facts["target"]["rocm"] == "7.1.1");  // the installed release
  CHECK(listed.facts["target"]["gpu_left_out"].is_null());
  CHECK(left.facts["target"]["gpu_left_out"] == "ROCm 7.1.1 " + limit);
  CHECK(listed.facts["target"]["newest_for_gpu"].is_string());
  REQUIRE(is_unknown(left.facts["target"]["newest_for_gpu"]));
  CHECK(unknown_reason(left.facts["target"]["newest_for_gpu"]).find(limit) != std::string::npos);
  auto fired = [](const CheckReport& r, const std::string& id) {
    for (auto& o : r.outcomes)
      if (o.rule->id == id && !o.findings.empty()) return true;
    return false;
  };
  // No release lists Rocky Linux 9.6 for the MI325X: said once for all of
  // them, not again for the installed one.
  CHECK(fired(left, "distro-listed-by-amd-for-other-gpus"));
  CHECK(!fired(left, "distro-listed-for-other-gpus"));
  CHECK(!fired(listed, "distro-listed-for-other-gpus"));
  CHECK(!fired(listed, "distro-listed-by-amd-for-other-gpus"));

  // Install names the release that lists the MI300X there, and the limit
  // for the MI325X.
  auto plan_text = [&](const Json& facts) {
    PlanInput input;
    input.facts = facts;
    input.recipes = &s.recipes;
    input.matrix = s.knowledge.matrix.get();
    PlanResult plan = build_install_plan(std::move(input));
    if (auto* p = std::get_if<InstallPlan>(&plan)) return render_plan_text(*p);
    return render_refusal_text(std::get<InstallRefusal>(plan));
  };
  std::string for_mi300x = plan_text(mi300x), for_mi325x = plan_text(mi325x);
  INFO(for_mi300x << "\n----\n" << for_mi325x);
  CHECK(for_mi300x.find(limit) == std::string::npos);
  CHECK(for_mi325x.find(limit) != std::string::npos);
}
