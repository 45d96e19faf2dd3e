// Install plans on the fixture machines, compared exactly with golden files
// in tests/install/plans/ (the plan as `rocmdoc install --json` prints it,
// states unevaluated). After an intended change to the recipes or the
// planner, regenerate them and review the diff:
//   ROCMDOC_REGENERATE_PLANS=1 build/rocmdoc_tests "[install-plan]"
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <re2/re2.h>

#include "catch.h"
#include "rules/knowledge.h"
#include "rules/derived_facts.h"
#include "facts/facts_document.h"
#include "output/install_output.h"
#include "base/text.h"
#include "install/plan/planner.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {

struct Shipped {
  Knowledge knowledge = load_knowledge({"", ""});
  std::vector<LoadError> errors;
  InstallRecipes recipes = load_install_recipes_from("", errors);
};

const Shipped& shipped() {
  static Shipped s;
  return s;
}

using Edit = std::function<void(Json&)>;

PlanResult plan_for(const std::string& machine, InstallOptions options = {}, const Edit& edit = nullptr,
                    const InstallRecipes* recipes = nullptr) {
  const Shipped& s = shipped();
  REQUIRE(s.knowledge.errors.empty());
  REQUIRE(s.errors.empty());
  static std::map<std::string, Json> cache;
  if (!cache.count(machine)) cache[machine] = facts_for_root(machine_root(machine));
  PlanInput input;
  input.facts = cache[machine];
  if (edit) edit(input.facts);
  input.recipes = recipes ? recipes : &s.recipes;
  input.matrix = s.knowledge.matrix.get();
  input.options = options;
  return build_install_plan(input);
}

const InstallPlan& must_plan(const PlanResult& r) {
  if (auto* refusal = std::get_if<InstallRefusal>(&r)) FAIL("refused: " + refusal->id + ": " + refusal->reason);
  return std::get<InstallPlan>(r);
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void compare_golden(const std::string& name, const std::string& actual) {
  std::string path = source_path("tests/install/plans/" + name);
  if (std::getenv("ROCMDOC_REGENERATE_PLANS")) {
    std::ofstream(path) << actual;
    return;
  }
  INFO("golden " << path << " (regenerate: ROCMDOC_REGENERATE_PLANS=1)");
  CHECK(read(path) == actual);
}

void golden_json(const std::string& name, const PlanResult& r) {
  compare_golden(name + ".json", facts_to_string(render_plan_json(must_plan(r))) + "\n");
}

// Debian 12 (and 13) on the RX 7900 XTX machine: the fixtures have no such
// AMD GPU machine, so its facts get Debian's distribution and kernel.
Edit debian(const std::string& version, const std::string& codename, const std::string& kernel) {
  return [=](Json& f) {
    f["distro"]["id"] = "debian";
    f["distro"]["id_like"] = Json::array();
    f["distro"]["version_id"] = version;
    f["distro"]["codename"] = codename;
    f["kernel"]["release"] = kernel;
    f["kernel"]["flavour"] = "debian";
  };
}

// An Instinct MI300X (Aqua Vanjaram, gfx942) in place of the RX 7900 XTX:
// AMD lists Debian 12 and 13 for Instinct GPUs only (7.2.4: Debian 12 for
// the MI325X, MI300X, MI300A and MI200 series, Debian 13 for the MI355X,
// MI350X, MI325X and MI300X).
Edit mi300x = [](Json& f) {
  f["pci"]["gpus"][0]["device_id"] = "0x74a1";
  f["kfd"]["gpus"][0]["gfx"] = "gfx942";
};

Edit both(Edit a, Edit b) {
  return [a, b](Json& f) {
    a(f);
    b(f);
  };
}

// Whether a plan has a note containing text.
bool noted(const InstallPlan& p, const std::string& text) {
  return std::any_of(p.notes.begin(), p.notes.end(), [&](auto& n) { return n.find(text) != std::string::npos; });
}

// The 26.04 machine with a Radeon AI PRO R9700 (Navi 48, gfx1201) in place of its RX 7900 XTX.
Edit r9700() {
  return [](Json& f) {
    f["pci"]["gpus"][0]["device_id"] = "0x7551";
    f["kfd"]["gpus"][0]["gfx"] = "gfx1201";
  };
}

std::vector<std::string> ids(const InstallPlan& p) {
  std::vector<std::string> out;
  for (auto& s : p.steps) out.push_back(s.id);
  return out;
}

}  // namespace

TEST_CASE("the shipped install recipes load without errors", "[install-plan]") {
  CHECK(shipped().errors.empty());
  // Newest first; the Core SDK line is on request: not picked by default but
  // on Ubuntu 26.04 (default_for) or where no other release lists the GPU.
  CHECK(shipped().recipes.releases.front().version == "10.1.0");
  CHECK(shipped().recipes.releases.front().on_request);
  CHECK(shipped().recipes.releases[1].version == "10.0.0");
  CHECK(shipped().recipes.releases[1].on_request);
  CHECK(shipped().recipes.releases[2].version == "7.2.4");
  CHECK(shipped().recipes.key.fingerprint == "CA8BB4727A47B4D09B4EE8969386B48A1A693C5C");
}

TEST_CASE("golden plans: Ubuntu 24.04, every covered release, --no-driver, --no-torch", "[install-plan]") {
  golden_json("ubuntu2404-rx7900xtx-default", plan_for("ubuntu2404-rx7900xtx"));
  for (const char* rocm : {"7.2.4", "7.1.1", "7.0.2", "6.4.3"}) {
    InstallOptions o;
    o.rocm = rocm;
    golden_json(std::string("ubuntu2404-rx7900xtx-") + rocm, plan_for("ubuntu2404-rx7900xtx", o));
  }
  InstallOptions no_driver;
  no_driver.driver = false;
  golden_json("ubuntu2404-rx7900xtx-7.2.4-no-driver", plan_for("ubuntu2404-rx7900xtx", no_driver));
  InstallOptions no_torch;
  no_torch.torch = false;
  golden_json("ubuntu2404-rx7900xtx-7.2.4-no-torch", plan_for("ubuntu2404-rx7900xtx", no_torch));
  InstallPlan p = must_plan(plan_for("ubuntu2404-rx7900xtx"));
  compare_golden("ubuntu2404-rx7900xtx-default.txt", render_plan_text(p));
}

TEST_CASE("golden plans: Ubuntu 22.04 and Debian 12/13", "[install-plan]") {
  golden_json("ubuntu2204-rx6700xt-default", plan_for("ubuntu2204-rx6700xt"));
  for (const char* rocm : {"7.2.4", "7.1.1", "6.4.3"}) {
    InstallOptions o;
    o.rocm = rocm;
    golden_json(std::string("ubuntu2204-rx6700xt-") + rocm, plan_for("ubuntu2204-rx6700xt", o));
  }
  // AMD lists Debian for Instinct GPUs only: the default plans are an
  // MI300X's; the RX 7900 XTX gets a release there only when --rocm names it
  // (its plans say so), and a refusal without.
  Edit bookworm = debian("12", "bookworm", "6.1.0-25-amd64");
  golden_json("debian12-mi300x-default", plan_for("ubuntu2404-rx7900xtx", {}, both(bookworm, mi300x)));
  for (const char* rocm : {"7.1.1", "7.0.2", "6.4.3"}) {
    InstallOptions o;
    o.rocm = rocm;
    golden_json(std::string("debian12-rx7900xtx-") + rocm, plan_for("ubuntu2404-rx7900xtx", o, bookworm));
  }
  PlanResult radeon = plan_for("ubuntu2404-rx7900xtx", {}, bookworm);
  REQUIRE(std::holds_alternative<InstallRefusal>(radeon));
  compare_golden("debian12-rx7900xtx-default-refusal.txt", render_refusal_text(std::get<InstallRefusal>(radeon)));
  golden_json("debian13-mi300x-default",
              plan_for("ubuntu2404-rx7900xtx", {}, both(debian("13", "trixie", "6.12.48+deb13-amd64"), mi300x)));
}

TEST_CASE("plans pick the release, repositories and lines per distribution", "[install-plan]") {
  InstallPlan noble = must_plan(plan_for("ubuntu2404-rx7900xtx"));
  CHECK(noble.rocm == "7.2.4");
  CHECK(noble.driver == "30.30.4");
  CHECK(noble.user == "alex");
  CHECK(noble.venv == "/home/alex/rocm-venv");
  InstallPlan deb = must_plan(plan_for("ubuntu2404-rx7900xtx", {}, both(debian("12", "bookworm", "6.1.0-25-amd64"), mi300x)));
  CHECK(deb.rocm == "7.2.4");
  CHECK(deb.codename == "jammy");
  for (auto& s : deb.steps) {
    if (s.id == "amdgpu-list")  // Debian's driver line has no i386
      CHECK(s.actions[0].content ==
            "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/30.30.4/ubuntu jammy main\n");
    if (s.id == "headers") CHECK(s.checks[0].names[0] == "linux-headers-6.1.0-25-amd64");
    if (s.id == "headers") CHECK(s.checks[0].names[1] == "python3-setuptools");  // no linux-modules-extra on Debian
  }
  // gfx1031 is on no list: planned as gfx1030 with the override named.
  InstallPlan rx6700 = must_plan(plan_for("ubuntu2204-rx6700xt"));
  bool override_note = false;
  for (auto& n : rx6700.notes) override_note |= n.find("HSA_OVERRIDE_GFX_VERSION=10.3.0") != std::string::npos;
  CHECK(override_note);
  InstallOptions line;
  line.rocm = "7.1";
  CHECK(must_plan(plan_for("ubuntu2404-rx7900xtx", line)).rocm == "7.1.1");
}

TEST_CASE("step ids and order follow the reference step model (install.md §8)", "[install-plan]") {
  // Secure Boot on and a distribution rocminfo installed: every step applies.
  Edit everything = [](Json& f) {
    f["firmware"]["secure_boot"] = true;
    f["rocm"]["packages"].push_back({{"name", "rocminfo"}, {"version", "5.7.1-3build1"}, {"origin", "distro"}});
    f["rocm"]["apt_sources"].push_back({{"file", "/etc/apt/sources.list.d/amdgpu-proprietary.list"}});
  };
  InstallPlan p = must_plan(plan_for("ubuntu2404-rx7900xtx", {}, everything));
  std::vector<std::string> reference, got = ids(p);
  for (auto& id : got)
    if (std::find(preflight_step_ids().begin(), preflight_step_ids().end(), id) == preflight_step_ids().end())
      reference.push_back(id);
  std::vector<std::string> model = reference_step_ids();
  model.erase(std::find(model.begin(), model.end(), "driver-key"));  // only where the release has its own key
  // Only where the running kernel is not one the release lists (below).
  for (const char* id : {"kernel-candidate", "listed-kernel", "kernel-reboot"})
    model.erase(std::find(model.begin(), model.end(), id));
  CHECK(reference == model);
  std::vector<std::string> expected = {"os", "kernel", "disk", "apt-lock", "dpkg", "secureboot", "headers-available",
                                       "leftover-repos", "apt-base", "headers", "groups", "key", "probe-repos",
                                       "amdgpu-list", "rocm-list", "pin", "apt-update", "apt-simulate", "distro-rocm",
                                       "mok", "amdgpu-dkms", "reboot", "driver-loaded", "rocm", "ldconf", "path",
                                       "verify-rocm", "venv-pkg", "venv", "torch", "verify-torch"};
  CHECK(got == expected);
  for (auto& s : p.steps) {
    if (s.id == "apt-simulate") CHECK(s.checks[0].names == std::vector<std::string>{"rocminfo"});
    if (s.id == "distro-rocm") CHECK(s.checks[0].value == "~24.04");
    if (s.id == "mok" || s.id == "amdgpu-dkms") CHECK(s.reboot_after);
  }
  InstallOptions bare;
  bare.driver = false;
  bare.torch = false;
  std::vector<std::string> user_space = {"os", "kernel", "disk", "apt-lock", "dpkg", "apt-base", "groups", "key", "probe-repos",
                                         "rocm-list", "pin", "apt-update", "apt-simulate", "rocm", "ldconf", "path",
                                         "verify-rocm"};
  CHECK(ids(must_plan(plan_for("ubuntu2404-rx7900xtx", bare))) == user_space);
}

TEST_CASE("refusals say why and what to do instead", "[install-plan]") {
  auto refusal = [](const PlanResult& r) {
    REQUIRE(std::holds_alternative<InstallRefusal>(r));
    const InstallRefusal& x = std::get<InstallRefusal>(r);
    CHECK(!x.reason.empty());
    CHECK(!x.instead.empty());
    return x.id;
  };
  InstallOptions no_driver;
  no_driver.driver = false;
  CHECK(refusal(plan_for("debian12-vm-distro-rocm", no_driver)) == "no-amd-gpu");
  CHECK(refusal(plan_for("mi300x-container")) == "container-driver");
  // The devices are passed in as the container's runtime does it: Docker's
  // flags for Docker, the container's config for an LXC one (Proxmox).
  auto docker = std::get<InstallRefusal>(plan_for("mi300x-container"));
  CHECK(docker.instead.find("--device /dev/kfd") != std::string::npos);
  auto lxc = std::get<InstallRefusal>(plan_for("proxmox-lxc-unprivileged"));
  CHECK(lxc.id == "container-driver");
  CHECK(lxc.instead.find("--device") == std::string::npos);
  CHECK(lxc.instead.find("dev0: /dev/kfd") != std::string::npos);
  CHECK(refusal(plan_for("ubuntu2404-rx7900xtx", {}, [](Json& f) { f["platform"]["kind"] = "wsl2"; })) == "wsl2");
  auto wsl = std::get<InstallRefusal>(plan_for("ubuntu2404-rx7900xtx", {}, [](Json& f) { f["platform"]["kind"] = "wsl2"; }));
  CHECK(wsl.reason.find("--usecase=wsl,rocm") != std::string::npos);
  CHECK(refusal(plan_for("ubuntu2404-rx7900xtx", {}, [](Json& f) { f["distro"]["id"] = "fedora"; f["distro"]["version_id"] = "40"; })) ==
        "unsupported-distro");
  CHECK(refusal(plan_for("ubuntu2404-rx7900xtx", {}, [](Json& f) { f["host"]["arch"] = "aarch64"; })) == "unsupported-architecture");
  Edit old_gpu = [](Json& f) {
    add_derived_facts(f, *shipped().knowledge.matrix, std::nullopt);
    f["gpus"][0]["gfx"] = "gfx803";
  };
  CHECK(refusal(plan_for("ubuntu2404-rx7900xtx", {}, old_gpu)) == "unsupported-gpu");
  InstallOptions old;
  old.rocm = "5.7.1";
  CHECK(refusal(plan_for("ubuntu2404-rx7900xtx", old)) == "release-not-covered");
  // What --rocm can name instead is what installs on this distribution: on
  // Ubuntu 26.04 the Core SDK line, not the production releases.
  InstallOptions r7141;
  r7141.rocm = "7.14.1";
  auto not_covered = std::get<InstallRefusal>(plan_for("ubuntu2604-rx7900xtx", r7141));
  CHECK(not_covered.id == "release-not-covered");
  CHECK(not_covered.instead.find("on Ubuntu 26.04 (10.1.0, 10.0.0)") != std::string::npos);
  CHECK(not_covered.instead.find("7.2.4") == std::string::npos);
  InstallOptions r643;
  r643.rocm = "6.4.3";
  CHECK(refusal(plan_for("ubuntu2404-rx7900xtx", r643, debian("13", "trixie", "6.12.48+deb13-amd64"))) ==
        "release-not-for-distro");
}

TEST_CASE("recipe loader errors carry file:line:column", "[install-plan]") {
  std::vector<LoadError> errors;
  load_install_recipes({{"rules/install/x.yaml", "schema: 1\nas_of: \"2026-01-01\"\nkey:\n  url: http://example.com/k\n"}},
                       errors);
  REQUIRE(!errors.empty());
  CHECK(errors[0].str().rfind("rules/install/x.yaml:4:8: ", 0) == 0);
  errors.clear();
  load_install_recipes({{"rules/install/y.yaml", "schema: 1\nas_of: \"x\"\nwhat: 1\n"}}, errors);
  REQUIRE(!errors.empty());
  CHECK(errors[0].str().rfind("rules/install/y.yaml:3:1: unknown key 'what'", 0) == 0);
  errors.clear();
  load_install_recipes({{"rules/install/z.yaml", "schema: 1\nas_of: [\n"}}, errors);
  REQUIRE(!errors.empty());
  CHECK(errors[0].str().find("rules/install/z.yaml:") == 0);
  CHECK(errors[0].message.find("YAML syntax error") == 0);
}

namespace {

const char* kTrusted = "0123456789ABCDEF0123456789ABCDEF01234567";  // a made-up fingerprint "the user checked"
const char* kCoreKey = "D0F004A0025A1145C7807FCD0701EAC4D5E02107";   // the one AMD's TheRock code pins

InstallOptions core_sdk() {
  InstallOptions o;
  o.rocm = "10.0.0";
  o.driver = false;
  o.torch = false;
  return o;
}

// The shipped recipes with the Core SDK key's fingerprint unknown again: the
// --trust-key path for a release whose key no source pins.
const InstallRecipes& unpinned_recipes() {
  static InstallRecipes r = [] {
    InstallRecipes copy = shipped().recipes;
    for (auto& rel : copy.releases)
      if (rel.key) {
        rel.key->fingerprint.clear();
        rel.key->fingerprint_note.clear();
        rel.key->fingerprint_unknown = "no source gives it (a test)";
      }
    return copy;
  }();
  return r;
}

const PlanStep& step_of(const InstallPlan& p, const std::string& id) {
  for (auto& s : p.steps)
    if (s.id == id) return s;
  FAIL("no step " + id);
  throw;
}

}  // namespace

TEST_CASE("golden plans: the Core SDK 10.0 line on Ubuntu 24.04, 22.04 and Debian 12", "[install-plan]") {
  golden_json("ubuntu2404-rx7900xtx-10.0.0", plan_for("ubuntu2404-rx7900xtx", core_sdk()));
  golden_json("ubuntu2204-rx6700xt-10.0.0", plan_for("ubuntu2204-rx6700xt", core_sdk()));
  golden_json("debian12-rx7900xtx-10.0.0", plan_for("ubuntu2404-rx7900xtx", core_sdk(), debian("12", "bookworm", "6.1.0-25-amd64")));
  compare_golden("ubuntu2404-rx7900xtx-10.0.0.txt",
                 render_plan_text(must_plan(plan_for("ubuntu2404-rx7900xtx", core_sdk())), {false, true}));
}

TEST_CASE("Core SDK 10.0: its own key, a deb822 source, per-gfx packages, no pin or loader file", "[install-plan]") {
  InstallPlan p = must_plan(plan_for("ubuntu2404-rx7900xtx", core_sdk()));
  CHECK(p.rocm == "10.0.0");
  CHECK(!p.blocked);
  CHECK(p.codename == "stable");
  const PlanStep& key = step_of(p, "key");
  CHECK(key.checks[0].path == "/etc/apt/keyrings/amdrocm.gpg");
  CHECK(key.checks[0].value == kCoreKey);
  CHECK(key.actions[2].url == "https://stable.repo.amd.com/rocm/gpg/packages.gpg");
  CHECK(key.actions[2].fingerprint == kCoreKey);  // the download is checked against the pinned key before use
  // Where the fingerprint comes from is in the notes: no install guide prints it.
  bool sourced = false;
  for (auto& n : p.notes) sourced |= n.find("AMD's install guides print no fingerprint") != std::string::npos;
  CHECK(sourced);
  const PlanStep& source = step_of(p, "rocm-list");
  CHECK(source.actions[0].path == "/etc/apt/sources.list.d/amdrocm-stable.sources");
  CHECK(source.actions[0].content.find("URIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2404/\n") != std::string::npos);
  CHECK(source.actions[0].content.find("Signed-By: /etc/apt/keyrings/amdrocm.gpg\n") != std::string::npos);
  CHECK(step_of(p, "probe-repos").checks[0].argv.back() ==
        "https://stable.repo.amd.com/rocm/core/packages/ubuntu2404/dists/stable/Release");
  CHECK(step_of(p, "apt-update").checks[0].value == "https://stable.repo.amd.com/rocm/core/packages/ubuntu2404");
  CHECK(step_of(p, "rocm").actions[0].argv.back() == "amdrocm10.0-gfx1100");
  CHECK(step_of(p, "apt-base").checks[0].names ==
        std::vector<std::string>{"ca-certificates", "curl", "gnupg", "libatomic1", "libquadmath0", "python3-setuptools",
                                 "python3-wheel"});
  // The fixture has ROCm 6.4.1 from repo.radeon.com: AMD's guide says to uninstall it first (a gate), and its
  // rocm.list and pin are leftovers now (this release writes neither).
  CHECK(step_of(p, "older-rocm").checks[0].names == std::vector<std::string>{"rocm-core"});
  CHECK(step_of(p, "older-rocm").actions.empty());
  std::vector<std::string> moved;
  for (auto& c : step_of(p, "leftover-repos").checks) moved.push_back(c.path);
  CHECK(moved == std::vector<std::string>{"/etc/apt/sources.list.d/rocm.list", "/etc/apt/preferences.d/rocm-pin-600"});
  std::vector<std::string> expected = {"os", "kernel", "disk", "apt-lock", "dpkg", "older-rocm", "leftover-repos", "apt-base",
                                       "groups", "key", "probe-repos", "rocm-list", "apt-update", "apt-simulate", "rocm",
                                       "verify-rocm"};
  CHECK(ids(p) == expected);
  const PlanStep& verify = step_of(p, "verify-rocm");
  CHECK(verify.checks[1].argv == std::vector<std::string>{"rocminfo"});
  CHECK(verify.checks[2].argv == std::vector<std::string>{"amd-smi", "version"});
  CHECK(verify.checks[2].value == "ROCm version: 10.0.");
  // Debian 12 has its own directory (AMD's 7.x lines use jammy's).
  InstallPlan deb = must_plan(plan_for("ubuntu2404-rx7900xtx", core_sdk(), debian("12", "bookworm", "6.1.0-25-amd64")));
  CHECK(step_of(deb, "rocm-list").actions[0].content.find("/rocm/core/packages/debian12/\n") != std::string::npos);
  // gfx1031 (RX 6700 XT) stands in as gfx1030, which has its own package.
  InstallPlan rx6700 = must_plan(plan_for("ubuntu2204-rx6700xt", core_sdk()));
  CHECK(step_of(rx6700, "rocm").actions[0].argv.back() == "amdrocm10.0-gfx1030");
}

TEST_CASE("Core SDK 10.0: a GPU without its own package gets the all-GPU one, with a note", "[install-plan]") {
  // gfx906 (Radeon VII, MI50): on older releases' lists, not among 10.0's per-target packages.
  Edit vega20 = [](Json& f) {
    add_derived_facts(f, *shipped().knowledge.matrix, std::nullopt);
    f["gpus"][0]["gfx"] = "gfx906";
  };
  InstallPlan p = must_plan(plan_for("ubuntu2404-rx7900xtx", core_sdk(), vega20));
  CHECK(step_of(p, "rocm").actions[0].argv.back() == "amdrocm10.0");
  bool noted = false;
  for (auto& n : p.notes) noted |= n.find("no package built for gfx906 alone") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("Core SDK 10.0: an unknown key fingerprint blocks the run, never trusted silently", "[install-plan]") {
  InstallPlan p = must_plan(plan_for("ubuntu2404-rx7900xtx", core_sdk(), nullptr, &unpinned_recipes()));
  REQUIRE(p.blocked);
  CHECK(p.blocked->id == "key-not-confirmed");
  CHECK(p.blocked->instead.find("--trust-key") != std::string::npos);
  const PlanStep& key = step_of(p, "key");
  CHECK(key.checks[0].value.empty());
  CHECK(key.actions[2].fingerprint.empty());
  Json j = render_plan_json(p);
  CHECK(j["blocked"]["id"] == "key-not-confirmed");
  InstallOptions trusted = core_sdk();
  trusted.trusted_key = kTrusted;
  InstallPlan confirmed = must_plan(plan_for("ubuntu2404-rx7900xtx", trusted, nullptr, &unpinned_recipes()));
  CHECK(!render_plan_json(confirmed).contains("blocked"));
  CHECK(step_of(confirmed, "key").checks[0].value == kTrusted);
  // The shipped recipe pins the key: not blocked, and another --trust-key is refused.
  CHECK(!render_plan_json(must_plan(plan_for("ubuntu2404-rx7900xtx", core_sdk()))).contains("blocked"));
  PlanResult other = plan_for("ubuntu2404-rx7900xtx", trusted);
  REQUIRE(std::holds_alternative<InstallRefusal>(other));
  CHECK(std::get<InstallRefusal>(other).id == "trust-key-mismatch");
  // --trust-key is for keys the recipe does not know: on a release whose fingerprint it knows, another one is refused.
  InstallOptions legacy;
  legacy.trusted_key = kTrusted;
  PlanResult r = plan_for("ubuntu2404-rx7900xtx", legacy);
  REQUIRE(std::holds_alternative<InstallRefusal>(r));
  CHECK(std::get<InstallRefusal>(r).id == "trust-key-mismatch");
  legacy.trusted_key = "CA8BB4727A47B4D09B4EE8969386B48A1A693C5C";  // the same key: accepted
  CHECK(!must_plan(plan_for("ubuntu2404-rx7900xtx", legacy)).blocked);
}

TEST_CASE("Core SDK 10.0: the AMD GPU Driver 31.50 under the shared key, PyTorch from the rocm7.14 index", "[install-plan]") {
  InstallOptions o = core_sdk();
  o.driver = true;
  o.torch = true;
  InstallPlan p = must_plan(plan_for("ubuntu2404-rx7900xtx", o));
  CHECK(p.driver == "31.50");
  // Two keys: the Core SDK's for its source, repo.radeon.com's for amdgpu.list (AMD's driver guide).
  CHECK(step_of(p, "key").checks[0].path == "/etc/apt/keyrings/amdrocm.gpg");
  const PlanStep& driver_key = step_of(p, "driver-key");
  CHECK(driver_key.checks[0].path == "/etc/apt/keyrings/rocm.gpg");
  CHECK(driver_key.checks[0].value == "CA8BB4727A47B4D09B4EE8969386B48A1A693C5C");
  CHECK(driver_key.actions[2].url == "https://repo.radeon.com/rocm/rocm.gpg.key");
  CHECK(step_of(p, "amdgpu-list").actions[0].content ==
        "deb [arch=amd64,i386 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/31.50/ubuntu noble main\n");
  CHECK(step_of(p, "probe-repos").checks[0].argv.back() == "https://repo.radeon.com/amdgpu/31.50/ubuntu/dists/noble/Release");
  CHECK(step_of(p, "amdgpu-dkms").checks[1].value == "31500000");
  CHECK(step_of(p, "torch").actions[0].argv.back() == "https://download.pytorch.org/whl/rocm7.14");
  // No driver key step where the release uses the shared key itself.
  auto shared = plan_for("ubuntu2404-rx7900xtx");  // named: must_plan returns a reference into it
  for (auto& s : must_plan(shared).steps) CHECK(s.id != "driver-key");
  // Never picked by default on 24.04, though it is the newest.
  CHECK(must_plan(plan_for("ubuntu2404-rx7900xtx")).rocm == "7.2.4");
  InstallOptions ten;
  ten.rocm = "10.0";
  ten.driver = false;
  ten.torch = false;
  CHECK(must_plan(plan_for("ubuntu2404-rx7900xtx", ten)).rocm == "10.0.0");
  ten.rocm = "10.1";
  CHECK(must_plan(plan_for("ubuntu2404-rx7900xtx", ten)).rocm == "10.1.0");
}

TEST_CASE("golden plans: a fresh Ubuntu 26.04 with an RX 7900 XTX or an R9700, --auto", "[install-plan]") {
  golden_json("ubuntu2604-rx7900xtx-default", plan_for("ubuntu2604-rx7900xtx"));
  compare_golden("ubuntu2604-rx7900xtx-default.txt", render_plan_text(must_plan(plan_for("ubuntu2604-rx7900xtx")), {false, true}));
  golden_json("ubuntu2604-r9700-default", plan_for("ubuntu2604-rx7900xtx", {}, r9700()));
}

TEST_CASE("Ubuntu 26.04 --auto: ROCm 10.1.0 with its driver and PyTorch, no --trust-key, nothing to ask", "[install-plan]") {
  InstallPlan p = must_plan(plan_for("ubuntu2604-rx7900xtx"));
  CHECK(p.rocm == "10.1.0");
  CHECK(p.distro == "ubuntu 26.04");
  CHECK(p.driver == "31.60");
  CHECK(!p.blocked);
  CHECK(step_of(p, "key").checks[0].value == kCoreKey);
  CHECK(step_of(p, "rocm-list").actions[0].content.find("URIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2604/\n") !=
        std::string::npos);
  CHECK(step_of(p, "amdgpu-list").actions[0].content ==
        "deb [arch=amd64,i386 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/31.60/ubuntu resolute main\n");
  CHECK(step_of(p, "amdgpu-dkms").checks[1].value == "31600000");
  CHECK(step_of(p, "headers").checks[0].names ==
        std::vector<std::string>{"linux-headers-7.0.0-15-generic", "linux-modules-extra-7.0.0-15-generic", "python3-setuptools",
                                 "python3-wheel"});
  CHECK(step_of(p, "rocm").actions[0].argv.back() == "amdrocm10.1-gfx1100");
  CHECK(step_of(p, "torch").actions[0].argv.back() == "https://download.pytorch.org/whl/rocm7.14");
  CHECK(step_of(p, "groups").checks[0].names == std::vector<std::string>{"render", "video"});
  // Its steps (both keys among them) keep the reference order.
  std::vector<std::string> order;
  for (auto& id : ids(p))
    if (std::find(preflight_step_ids().begin(), preflight_step_ids().end(), id) == preflight_step_ids().end())
      order.push_back(id);
  auto at = [&](const std::string& id) {
    return std::find(reference_step_ids().begin(), reference_step_ids().end(), id) - reference_step_ids().begin();
  };
  CHECK(std::is_sorted(order.begin(), order.end(), [&](auto& a, auto& b) { return at(a) < at(b); }));
  CHECK(std::find(order.begin(), order.end(), "driver-key") != order.end());
  // The plan says why the Core SDK line here, that nothing newer is left out, and where the key's fingerprint comes from.
  auto noted = [&](const std::string& text) {
    return std::any_of(p.notes.begin(), p.notes.end(), [&](auto& n) { return n.find(text) != std::string::npos; });
  };
  CHECK(noted("ROCm 10.1.0 is the default on Ubuntu 26.04 (elsewhere only where --rocm names it or no other release lists the GPU)"));
  CHECK(!noted("but rocmdoc has no install recipe for it"));
  CHECK(noted("AMD's install guides print no fingerprint"));
  // An R9700 (gfx1201) gets its own package.
  CHECK(step_of(must_plan(plan_for("ubuntu2604-rx7900xtx", {}, r9700())), "rocm").actions[0].argv.back() == "amdrocm10.1-gfx1201");
}

// AMD's guides give Ryzen APUs the kernel's inbox amdgpu: a machine whose
// only AMD GPU is an APU's (Strix Halo, gfx1151) gets no driver steps.
namespace {
// Strix Halo (Ryzen AI Max, gfx1151) in place of the machine's RX 7900 XTX.
Edit strix_halo = [](Json& f) {
  f["pci"]["gpus"][0]["device_id"] = "0x1586";
  f["kfd"]["gpus"][0]["gfx"] = "gfx1151";
};
}  // namespace

TEST_CASE("an APU-only machine: no amdgpu-dkms, no reboot, and the plan says why", "[install-plan]") {
  InstallPlan apu = must_plan(plan_for("ubuntu2604-rx7900xtx", {}, strix_halo));
  CHECK(apu.rocm == "10.1.0");
  CHECK(apu.driver.empty());
  std::vector<std::string> steps = ids(apu);
  for (const char* driver_step : {"amdgpu-dkms", "reboot", "amdgpu-list", "driver-loaded"})
    CHECK(std::find(steps.begin(), steps.end(), driver_step) == steps.end());
  CHECK(step_of(apu, "rocm").actions[0].argv.back() == "amdrocm10.1-gfx1151");
  CHECK(std::any_of(apu.notes.begin(), apu.notes.end(),
                    [](auto& n) { return n.find("a Ryzen APU's (gfx1151)") != std::string::npos; }));
  // The discrete card keeps its driver.
  CHECK(must_plan(plan_for("ubuntu2604-rx7900xtx")).driver == "31.60");
}

// A Krackan Point APU (gfx1152) on Ubuntu 26.04: ROCm 10.1.0 lists it, but
// PyTorch 2.14.0's rocm7.14 wheels carry no gfx1152 code (pytorch.yaml's
// gfx list): no torch step that would install them and fail at
// verify-torch, and a note that says why and what would have it.
TEST_CASE("a PyTorch wheel without code for the GPU is not planned, and the plan says why", "[install-plan]") {
  Edit krackan = [](Json& f) {
    f["pci"]["gpus"][0]["device_id"] = "0x1114";
    f["kfd"]["gpus"][0]["gfx"] = "gfx1152";
  };
  InstallPlan p = must_plan(plan_for("ubuntu2604-rx7900xtx", {}, krackan));
  CHECK(p.rocm == "10.1.0");
  std::vector<std::string> steps = ids(p);
  for (const char* torch_step : {"venv", "torch", "verify-torch"})
    CHECK(std::find(steps.begin(), steps.end(), torch_step) == steps.end());
  CHECK(p.venv.empty());
  CHECK(p.torch_left_out == "no PyTorch wheel has gfx1152's code");
  CHECK(std::any_of(p.notes.begin(), p.notes.end(), [](auto& n) {
    return n.find("PyTorch 2.14.0's wheels for ROCm 7.14 (https://download.pytorch.org/whl/rocm7.14) carry no code for "
                  "gfx1152") == 0 &&
           n.find("the plan installs no PyTorch (as with --no-torch)") != std::string::npos;
  }));
  // Strix Halo (gfx1151) is in that list: its plan keeps PyTorch.
  InstallPlan halo = must_plan(plan_for("ubuntu2604-rx7900xtx", {}, strix_halo));
  std::vector<std::string> halo_steps = ids(halo);
  CHECK(std::find(halo_steps.begin(), halo_steps.end(), "torch") != halo_steps.end());
}

// Strix Halo on Ubuntu 24.04: a production release lists gfx1151 (the
// Radeon/Ryzen 6.4.4), so the first on-request path, for a GPU no
// production release lists, does not apply; none of the releases picked by
// default on 24.04 lists it, and the Core SDK line does: the second path,
// after the default releases, plans 10.1.0, the release check names too.
TEST_CASE("Strix Halo on Ubuntu 24.04: the on-request path after the default releases plans 10.1.0", "[install-plan]") {
  const Matrix& m = *shipped().knowledge.matrix;
  REQUIRE(!m.releases_for_gfx("gfx1151").empty());
  for (auto& rel : shipped().recipes.releases)
    if (!rel.on_request) CHECK(m.gpu_support(rel.version, "gfx1151").json() != "supported");
  InstallPlan p = must_plan(plan_for("ubuntu2404-rx7900xtx", {}, strix_halo));
  CHECK(p.rocm == "10.1.0");
  CHECK(p.distro == "ubuntu 24.04");
  CHECK(p.driver.empty());  // an APU: the kernel's own amdgpu
  CHECK(step_of(p, "rocm").actions[0].argv.back() == "amdrocm10.1-gfx1151");
  CHECK(std::any_of(p.notes.begin(), p.notes.end(), [](auto& n) {
    return n == "None of the releases rocmdoc installs by default on Ubuntu 24.04 (7.2.4, 7.1.1, 7.0.2, 6.4.3) lists gfx1151; "
                "ROCm 10.1.0 does, and the plan installs it.";
  }));
  CHECK(std::none_of(p.notes.begin(), p.notes.end(), [](auto& n) { return n.find("HSA_OVERRIDE_GFX_VERSION") != std::string::npos; }));
  // check names the same release for the GPU there.
  Json f = facts_for_root(machine_root("ubuntu2404-rx7900xtx"));
  strix_halo(f);
  add_derived_facts(f, m, std::nullopt);
  CHECK(f["target"]["newest_for_gpu"] == "10.1.0");
}

// The refusal's hint names an on-request release only where it would pass
// for the GPU's family and the distribution, as on_request_listing asks.
TEST_CASE("a refusal hints at an on-request release only where it lists the distribution for the GPU", "[install-plan]") {
  // Strix Halo on Ubuntu 22.04: 10.1.0 builds amdrocm10.1-gfx1151, but lists
  // no kernel for Ryzen APUs there.
  PlanResult jammy = plan_for("ubuntu2204-rx6700xt", {}, strix_halo);
  REQUIRE(std::holds_alternative<InstallRefusal>(jammy));
  const InstallRefusal& apu = std::get<InstallRefusal>(jammy);
  CHECK(apu.id == "unsupported-gpu");
  CHECK(apu.instead.find("--rocm 10.1.0") == std::string::npos);
  CHECK(apu.instead.find("amdrocm10.1-gfx1151") == std::string::npos);
  // An RX 5700 XT (gfx1010, on no list, its override reported to need
  // builds for gfx1010 itself) with recipes whose 10.1.0 builds a gfx1010
  // package: named on Ubuntu 24.04, which 10.1.0 lists for Radeon cards,
  // not on Debian 12, which it lists for Instinct GPUs only.
  InstallRecipes building = shipped().recipes;
  for (auto& rel : building.releases)
    if (rel.version == "10.1.0") rel.gfx_packages.push_back("gfx1010");
  Edit navi10 = [](Json& f) {
    f["pci"]["gpus"][0]["device_id"] = "0x731f";
    f["kfd"]["gpus"][0]["gfx"] = "gfx1010";
  };
  auto instead = [&](const Edit& where) {
    PlanResult r = plan_for("ubuntu2404-rx7900xtx", {}, where, &building);
    REQUIRE(std::holds_alternative<InstallRefusal>(r));
    return std::get<InstallRefusal>(r).instead;
  };
  CHECK(instead(navi10).find("ROCm 10.1.0 builds amdrocm10.1-gfx1010: `rocmdoc install --rocm 10.1.0`") != std::string::npos);
  CHECK(instead(both(debian("12", "bookworm", "6.1.0-25-amd64"), navi10)).find("--rocm 10.1.0") == std::string::npos);
}

// An RX 7600 (gfx1102) with ROCm 6.4.1 installed: AMD's 7.2.x tables do not
// list gfx1102 (their Radeon list ends at the RX 7700), its 7.14.1 and 10.x
// tables do, and the Core SDK guide asks for 7.2.4 or older to be
// uninstalled first. So the plan is 10.1.0 with the older-rocm gate, which
// names both ways forward: the removal, or 7.2.4 over the old release as
// gfx1100 with the override users report, outside AMD's support.
TEST_CASE("an RX 7600 over an older ROCm: 10.1.0, and the gate names the removal or --rocm 7.2.4 and what it gives up",
          "[install-plan]") {
  const Matrix& m = *shipped().knowledge.matrix;
  CHECK(m.gpu_support("7.2.4", "gfx1102").json() == "not_listed");
  CHECK(m.gpu_support("10.1.0", "gfx1102").json() == "supported");
  Edit rx7600 = [](Json& f) {
    f["pci"]["gpus"][0]["device_id"] = "0x7480";
    f["kfd"]["gpus"][0]["gfx"] = "gfx1102";
  };
  InstallPlan p = must_plan(plan_for("ubuntu2404-rx7900xtx", {}, rx7600));
  CHECK(p.rocm == "10.1.0");
  const PlanStep& gate = step_of(p, "older-rocm");
  CHECK(gate.actions.empty());
  CHECK(gate.title.find("`sudo apt autoremove rocm`, then `sudo apt autoremove rocm-core`") != std::string::npos);
  CHECK(gate.title.find("or install ROCm 7.2.4 over it instead, `rocmdoc install --rocm 7.2.4`, which gives up AMD's support "
                        "for this GPU: ROCm 7.2.4 does not list gfx1102, so it runs as gfx1100 with "
                        "HSA_OVERRIDE_GFX_VERSION=11.0.0") != std::string::npos);
  // The facts show rocm-core: the plan says before anything runs that the run will stop there.
  CHECK(noted(p, "rocm-core is installed (an earlier ROCm): a run stops at the older-rocm step until it is uninstalled"));
  // The way forward it names: 7.2.4 for gfx1100, with the override in a note, and no gate.
  InstallOptions named;
  named.rocm = "7.2.4";
  InstallPlan production = must_plan(plan_for("ubuntu2404-rx7900xtx", named, rx7600));
  CHECK(production.rocm == "7.2.4");
  CHECK(noted(production, "HSA_OVERRIDE_GFX_VERSION=11.0.0"));
  CHECK(std::none_of(production.steps.begin(), production.steps.end(), [](auto& s) { return s.id == "older-rocm"; }));
  // Without an earlier ROCm, no such note; on Ubuntu 26.04, which no release
  // picked by default covers, the gate names the removal only.
  Edit clean = [&](Json& f) {
    rx7600(f);
    Json kept = Json::array();
    for (auto& pkg : f["rocm"]["packages"])
      if (pkg["name"] != "rocm-core") kept.push_back(pkg);
    f["rocm"]["packages"] = kept;
  };
  CHECK(!noted(must_plan(plan_for("ubuntu2404-rx7900xtx", {}, clean)), "rocm-core is installed"));
  CHECK(step_of(must_plan(plan_for("ubuntu2604-rx7900xtx")), "older-rocm").title.find("--rocm") == std::string::npos);
}

TEST_CASE("recipe loader: the per-release keys of the Core SDK line are checked strictly", "[install-plan]") {
  auto first_error = [](const std::string& release) {
    std::string text = "schema: 1\nas_of: \"2026-01-01\"\nreleases:\n" + release;
    std::vector<LoadError> errors;
    load_install_recipes({{"rules/install/c.yaml", text}}, errors);
    return errors.empty() ? std::string() : errors[0].str();
  };
  const std::string head = "- version: \"10.0.0\"\n  distros: [\"ubuntu 24.04\"]\n  unverified: []\n  sources: []\n"
                           "  driver_gap: {reason: r, instead: i}\n  torch_gap: {reason: r, instead: i}\n";
  const std::string source =
      "  source_file:\n    path: /etc/apt/sources.list.d/a.sources\n    uri: https://x.example/{dist}/\n    suite: stable\n"
      "    dists: {ubuntu 24.04: u2404}\n    content: \"URIs: {uri}\\nSuites: {suite}\\nSigned-By: {keyring}\\n\"\n";
  CHECK(first_error(head + source + "  rocm_repo: https://x.example/r\n").find("not both") != std::string::npos);
  CHECK(first_error(head + replace_all(source, "{dist}/", "u/")).find("must contain {dist}") != std::string::npos);
  CHECK(first_error(head + replace_all(source, "a.sources", "a.list")).find("ending in .sources") != std::string::npos);
  CHECK(first_error(head + replace_all(source, "{ubuntu 24.04: u2404}", "{debian 12: d12}"))
            .find("no repository directory for 'ubuntu 24.04'") != std::string::npos);
  CHECK(first_error(head + source + "  driver: \"31.50\"\n").find("has no 'driver'") != std::string::npos);
  CHECK(first_error(head + source + "  default_for: [\"ubuntu 24.04\"]\n").find("this one is not on request") !=
        std::string::npos);
  CHECK(first_error(head + source + "  on_request: \"true\"\n  default_for: [\"ubuntu 26.04\"]\n")
            .find("'ubuntu 26.04' in 'default_for' is not among the release's distros") != std::string::npos);
  CHECK(first_error(head + source + "  torch_rocm: \"10.0\"\n").find("not both") != std::string::npos);
  CHECK(first_error(head + source + "  on_request: maybe\n").find("true or false") != std::string::npos);
  CHECK(first_error(head + source + "  packages: {rocm: [a], gfx: [gfx1100]}\n").find("targets of 'gfx_package'") !=
        std::string::npos);
  CHECK(first_error(head + source + "  packages: {rocm: [a], gfx_package: a-gfx, gfx: []}\n").find("contain {gfx}") !=
        std::string::npos);
  CHECK(first_error(head + replace_all(source, "Suites: {suite}\\n", "Suites: stable\\n")).find("must contain {suite}") !=
        std::string::npos);
  // A key given twice in any YAML mapping is refused by the parser itself,
  // before the recipe reader sees the mapping.
  CHECK(first_error(head + replace_all(source, "{ubuntu 24.04: u2404}", "{ubuntu 24.04: u2404, ubuntu 24.04: x}"))
            .find("the key 'ubuntu 24.04' is given twice") != std::string::npos);
  CHECK(first_error(head + source + "  packages: {rocm: [a], gfx_package: \"a-{gfx}\", gfx: []}\n").find("must name the targets") !=
        std::string::npos);
  CHECK(first_error(head + source + "  verify: {version_text: x}\n").find("goes with 'version'") != std::string::npos);
  // Positions point at the offending value (line 12: source_file.uri; line 16: the appended key).
  CHECK(first_error(head + replace_all(source, "{dist}/", "u/")).rfind("rules/install/c.yaml:12:10: ", 0) == 0);
  CHECK(first_error(head + source + "  on_request: maybe\n").rfind("rules/install/c.yaml:16:15: ", 0) == 0);
  std::string key = "  key: {url: https://x.example/k, fingerprint_unknown: why, keyring: /k, download: /d, sources: []}\n";
  CHECK(first_error(head + source + key).find("unknown distribution") != std::string::npos);  // the key itself is fine
  std::string both = replace_all(key, "fingerprint_unknown: why", "fingerprint_unknown: why, fingerprint: AB");
  CHECK(first_error(head + source + both).find("goes with a key that has no 'fingerprint'") != std::string::npos);
  std::string noted = replace_all(key, "fingerprint_unknown: why", "fingerprint_note: from where");
  CHECK(first_error(head + source + noted).find("this key has none") != std::string::npos);
  // The shared key must always give its fingerprint.
  std::vector<LoadError> errors;
  load_install_recipes({{"rules/install/k.yaml", "schema: 1\nas_of: \"2026-01-01\"\n" + replace_all(key, "  key:", "key:")}}, errors);
  REQUIRE(!errors.empty());
  CHECK(errors[0].str().find("goes with a key") == std::string::npos);
  CHECK(errors[0].str().find("'fingerprint'") != std::string::npos);
}

TEST_CASE("lint: every distribution a recipe installs a release on is in the matrix for that release", "[install-plan][lint]") {
  const Shipped& s = shipped();
  auto warnings = recipe_pairs_missing_from_matrix(s.recipes, *s.knowledge.matrix);
  std::vector<std::string> got;
  for (auto& w : warnings) got.push_back(w.str());
  // The shipped recipes and matrix agree: every release a recipe installs
  // on a distribution is listed by the matrix for it (the small matrix
  // below shows the warnings when they do not).
  CHECK(got.empty());

  std::vector<LoadError> errors;
  Matrix small = Matrix::load({{"m/r.yaml", "schema: 1\nas_of: \"2026-01-01\"\nsources: {s: x}\nreleases:\n"
                                            "- {version: \"7.2.4\", line: production, architectures: [], gpus: [],\n"
                                            "   distros: [{id: ubuntu, version: \"24.04\", kernels: []}],\n"
                                            "   install: null, confidence: low, sources: [s]}\n"}},
                              errors);
  REQUIRE(errors.empty());
  auto few = recipe_pairs_missing_from_matrix(s.recipes, small);
  const RecipeRelease* r724 = s.recipes.release("7.2.4");
  REQUIRE(r724);
  REQUIRE(r724->distros.size() == r724->distros_where.size());
  for (size_t i = 0; i < r724->distros.size(); ++i) {
    std::string expected = r724->distros_where[i].str() + ": release 7.2.4 installs on " + r724->distros[i] +
                           ", but the matrix does not list " + r724->distros[i] + " for ROCm 7.2.4";
    bool found = std::any_of(few.begin(), few.end(), [&](auto& w) { return w.str().find(expected) == 0; });
    CHECK(found == (r724->distros[i] != "ubuntu 24.04"));
  }
  CHECK(r724->distros_where[0].str().find("rules/install/releases.yaml:25:") == 0);
}

namespace {

// The container's host has only an NVIDIA GPU: the derived gpus are empty.
Edit nvidia_host = [](Json& f) {
  add_derived_facts(f, *shipped().knowledge.matrix, std::nullopt);
  f["pci"]["gpus"] = Json::array({{{"address", "0000:01:00.0"}, {"vendor", "nvidia"}, {"vendor_id", "0x10de"}}});
  f["gpus"] = Json::array();
};

// A recording that names no user.
Edit no_user = [](Json& f) { f["access"]["user"] = unknown("the recording has no user"); };

}  // namespace

TEST_CASE("several refusals: all named, the most fundamental first", "[install-plan]") {
  PlanResult r = plan_for("mi300x-container", {}, nvidia_host);
  REQUIRE(std::holds_alternative<InstallRefusal>(r));
  const InstallRefusal& x = std::get<InstallRefusal>(r);
  CHECK(x.id == "container-driver");
  CHECK(x.instead.find("on the host") != std::string::npos);
  // Its advice does not contradict the next reason: the host needs an AMD GPU first.
  CHECK(x.instead.find("First the host needs an AMD GPU") == 0);
  REQUIRE(x.also.size() == 1);
  CHECK(x.also[0].id == "no-amd-gpu");
  CHECK(x.also[0].reason.find("the host has no AMD GPU either") != std::string::npos);
  compare_golden("mi300x-container-nvidia-host-refusal.txt", render_refusal_text(x));
  Json j = render_refusal_json(x);
  CHECK(j["refusal"]["also"][0]["id"] == "no-amd-gpu");

  // WSL on arm64 with an unknown distribution: three reasons, in order.
  auto three = std::get<InstallRefusal>(plan_for("ubuntu2404-rx7900xtx", {}, [](Json& f) {
    f["platform"]["kind"] = "wsl2";
    f["host"]["arch"] = "aarch64";
    f["distro"]["id"] = "fedora";
    f["distro"]["version_id"] = "40";
  }));
  std::vector<std::string> order = {three.id};
  for (auto& a : three.also) order.push_back(a.id);
  CHECK(order == std::vector<std::string>{"wsl2", "unsupported-architecture", "unsupported-distro"});

  // One reason alone has no further ones.
  CHECK(std::get<InstallRefusal>(plan_for("mi300x-container")).also.empty());
  // --no-driver in that container: the GPU alone refuses, told as the host's.
  InstallOptions no_driver;
  no_driver.driver = false;
  auto gpu_only = std::get<InstallRefusal>(plan_for("mi300x-container", no_driver, nvidia_host));
  CHECK(gpu_only.id == "no-amd-gpu");
  CHECK(gpu_only.also.empty());
}

// Without an AMD GPU, the way to one depends on where rocmdoc runs: a VM
// gets one passed through from the machine it runs on, bare metal gets a card.
TEST_CASE("no AMD GPU: a VM, or a container in one, is told to pass one through, bare metal to fit one", "[install-plan]") {
  // The recorded container runs in a VM (the CPU's hypervisor flag).
  InstallRefusal in_vm = std::get<InstallRefusal>(plan_for("debian12-vm-distro-rocm"));
  CHECK(in_vm.id == "container-driver");
  REQUIRE(in_vm.also.size() == 1);
  CHECK(in_vm.also[0].id == "no-amd-gpu");
  CHECK(in_vm.also[0].reason.find("the host is a virtual machine with no AMD GPU passed through to it") != std::string::npos);
  CHECK(in_vm.also[0].instead.find("Pass an AMD GPU from AMD's compatibility matrix through to that virtual machine from "
                                   "the machine it runs on (the GPU must be in that machine)") == 0);
  CHECK(in_vm.also[0].instead.find("Put an AMD GPU") == std::string::npos);

  // The VM itself, no container.
  InstallOptions no_driver;
  no_driver.driver = false;
  auto vm = [](Json& f) {
    f["platform"]["kind"] = "vm";
    f["platform"]["in_container"] = false;
    f["platform"]["container_runtime"] = nullptr;
  };
  InstallRefusal plain_vm = std::get<InstallRefusal>(plan_for("debian12-vm-distro-rocm", no_driver, vm));
  CHECK(plain_vm.id == "no-amd-gpu");
  CHECK(plain_vm.reason.find("this is a virtual machine, and none is passed through to it") != std::string::npos);
  CHECK(plain_vm.instead.find("Pass an AMD GPU from AMD's compatibility matrix through from the host to this virtual "
                              "machine (the GPU must be in the host") == 0);

  // Bare metal keeps its advice: the card itself.
  InstallRefusal bare = std::get<InstallRefusal>(plan_for("debian12-vm-distro-rocm", no_driver, [&](Json& f) {
    vm(f);
    f["platform"]["kind"] = "bare_metal";
    f["platform"]["in_vm"] = false;
  }));
  CHECK(bare.id == "no-amd-gpu");
  CHECK(bare.reason == "No AMD GPU was found on the PCI bus.");
  CHECK(bare.instead.find("Check that the card is seated and powered") == 0);

  // WSL2's CPU shows the hypervisor flag too, but nothing is passed through
  // to it: its own refusal says where the GPU is, and no-amd-gpu does not
  // contradict it with passthrough advice.
  std::variant<InstallPlan, InstallRefusal> wsl_plan = plan_for("debian12-vm-distro-rocm", no_driver, [&](Json& f) {
    vm(f);
    f["platform"]["kind"] = "wsl2";
  });
  REQUIRE(std::holds_alternative<InstallRefusal>(wsl_plan));
  InstallRefusal wsl = std::get<InstallRefusal>(wsl_plan);
  std::vector<InstallRefusal> all = {wsl};
  all.insert(all.end(), wsl.also.begin(), wsl.also.end());
  for (auto& r : all) {
    INFO(r.id);
    CHECK(r.instead.find("through from the host to this virtual machine") == std::string::npos);
  }
}

TEST_CASE("an unknown user: no step names an empty user, and the plan asks for --user", "[install-plan]") {
  InstallPlan p = must_plan(plan_for("ubuntu2404-rx7900xtx", {}, no_user));
  CHECK(p.user.empty());
  CHECK(p.venv.empty());
  for (auto& id : ids(p))
    for (const char* user_step : {"groups", "verify-rocm", "venv-pkg", "venv", "torch", "verify-torch"}) CHECK(id != user_step);
  bool asks = false;
  for (auto& n : p.notes) asks |= n.find("--user NAME") != std::string::npos && n.find("the recording has no user") != std::string::npos;
  CHECK(asks);
  std::string json = facts_to_string(render_plan_json(p));
  CHECK(json.find("/home//") == std::string::npos);
  CHECK(json.find("\"\"]") == std::string::npos);  // no empty argv word (usermod -a -G render,video '')
  CHECK(render_plan_json(p)["plan"]["user"].is_null());
  std::string text = render_plan_text(p, {false, true});
  CHECK(text.find("for no user (not known: pass --user NAME)") != std::string::npos);
  golden_json("ubuntu2404-rx7900xtx-no-user", plan_for("ubuntu2404-rx7900xtx", {}, no_user));

  // --user gives the steps back.
  InstallOptions named;
  named.user = "alex";
  InstallPlan q = must_plan(plan_for("ubuntu2404-rx7900xtx", named, no_user));
  CHECK(q.user == "alex");
  std::vector<std::string> q_ids = ids(q);
  CHECK(std::find(q_ids.begin(), q_ids.end(), "groups") != q_ids.end());
}

namespace {

InstallOptions from_distro() {
  InstallOptions o;
  o.from = "distro";
  return o;
}

Edit trixie = debian("13", "trixie", "6.12.48+deb13-amd64");

// A GPU the matrix's own_packages lists do not name for Debian 13: the
// RX 9070 XT (Navi 48, gfx1201) in place of the RX 7900 XTX.
Edit rx9070 = [](Json& f) {
  f["pci"]["gpus"][0]["device_id"] = "0x7550";
  f["kfd"]["gpus"][0]["gfx"] = "gfx1201";
};

std::string refusal_id(const PlanResult& r) {
  REQUIRE(std::holds_alternative<InstallRefusal>(r));
  const InstallRefusal& x = std::get<InstallRefusal>(r);
  CHECK(!x.reason.empty());
  CHECK(!x.instead.empty());
  return x.id;
}

}  // namespace

TEST_CASE("golden plans: --from distro on Debian 13 and Ubuntu 26.04, and where there is nothing to install", "[install-plan]") {
  golden_json("debian13-rx7900xtx-from-distro", plan_for("ubuntu2404-rx7900xtx", from_distro(), trixie));
  compare_golden("debian13-rx7900xtx-from-distro.txt",
                 render_plan_text(must_plan(plan_for("ubuntu2404-rx7900xtx", from_distro(), trixie)), {false, true}));
  golden_json("ubuntu2604-rx7900xtx-from-distro", plan_for("ubuntu2604-rx7900xtx", from_distro()));
  // Rocky Linux has no ROCm packages of its own (RHEL's family ships none).
  PlanResult rocky = plan_for("rocky96-amd-rocm", from_distro());
  REQUIRE(std::holds_alternative<InstallRefusal>(rocky));
  compare_golden("rocky96-from-distro-refusal.txt", render_refusal_text(std::get<InstallRefusal>(rocky)));
  PlanResult fedora = plan_for("fedora43-distro-rocm", from_distro());
  REQUIRE(std::holds_alternative<InstallRefusal>(fedora));
  compare_golden("fedora43-from-distro-refusal.txt", render_refusal_text(std::get<InstallRefusal>(fedora)));
}

TEST_CASE("from distro: the distribution's packages, no key, lists, driver or reboot, and what it gives up", "[install-plan]") {
  InstallPlan p = must_plan(plan_for("ubuntu2404-rx7900xtx", from_distro(), trixie));
  CHECK(p.from == "distro");
  CHECK(p.rocm == "5.7.1");
  CHECK(p.distro == "debian 13");
  CHECK(p.codename == "trixie");
  CHECK(p.driver.empty());
  CHECK(plan_key(p) == "install debian-13 rocm-5.7.1 distro torch");
  // The fixture had ROCm 6.4.1 from AMD's repository: a gate asks to remove it, and its list and pin are moved aside.
  std::vector<std::string> expected = {"os", "disk", "apt-lock", "dpkg", "amd-rocm", "leftover-repos", "distro-simulate", "groups",
                                       "distro-packages", "verify-rocm", "venv-pkg", "venv", "torch", "verify-torch"};
  CHECK(ids(p) == expected);
  const PlanStep& packages = step_of(p, "distro-packages");
  std::vector<std::string> names = {"hipcc", "libamdhip64-dev", "rocminfo", "librocblas-dev", "libhipblas-dev"};
  CHECK(packages.checks[0].names == names);
  CHECK(packages.actions[0].argv == std::vector<std::string>{"apt-get", "update"});
  CHECK(packages.actions[1].argv == std::vector<std::string>{"apt-get", "install", "-y", "--no-install-recommends",
                                                             "--reinstall", "hipcc", "libamdhip64-dev", "rocminfo",
                                                             "librocblas-dev", "libhipblas-dev"});
  CHECK(step_of(p, "distro-simulate").checks[0].names.empty());  // removes nothing
  CHECK(step_of(p, "amd-rocm").actions.empty());                // a gate: rocmdoc does not remove AMD's release
  CHECK(step_of(p, "amd-rocm").checks[0].kind == StepCheck::Kind::packages_absent);
  CHECK(step_of(p, "verify-rocm").checks[1].argv == std::vector<std::string>{"/usr/bin/rocminfo"});
  CHECK(step_of(p, "verify-rocm").checks[1].value == "gfx1100");
  CHECK(step_of(p, "torch").actions[0].argv.back() == "https://download.pytorch.org/whl/rocm7.2");
  for (auto& s : p.steps)
    for (const char* amd_only : {"key", "probe-repos", "amdgpu-list", "rocm-list", "pin", "amdgpu-dkms", "reboot", "headers"})
      CHECK(s.id != amd_only);
  REQUIRE(!p.gives_up.empty());
  CHECK(std::any_of(p.gives_up.begin(), p.gives_up.end(), [](auto& g) { return g.find("No AMD GPU driver") == 0; }));
  // AMD lists Debian 13 for Instinct GPUs only: no AMD release to compare
  // with, so the plan says what Debian's packages are and why AMD's has none,
  // never "installs no release".
  for (auto& g : p.gives_up) CHECK(g.find("no release (none it covers") == std::string::npos);
  CHECK(p.gives_up[0].find("Debian 13's own packages are ROCm 5.7.1") != std::string::npos);
  CHECK(p.gives_up[0].find("lists Debian 13 only for gfx950 and gfx942") != std::string::npos);
  CHECK(p.gives_up[1].find("outside what AMD supports for gfx1100 on Debian 13") != std::string::npos);
  CHECK(p.gives_up[2].find("built for gfx803, gfx900, gfx906, gfx908, gfx90a, gfx1010, gfx1030, gfx1100, gfx1101, gfx1102") !=
        std::string::npos);
  CHECK(noted(p, "built for gfx803, gfx900, gfx906, gfx908, gfx90a, gfx1010, gfx1030, gfx1100, gfx1101, gfx1102"));
  CHECK(noted(p, "does not use Debian's ROCm 5.7.1"));
  Json j = render_plan_json(p);
  CHECK(j["plan"]["from"] == "distro");
  CHECK(j["gives_up"].size() == p.gives_up.size());
  std::string text = render_plan_text(p, {false, true});
  CHECK(text.find("the distribution's own packages: trixie") != std::string::npos);
  CHECK(text.find("Compared with AMD's repository, this gives up:") != std::string::npos);
  // Ubuntu 26.04's universe packages: ROCm 7.1.0, and an R9700 (gfx1201) is in its list.
  InstallPlan resolute = must_plan(plan_for("ubuntu2604-rx7900xtx", from_distro(), r9700()));
  CHECK(resolute.rocm == "7.1.0");
  CHECK(step_of(resolute, "verify-rocm").checks[1].value == "gfx1201");
  // Its list is the package's own (librocblas5's X-Rocm-Gpu-Architecture): high, nothing unconfirmed.
  CHECK(noted(resolute, "X-Rocm-Gpu-Architecture field and kernel files, and pkg-rocm-tools' build-targets list for "
                        "resolute; confidence high), gfx1201 among them."));
  CHECK_FALSE(noted(resolute, "Not confirmed:"));
  CHECK(noted(resolute, "universe"));
}

TEST_CASE("from distro: refuses with the reason: no packages, another package manager, a GPU not built for", "[install-plan]") {
  CHECK(refusal_id(plan_for("rocky96-amd-rocm", from_distro())) == "no-distro-packages");
  CHECK(refusal_id(plan_for("centos-stream9-no-rocm", from_distro())) == "no-distro-packages");
  // Debian 12 has ROCm packages of its own, but rocmdoc knows neither their GPU targets nor a recipe for them.
  PlanResult bookworm = plan_for("ubuntu2404-rx7900xtx", from_distro(), debian("12", "bookworm", "6.1.0-25-amd64"));
  CHECK(refusal_id(bookworm) == "no-distro-packages");
  CHECK(std::get<InstallRefusal>(bookworm).instead.find("sudo apt install hipcc") != std::string::npos);
  auto fedora = std::get<InstallRefusal>(plan_for("fedora43-distro-rocm", from_distro()));
  CHECK(fedora.id == "distro-packages-not-planned");
  CHECK(fedora.instead.find("`sudo dnf install -y rocm-hip rocm-runtime rocminfo`") != std::string::npos);
  CHECK(fedora.instead.rfind("Run it yourself", 0) == 0);
  // AMD's enabled repository offers the same package names: disabled first.
  auto mixed = std::get<InstallRefusal>(plan_for("fedora43-mixed-amd-repo", from_distro()));
  CHECK(mixed.id == "distro-packages-not-planned");
  CHECK(mixed.instead.rfind("First disable AMD's ROCm repository (`sudo dnf config-manager setopt ROCm-6.4.1.enabled=0`)", 0) == 0);
  CHECK(mixed.instead.find("`sudo dnf install -y rocm-hip rocm-runtime rocminfo`") != std::string::npos);
  // AMD's driver repository holds no ROCm packages: nothing to disable.
  auto driver_repo = std::get<InstallRefusal>(plan_for("fedora43-mixed-amd-repo", from_distro(), [](Json& f) {
    for (auto& r : f["rocm"]["rpm_repos"]) r["kind"] = "amdgpu";
  }));
  CHECK(driver_repo.instead.rfind("Run it yourself", 0) == 0);
  auto arch = std::get<InstallRefusal>(plan_for("arch-distro-rocm", from_distro()));
  CHECK(arch.id == "distro-packages-not-planned");
  CHECK(arch.instead.find("`sudo pacman -S --needed rocm-hip-sdk`") != std::string::npos);
  // The RX 9070 XT's gfx1201 is not among Debian 13's targets; AMD's releases are the way.
  auto navi48 = std::get<InstallRefusal>(plan_for("ubuntu2404-rx7900xtx", from_distro(), both(trixie, rx9070)));
  CHECK(navi48.id == "gpu-not-in-distro-targets");
  CHECK(navi48.reason.find("not for gfx1201") != std::string::npos);
  CHECK(navi48.instead.find("--from amd") != std::string::npos);
  InstallOptions other = from_distro();
  other.rocm = "7.2.4";
  CHECK(refusal_id(plan_for("ubuntu2404-rx7900xtx", other, trixie)) == "release-not-from-distro");
  other.rocm = "5.7";  // the distribution's own release, named
  CHECK(must_plan(plan_for("ubuntu2404-rx7900xtx", other, trixie)).rocm == "5.7.1");
  // WSL2 refuses; a container does not (no driver is installed), and no GPU still does.
  CHECK(refusal_id(plan_for("ubuntu2404-rx7900xtx", from_distro(), both(trixie, [](Json& f) { f["platform"]["kind"] = "wsl2"; }))) ==
        "wsl2");
  CHECK(refusal_id(plan_for("debian12-vm-distro-rocm", from_distro())) == "no-distro-packages");
  auto no_gpu = std::get<InstallRefusal>(plan_for("debian12-vm-distro-rocm", from_distro()));
  REQUIRE(no_gpu.also.size() == 1);
  CHECK(no_gpu.also[0].id == "no-amd-gpu");
}

// The planner's refusal and check's fix (rules/catalogue/rocm.yaml,
// distro-rocm-packages-mixed-with-amd) each give the command that disables
// AMD's ROCm repository, under different conditions (the rule's only where
// AMD does not support the distribution and its packages are installed, for
// the first repository; the refusal's before they are, for each): the two
// must say the same command where both apply.
TEST_CASE("from distro: the repository to disable first is disabled as check's fix does it", "[install-plan]") {
  CheckReport report = run_check(facts_for_root(machine_root("fedora43-mixed-amd-repo")), shipped().knowledge, std::nullopt);
  std::vector<std::string> commands;
  for (auto& o : report.outcomes)
    if (o.rule->id == "distro-rocm-packages-mixed-with-amd")
      for (auto& f : o.findings)
        for (auto& step : f.steps)
          if (!step.argv.empty()) commands.push_back(shell_words(step.argv, step.sudo));
  REQUIRE(commands.size() == 1);
  auto mixed = std::get<InstallRefusal>(plan_for("fedora43-mixed-amd-repo", from_distro()));
  CHECK(mixed.instead.find("First disable AMD's ROCm repository (`" + commands[0] + "`)") != std::string::npos);
}

TEST_CASE("an MI50 on Ubuntu 26.04: both refusals name where it is supported and not each other", "[install-plan]") {
  // No release rocmdoc installs on 26.04 lists gfx906, and Ubuntu's own
  // ROCm is not built for it: the audit of 2026-12-06 found the two
  // refusals sending the user to each other.
  Edit mi50 = [](Json& f) {
    f["pci"]["gpus"][0]["device_id"] = "0x66a1";
    f["kfd"]["gpus"][0]["gfx"] = "gfx906";
  };
  auto amd = std::get<InstallRefusal>(plan_for("ubuntu2604-rx7900xtx", {}, mi50));
  CHECK(amd.id == "unsupported-gpu");
  CHECK(amd.reason.find("No release rocmdoc installs on Ubuntu 26.04 (10.1.0, 10.0.0) supports gfx906") != std::string::npos);
  CHECK(amd.instead.find("ROCm 6.3.1 is the newest production release whose GPU list has gfx906. It lists Ubuntu 24.04") !=
        std::string::npos);
  // rocmdoc has no recipe for 6.3.1: AMD's guide, not a rocmdoc command (the review found
  // "`rocmdoc install --rocm` installs it there" said of RHEL).
  CHECK(amd.instead.find("where AMD's install guide for it gives the steps") != std::string::npos);
  CHECK(amd.instead.find("rocmdoc install --rocm") == std::string::npos);
  CHECK(amd.instead.find("Ubuntu 24.04's own ROCm 5.7.1") != std::string::npos);
  CHECK(amd.instead.find("Run `rocmdoc check`") == std::string::npos);
  auto distro = std::get<InstallRefusal>(plan_for("ubuntu2604-rx7900xtx", from_distro(), mi50));
  CHECK(distro.id == "gpu-not-in-distro-targets");
  CHECK(distro.instead.find("AMD's repository has no release rocmdoc installs for it here either") != std::string::npos);
  CHECK(distro.instead.find("Ubuntu 24.04's own ROCm 5.7.1") != std::string::npos);
  CHECK(distro.instead.find("shows whether one lists") == std::string::npos);
  // Where AMD has a release for the GPU (an MI355X, gfx950, which Ubuntu's
  // own ROCm is not built for), --from distro's refusal names that release.
  auto mi355 = std::get<InstallRefusal>(plan_for("ubuntu2604-rx7900xtx", from_distro(), [](Json& f) {
    f["pci"]["gpus"][0]["device_id"] = "0x75a3";
    f["kfd"]["gpus"][0]["gfx"] = "gfx950";
  }));
  INFO(mi355.id << ": " << mi355.reason << " / " << mi355.instead);
  CHECK(mi355.id == "gpu-not-in-distro-targets");
  CHECK(mi355.instead.find("Install AMD's ROCm 10.1.0, which lists gfx950: `rocmdoc install --from amd --dry-run` shows the plan.") == 0);
  // An RX 580 (gfx803), which no release of AMD's lists any more: both refusals still name the
  // distributions whose own ROCm is built for it, and --from distro does not point back at --from amd.
  Edit rx580 = [](Json& f) {
    f["pci"]["gpus"][0]["device_id"] = "0x67df";
    f["kfd"]["gpus"][0]["gfx"] = "gfx803";
  };
  auto polaris = std::get<InstallRefusal>(plan_for("ubuntu2604-rx7900xtx", {}, rx580));
  CHECK(polaris.instead.find("Other distributions build their own ROCm for gfx803: Ubuntu 24.04's own ROCm 5.7.1") !=
        std::string::npos);
  auto polaris_distro = std::get<InstallRefusal>(plan_for("ubuntu2604-rx7900xtx", from_distro(), rx580));
  CHECK(polaris_distro.instead.find("Ubuntu 24.04's own ROCm 5.7.1") != std::string::npos);
  CHECK(polaris_distro.instead.find("shows whether one lists") == std::string::npos);
}

TEST_CASE("without --from: AMD's repositories, with a note where the distribution's packages would do", "[install-plan]") {
  // AMD lists Debian 13 for Instinct GPUs only: an RX 7900 XTX gets AMD's
  // release when --rocm names it, with both the limit and Debian's own
  // packages noted; without --rocm, a refusal that names both ways.
  InstallOptions named;
  named.rocm = "7.2.4";
  InstallPlan amd = must_plan(plan_for("ubuntu2404-rx7900xtx", named, trixie));
  CHECK(amd.from == "amd");
  CHECK(amd.rocm == "7.2.4");
  CHECK(noted(amd, "Debian 13's own ROCm 5.7.1 is built for gfx1100 too: `rocmdoc install --from distro` plans it instead"));
  CHECK(noted(amd, "ROCm 7.2.4 lists Debian 13 only for gfx950 and gfx942, not for this gfx1100: AMD does not support it there"));
  auto radeon = std::get<InstallRefusal>(plan_for("ubuntu2404-rx7900xtx", {}, trixie));
  CHECK(radeon.id == "unsupported-gpu");
  CHECK(radeon.reason.find("ROCm 7.2.4 lists Debian 13 only for gfx950 and gfx942.") != std::string::npos);
  CHECK(radeon.instead.find("`rocmdoc install --rocm 7.2.4`") != std::string::npos);
  CHECK(radeon.instead.find("Debian 13's own ROCm 5.7.1 is built for gfx1100: `rocmdoc install --from distro`") != std::string::npos);
  InstallOptions explicit_amd;
  explicit_amd.from = "amd";
  CHECK(must_plan(plan_for("ubuntu2404-rx7900xtx", explicit_amd, both(trixie, mi300x))).from == "amd");
  // Not built for gfx942 (nor gfx1201): no such note, and no such advice.
  CHECK(!noted(must_plan(plan_for("ubuntu2404-rx7900xtx", {}, both(trixie, mi300x))), "--from distro"));
  CHECK(std::get<InstallRefusal>(plan_for("ubuntu2404-rx7900xtx", {}, both(trixie, rx9070))).instead.find("--from distro") ==
        std::string::npos);
  // Fedora without --from: AMD has no packages for it; the refusal points at --from distro.
  auto fedora = std::get<InstallRefusal>(plan_for("fedora43-distro-rocm"));
  CHECK(fedora.id == "unsupported-distro");
  CHECK(fedora.instead.find("--from distro") != std::string::npos);
  // What check says of a distribution no release lists, not a guide with no section for it.
  CHECK(fedora.instead.rfind("AMD does not support Fedora Linux 43: use ", 0) == 0);
  CHECK(fedora.instead.find("follow AMD's install guide for yours") == std::string::npos);
  // Arch has no VERSION_ID: named as os-release names it.
  auto arch = std::get<InstallRefusal>(plan_for("arch-distro-rocm"));
  CHECK(arch.reason.find("this is Arch Linux.") != std::string::npos);
}

TEST_CASE("without --from, install prefers the distribution's packages only where the recipe says why and the GPU is in their list", "[install-plan]") {
  InstallRecipes preferring = shipped().recipes;
  for (auto& own : preferring.own_packages)
    if (own.id == "debian") own.auto_prefer = "a test says so";
  InstallPlan p = must_plan(plan_for("ubuntu2404-rx7900xtx", {}, trixie, &preferring));
  CHECK(p.from == "distro");
  CHECK(noted(p, "without --from because a test says so"));
  // Not for a GPU outside the list (an MI300X, which AMD lists on Debian
  // 13), and not against --from amd.
  CHECK(must_plan(plan_for("ubuntu2404-rx7900xtx", {}, both(trixie, mi300x), &preferring)).from == "amd");
  InstallOptions amd;
  amd.from = "amd";
  amd.rocm = "7.2.4";
  CHECK(must_plan(plan_for("ubuntu2404-rx7900xtx", amd, trixie, &preferring)).from == "amd");
  // The shipped recipes prefer none: no source says the distribution's packages are the simpler path.
  for (auto& own : shipped().recipes.own_packages) CHECK(own.auto_prefer.empty());
}

TEST_CASE("recipe loader: the distributions' own packages are checked strictly", "[install-plan]") {
  auto first_error = [](const std::string& body) {
    std::vector<LoadError> errors;
    load_install_recipes({{"rules/install/d.yaml", "schema: 1\nas_of: \"2026-01-01\"\nsources: {s: x}\n" + body}}, errors);
    return errors.empty() ? std::string() : errors[0].str();
  };
  CHECK(first_error("distro_packages:\n- {id: x, manager: zypper, packages: [a], sources: [s]}\n").find("one of apt, dnf, pacman") !=
        std::string::npos);
  CHECK(first_error("distro_packages:\n- {id: x, manager: dnf, packages: [a], torch_rocm: \"7.2\", sources: [s]}\n")
            .find("is for a plan rocmdoc runs") != std::string::npos);
  CHECK(first_error("distro_packages:\n- {id: x, manager: apt, packages: [a], sources: [s]}\n").find("'rocminfo'") !=
        std::string::npos);
  CHECK(first_error("distro_packages:\n- {id: x, manager: dnf, packages: [], sources: [s]}\n").find("at least one package") !=
        std::string::npos);
  CHECK(first_error("distro_packages:\n- {id: x, manager: dnf, packages: [a], sources: [t]}\n").find("unknown source 't'") !=
        std::string::npos);
  CHECK(first_error("distro_packages:\n- {id: x, manager: dnf, packages: [a], sources: [s]}\n"
                    "- {id: x, versions: [\"1\"], manager: dnf, packages: [b], sources: [s]}\n")
            .find("given twice") != std::string::npos);
  CHECK(first_error("distro_gives_up: [a]\n").find("'distro_gives_up_sources'") != std::string::npos);
  CHECK(first_error("distro_packages:\n- {id: x, manager: dnf, packages: [a], sources: [s], what: 1}\n").rfind("rules/install/d.yaml:5:", 0) ==
        0);
}

TEST_CASE("check and install agree where AMD lists a distribution for some GPUs only", "[install-plan]") {
  // What check names for the GPU (target.newest_for_gpu), from the same facts.
  auto newest_for_gpu = [](const std::string& machine, const Edit& edit) {
    Json f = facts_for_root(machine_root(machine));
    if (edit) edit(f);
    add_derived_facts(f, *shipped().knowledge.matrix, std::nullopt);
    return f["target"]["newest_for_gpu"];
  };
  auto refusal = [](const PlanResult& r) {
    REQUIRE(std::holds_alternative<InstallRefusal>(r));
    return std::get<InstallRefusal>(r);
  };
  // Rocky Linux 9.6 with its RX 7900 XTX: every release that lists Rocky
  // Linux 9 lists it for the MI300X and MI300A (gfx942) only. Check names no
  // release; install, which has no recipe for Rocky, does not send the user
  // to AMD's guide for one.
  Json rx = newest_for_gpu("rocky96-amd-rocm", nullptr);
  REQUIRE(is_unknown(rx));
  CHECK(unknown_reason(rx) == "no release in the matrix lists gfx1100 on Rocky Linux 9.6 (ROCm 10.1.0 lists Rocky Linux 9.6 only for gfx942)");
  InstallRefusal rocky = refusal(plan_for("rocky96-amd-rocm"));
  CHECK(rocky.id == "unsupported-distro");
  CHECK(rocky.instead.find("its install guide has no release for it on Rocky Linux 9.6 either (ROCm 10.1.0 lists Rocky Linux 9.6 "
                           "only for gfx942)") != std::string::npos);
  // Named as check names it, once: not PRETTY_NAME's "(Blue Onyx)" here and
  // the ids there.
  CHECK(rocky.reason.find("this is Rocky Linux 9.6.") != std::string::npos);
  // The same machine with an MI300X: both name ROCm 7.2.4.
  CHECK(newest_for_gpu("rocky96-amd-rocm", mi300x) == "7.2.4");
  CHECK(refusal(plan_for("rocky96-amd-rocm", {}, mi300x)).instead.find("AMD's install guide for ROCm 7.2.4, the newest release "
                                                                          "that lists this GPU on Rocky Linux 9.6") != std::string::npos);
  // Debian 12, which rocmdoc installs on: AMD lists it for Instinct GPUs
  // only, so the RX 7900 XTX gets no release from either, the MI300X the
  // same one from both.
  Edit bookworm = debian("12", "bookworm", "6.1.0-25-amd64");
  CHECK(is_unknown(newest_for_gpu("ubuntu2404-rx7900xtx", bookworm)));
  CHECK(refusal(plan_for("ubuntu2404-rx7900xtx", {}, bookworm)).id == "unsupported-gpu");
  CHECK(newest_for_gpu("ubuntu2404-rx7900xtx", both(bookworm, mi300x)) == "7.2.4");
  CHECK(must_plan(plan_for("ubuntu2404-rx7900xtx", {}, both(bookworm, mi300x))).rocm == "7.2.4");
}

TEST_CASE("a kernel the release does not list: the plan boots a listed one first, --keep-kernel keeps it, GRUB's menu past a newer kernel",
          "[install-plan]") {
  // HWE 6.5 on Ubuntu 22.04, where 7.2.4 lists GA 5.15 and HWE 6.8: the HWE
  // package is newer than the running kernel, so a reboot boots it, and the
  // plan installs it and reboots before anything needs the running kernel's
  // headers.
  InstallPlan older = must_plan(plan_for("ubuntu2204-rx6700xt", {}));
  CHECK(noted(older, "the plan installs linux-generic-hwe-22.04 and reboots into it before it builds the driver"));
  std::vector<std::string> got = ids(older);
  auto at = [&](const std::string& id) { return std::find(got.begin(), got.end(), id) - got.begin(); };
  REQUIRE(at("listed-kernel") < static_cast<long>(got.size()));
  CHECK(at("apt-base") + 1 == at("kernel-candidate"));
  CHECK(at("kernel-candidate") + 1 == at("listed-kernel"));
  // apt's candidate must be of the listed series before anything installs.
  const PlanStep& candidate = older.steps[at("kernel-candidate")];
  REQUIRE(candidate.checks.size() == 1);
  CHECK(candidate.checks[0].argv == std::vector<std::string>{"apt-cache", "show", "--no-all-versions", "linux-generic-hwe-22.04"});
  CHECK(candidate.checks[0].value == "Version: 6.8.");
  CHECK(candidate.actions.empty());
  CHECK(older.steps[at("kernel")].title.find("the plan boots a listed kernel first") != std::string::npos);
  CHECK(at("listed-kernel") + 1 == at("kernel-reboot"));
  CHECK(at("kernel-reboot") < at("headers"));
  const PlanStep& install = older.steps[at("listed-kernel")];
  REQUIRE(install.actions.size() == 1);
  CHECK(install.actions[0].argv.back() == "linux-generic-hwe-22.04");
  // This machine has the HWE package at 6.5's version: done only at 6.8's.
  REQUIRE(install.checks.size() == 1);
  CHECK(install.checks[0].kind == StepCheck::Kind::package_version);
  CHECK(install.checks[0].value == "6.8.");
  const PlanStep& reboot = older.steps[at("kernel-reboot")];
  REQUIRE(reboot.checks.size() == 1);
  // Done once a listed series runs: the 6.8 HWE kernel, or GA 5.15; not 6.5.
  RE2 booted(reboot.checks[0].value);
  CHECK(RE2::FullMatch("6.8.0-90-generic", booted));
  CHECK(RE2::FullMatch("5.15.0-160-generic", booted));
  CHECK(!RE2::FullMatch("6.5.0-44-generic", booted));
  CHECK(!RE2::FullMatch("6.80.0-1-generic", booted));
  // Rebooted into another kernel: the run's stop gives the way on.
  CHECK(reboot.if_still_not_done ==
        "choose the listed kernel in GRUB's menu under \"Advanced options\", or run with --keep-kernel to build the driver "
        "for the running one");
  // The running kernel's headers are not needed: the gate asks for the kernel package.
  CHECK(older.steps[at("headers-available")].checks[0].argv.back() == "linux-generic-hwe-22.04");
  CHECK(older.steps[at("amdgpu-dkms")].title.find("built for the kernel booted at kernel-reboot") != std::string::npos);
  // Nor installed: the run stops at kernel-reboot, and the run after it
  // plans the booted kernel's headers; only the Python helpers stay.
  const PlanStep& headers = older.steps[at("headers")];
  REQUIRE(headers.actions.size() == 1);
  for (auto& arg : headers.actions[0].argv) CHECK(arg.find("6.5.0-44") == std::string::npos);
  CHECK(headers.actions[0].argv.back() == "python3-wheel");
  for (auto& c : headers.checks) CHECK(c.kind != StepCheck::Kind::path_exists);

  // --keep-kernel: the note of before, no kernel steps, the driver for 6.5.
  InstallOptions keep;
  keep.listed_kernel = false;
  InstallPlan kept = must_plan(plan_for("ubuntu2204-rx6700xt", keep));
  CHECK(noted(kept, "boot a kernel it lists (6.8 (HWE), 5.15 (GA)) first: `sudo apt-get install linux-generic-hwe-22.04`, "
                    "reboot into it, and run rocmdoc install again."));
  got = ids(kept);
  CHECK(std::find(got.begin(), got.end(), "listed-kernel") == got.end());
  CHECK(kept.steps[at("headers")].actions[0].argv.end() !=
        std::find(kept.steps[at("headers")].actions[0].argv.begin(), kept.steps[at("headers")].actions[0].argv.end(),
                  "linux-headers-6.5.0-44-generic"));
  CHECK(kept.steps[at("amdgpu-dkms")].title.find("built for 6.5.0-44-generic") != std::string::npos);
  // No driver, no kernel to change.
  InstallOptions no_driver;
  no_driver.driver = false;
  got = ids(must_plan(plan_for("ubuntu2204-rx6700xt", no_driver)));
  CHECK(std::find(got.begin(), got.end(), "kernel-reboot") == got.end());

  // A mainline 6.15 is newer than both: GRUB would boot it again, so no
  // kernel step, and the note says to choose the listed kernel in GRUB's menu.
  InstallPlan newer = must_plan(plan_for("ubuntu2204-rx6700xt", {}, [](Json& f) {
    f["kernel"]["release"] = "6.15.0-061500-generic";
  }));
  CHECK(noted(newer, "Kernel 6.15.0-061500-generic is not among the kernels the matrix lists"));
  CHECK(noted(newer, "`sudo apt-get install linux-generic-hwe-22.04`, reboot and choose it under \"Advanced options\" in "
                     "GRUB's menu (GRUB boots the newest kernel installed, and 6.15.0-061500-generic is newer than it)"));
  CHECK(!noted(newer, "reboot into it"));
  got = ids(newer);
  CHECK(std::find(got.begin(), got.end(), "listed-kernel") == got.end());
}

// The way on a run stops with (a reboot into another kernel) is in the text
// plan too, under its step, so it is read before the reboot rather than after.
TEST_CASE("the text plan shows a step's way on for when it is still not done, unless the step is done", "[install-plan]") {
  InstallPlan p = must_plan(plan_for("ubuntu2204-rx6700xt", {}));
  compare_golden("ubuntu2204-rx6700xt-default.txt", render_plan_text(p, {false, true}));
  std::string way_on =
      "        ! if still not done: choose the listed kernel in GRUB's menu under \"Advanced options\", or run with "
      "--keep-kernel to build the driver for the running one\n";
  std::string text = render_plan_text(p, {false, true});
  std::vector<std::string> got = ids(p);
  size_t at = std::find(got.begin(), got.end(), "kernel-reboot") - got.begin();
  REQUIRE(at + 1 < got.size());
  // Between the kernel-reboot step and the step after it.
  size_t reboot = text.find(" kernel-reboot ");
  size_t next = text.find(" " + got[at + 1] + " ", reboot);
  size_t shown = text.find(way_on, reboot);
  REQUIRE(reboot != std::string::npos);
  CHECK(shown < next);
  // Shown once: no other step of this plan has one.
  CHECK(text.find("if still not done") == text.rfind("if still not done"));
  // A done step shows only its title and state.
  for (auto& s : p.steps)
    if (s.id == "kernel-reboot") s.state = StepState::done;
  CHECK(render_plan_text(p, {false, true}).find("if still not done") == std::string::npos);
}

// An RX 6700 XT (gfx1031) installed for gfx1030: its programs compute only
// with the override, and rocmdoc's own environment has none under sudo, so
// verify-torch would fail after everything installed without it.
TEST_CASE("a GPU installed for a stand-in: verify-torch runs with the override it needs", "[install-plan]") {
  InstallPlan p = must_plan(plan_for("ubuntu2204-rx6700xt", {}));
  std::vector<std::string> got = ids(p);
  auto at = std::find(got.begin(), got.end(), "verify-torch") - got.begin();
  REQUIRE(at < static_cast<long>(got.size()));
  const PlanStep& verify = p.steps[at];
  REQUIRE(verify.checks.size() == 1);
  const auto& argv = verify.checks[0].argv;
  REQUIRE(argv.size() > 3);
  CHECK(argv[0] == "env");
  CHECK(argv[1] == "HSA_OVERRIDE_GFX_VERSION=10.3.0");
  CHECK(argv[2] == "/home/sam/rocm-venv/bin/python");
  CHECK(verify.checks[0].as_user);
  CHECK(verify.title.find("with HSA_OVERRIDE_GFX_VERSION=10.3.0 (as gfx1030)") != std::string::npos);
  // A GPU the release lists runs without it.
  InstallPlan listed = must_plan(plan_for("ubuntu2404-rx7900xtx", {}));
  got = ids(listed);
  at = std::find(got.begin(), got.end(), "verify-torch") - got.begin();
  REQUIRE(at < static_cast<long>(got.size()));
  CHECK(listed.steps[at].checks[0].argv[0] == "/home/alex/rocm-venv/bin/python");
  CHECK(listed.steps[at].title.find("HSA_OVERRIDE") == std::string::npos);
}

// Root opens the device nodes without the groups, and a container may have
// no render group (usermod would fail on it): no groups step for root.
TEST_CASE("installing for root: no groups step, and the plan says why", "[install-plan]") {
  InstallOptions no_driver;
  no_driver.driver = false;
  InstallPlan p = must_plan(plan_for("mi300x-container", no_driver));
  std::vector<std::string> got = ids(p);
  CHECK(std::find(got.begin(), got.end(), "groups") == got.end());
  CHECK(std::find(got.begin(), got.end(), "verify-rocm") != got.end());
  CHECK(noted(p, "Root opens /dev/kfd and /dev/dri without the render and video groups, so the plan adds it to none."));
  // Any other user still gets it.
  InstallOptions sam = no_driver;
  sam.user = "sam";
  got = ids(must_plan(plan_for("mi300x-container", sam)));
  CHECK(std::find(got.begin(), got.end(), "groups") != got.end());
}
