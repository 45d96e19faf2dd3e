// Install plans on the fixture machines, compared exactly with golden files
// in tests/install/plans/ (the plan as `rocmdoc install --json` prints it,
// states unevaluated). After an intended change to the recipes or the
// planner, regenerate them and review the diff:
//   ROCMDOC_REGENERATE_PLANS=1 build/rocmdoc_tests "[install-plan]"
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>

#include "catch.h"
#include "rocmdoc/check_report.h"
#include "rocmdoc/derived_facts.h"
#include "rocmdoc/facts_document.h"
#include "rocmdoc/install_output.h"
#include "rocmdoc/install_planner.h"
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

PlanResult plan_for(const std::string& machine, InstallOptions options = {}, const Edit& edit = nullptr) {
  const Shipped& s = shipped();
  REQUIRE(s.knowledge.errors.empty());
  REQUIRE(s.errors.empty());
  static std::map<std::string, Json> cache;
  if (!cache.count(machine)) cache[machine] = facts_for_root(machine_root(machine));
  PlanInput input;
  input.facts = cache[machine];
  if (edit) edit(input.facts);
  input.recipes = &s.recipes;
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

std::vector<std::string> ids(const InstallPlan& p) {
  std::vector<std::string> out;
  for (auto& s : p.steps) out.push_back(s.id);
  return out;
}

}  // namespace

TEST_CASE("the shipped install recipes load without errors", "[install-plan]") {
  CHECK(shipped().errors.empty());
  CHECK(shipped().recipes.releases.front().version == "7.2.4");
  CHECK(shipped().recipes.key_fingerprint == "CA8BB4727A47B4D09B4EE8969386B48A1A693C5C");
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
  Edit bookworm = debian("12", "bookworm", "6.1.0-25-amd64");
  golden_json("debian12-rx7900xtx-default", plan_for("ubuntu2404-rx7900xtx", {}, bookworm));
  for (const char* rocm : {"7.1.1", "7.0.2", "6.4.3"}) {
    InstallOptions o;
    o.rocm = rocm;
    golden_json(std::string("debian12-rx7900xtx-") + rocm, plan_for("ubuntu2404-rx7900xtx", o, bookworm));
  }
  golden_json("debian13-rx7900xtx-default", plan_for("ubuntu2404-rx7900xtx", {}, debian("13", "trixie", "6.12.48+deb13-amd64")));
}

TEST_CASE("plans pick the release, repositories and lines per distribution", "[install-plan]") {
  InstallPlan noble = must_plan(plan_for("ubuntu2404-rx7900xtx"));
  CHECK(noble.rocm == "7.2.4");
  CHECK(noble.driver == "30.30.4");
  CHECK(noble.user == "alex");
  CHECK(noble.venv == "/home/alex/rocm-venv");
  InstallPlan deb = must_plan(plan_for("ubuntu2404-rx7900xtx", {}, debian("12", "bookworm", "6.1.0-25-amd64")));
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
  CHECK(reference == reference_step_ids());
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
