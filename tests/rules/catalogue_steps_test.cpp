// The shipped catalogue's steps as a user sees them on given facts: which
// package a kernel step installs, when dmesg needs sudo, which package
// manager a repository step names. Rule examples judge verdicts only (and
// count steps only for a problem checked on facts), so what a step says or
// runs is tested here.
#include <algorithm>

#include "catch.h"
#include "rules/knowledge.h"
#include "rules/rule_engine.h"

using namespace rocmdoc;

namespace {

const Knowledge& shipped() {
  static Knowledge k = load_knowledge({"", ""});
  return k;
}

const Problem& problem(const std::string& id) {
  const Problem* p = shipped().catalogue.find(id);
  if (!p) FAIL("no problem " << id);
  return *p;
}

std::vector<RenderedStep> steps_of(const std::string& id, const Json& facts) {
  REQUIRE(shipped().errors.empty());
  return describe_rule(problem(id).rule, facts, shipped().functions).steps;
}

// Every text and argv word of the steps, for "names nothing like X".
std::string all_words(const std::vector<RenderedStep>& steps) {
  std::string out;
  for (auto& s : steps) {
    out += s.text + "\n";
    for (auto& a : s.argv) out += a + " ";
  }
  return out;
}

bool has_argv(const std::vector<RenderedStep>& steps, const std::vector<std::string>& argv) {
  return std::any_of(steps.begin(), steps.end(), [&](const RenderedStep& s) { return s.argv == argv; });
}

Json ubuntu(const std::string& version_id, const Json& target) {
  return {{"platform", {{"kind", "bare_metal"}}},
          {"distro", {{"id", "ubuntu"}, {"version_id", version_id}}},
          {"kernel", {{"release", "6.1.0-060100-generic"}}},
          {"target", target}};
}

}  // namespace

TEST_CASE("kernel steps install the HWE package the target release lists, whatever its place", "[rules][catalogue]") {
  for (Json packages : {Json::array({"linux-generic-hwe-24.04"}), Json::array({"linux-generic", "linux-generic-hwe-24.04"}),
                        Json::array({"linux-generic-hwe-24.04", "linux-generic"})}) {
    INFO(packages.dump());
    Json facts = ubuntu("24.04", {{"rocm", "7.2.4"}, {"kernels", {"6.8 (GA)", "6.17 (HWE)"}}, {"kernel_packages", packages}});
    auto runtime = steps_of("kernel-too-old-for-rocm-runtime", facts);
    CHECK(has_argv(runtime, {"apt-get", "install", "--install-recommends", "linux-generic-hwe-24.04"}));
    CHECK_FALSE(has_argv(runtime, {"apt-get", "install", "--install-recommends", "linux-generic"}));
    auto gpu = steps_of("kernel-too-old-for-gpu", facts);
    CHECK(has_argv(gpu, {"apt-get", "install", "--install-recommends", "linux-generic-hwe-24.04", "linux-firmware"}));
  }
}

// Ubuntu 26.04's rows list its GA 7.0 only: the kernel step installs that,
// and no HWE name is made up from the release.
TEST_CASE("kernel steps on Ubuntu 26.04 name its listed GA kernel, no composed HWE package", "[rules][catalogue]") {
  Json facts = ubuntu("26.04", {{"rocm", "10.1.0"}, {"kernels", {"7.0 (GA)"}}, {"kernel_packages", {"linux-generic"}}});
  auto runtime = steps_of("kernel-too-old-for-rocm-runtime", facts);
  CHECK(has_argv(runtime, {"apt-get", "install", "--install-recommends", "linux-generic"}));
  CHECK(all_words(runtime).find("hwe-26.04") == std::string::npos);
  auto gpu = steps_of("kernel-too-old-for-gpu", facts);
  CHECK(all_words(gpu).find("hwe-26.04") == std::string::npos);
  CHECK_FALSE(gpu.empty());
}

// A release the matrix does not list for this Ubuntu (or for this GPU): no
// package is known, and the user still gets the kernel step in words.
TEST_CASE("kernel steps on Ubuntu with unknown target kernels keep a step in words", "[rules][catalogue]") {
  Json why = {{"unknown", "ROCm 7.2.4 does not list Ubuntu 25.10"}};
  Json facts = ubuntu("25.10", {{"rocm", "7.2.4"}, {"kernels", why}, {"kernel_packages", why}});
  auto runtime = steps_of("kernel-too-old-for-rocm-runtime", facts);
  std::string words = all_words(runtime);
  CHECK(words.find("Ubuntu 25.10") != std::string::npos);
  CHECK(words.find("sudo apt install --install-recommends linux-generic") != std::string::npos);
  CHECK(words.find("hwe-25.10") == std::string::npos);
  for (auto& s : runtime) CHECK(s.argv.empty());
  auto gpu = steps_of("kernel-too-old-for-gpu", facts);
  CHECK(all_words(gpu).find("hwe-25.10") == std::string::npos);
}

// Whether the user's own dmesg may read the kernel log, not whether the
// probe did: under sudo the probe is root and reads the log, yet on a
// machine with kernel.dmesg_restrict 1 the user's plain dmesg is refused.
// Where the probe ran as the person typing the steps (no sudo, or root),
// its own read is theirs; under sudo the restriction decides where root
// read the log at all. Where nothing is known, sudo.
TEST_CASE("dmesg confirms and steps use sudo unless the user's own dmesg may read the kernel log", "[rules][catalogue]") {
  // The probe ran as `process` for `target` (SUDO_USER when they differ).
  auto machine = [](const Json& dmesg_restrict, const std::string& process, const std::string& target, bool read) {
    Json log = read ? Json{{"readable", true}, {"source", "kmsg"}, {"lines", Json::array()}}
                    : Json{{"unknown", "dmesg: Operation not permitted"}};
    bool via_sudo = process != target;
    return Json{{"kernel", {{"dmesg_restrict", dmesg_restrict}}},
                {"kernel_log", log},
                {"access",
                 {{"user",
                   {{"name", process}, {"uid", process == "root" ? 0 : 1000}, {"via_sudo", via_sudo},
                    {"sudo_user", via_sudo ? Json(target) : Json(nullptr)}, {"target", target}}}}}};
  };
  Json not_known = {{"unknown", "/proc/sys/kernel/dmesg_restrict: not recorded"}};
  Json unknown_all = {{"kernel", {{"dmesg_restrict", not_known}}},
                      {"kernel_log", {{"unknown", "dmesg: Operation not permitted"}}},
                      {"access", {{"user", {{"unknown", "no SUDO_USER recorded"}}}}}};
  struct Case {
    const char* what;
    Json facts;
    bool sudo;
  };
  const Case cases[] = {
      {"sudo rocmdoc on a restricted machine", machine(1, "root", "alice", true), true},
      {"sudo rocmdoc on an unrestricted machine", machine(0, "root", "alice", true), false},
      {"sudo rocmdoc, restriction unknown", machine(not_known, "root", "alice", true), true},
      {"root on a restricted machine", machine(1, "root", "root", true), false},
      {"root refused (a container's)", machine(1, "root", "root", false), true},
      {"the user without sudo, refused", machine(0, "alice", "alice", false), true},
      {"the user without sudo, read", machine(0, "alice", "alice", true), false},
      {"sudo rocmdoc, unrestricted, root refused (a container's)", machine(0, "root", "alice", false), true},
      {"restriction off, who ran it unknown, the log read",
       Json{{"kernel", {{"dmesg_restrict", 0}}}, {"kernel_log", {{"readable", true}, {"source", "kmsg"}, {"lines", Json::array()}}}},
       false},
      {"restriction off, who ran it unknown, the log not read", Json{{"kernel", {{"dmesg_restrict", 0}}}}, true},
      {"nothing known", unknown_all, true},
  };
  auto dmesg_steps = [](const std::vector<RenderedStep>& steps) {
    std::vector<RenderedStep> out;
    for (auto& s : steps)
      if (!s.argv.empty() && s.argv[0] == "dmesg") out.push_back(s);
    return out;
  };
  for (auto& c : cases) {
    INFO(c.what);
    for (const char* id : {"asic-not-supported-by-kfd", "kfd-rejected-gpu-pcie-atomics", "gpu-hang-mes-timeout",
                           "amdgpu-resume-failed"}) {
      INFO(id);
      auto confirm = describe_first_step(problem(id).confirm, c.facts, shipped().functions);
      REQUIRE(confirm);
      CHECK(confirm->argv.at(0) == "dmesg");
      CHECK(confirm->sudo == c.sudo);
    }
    // A fix step: one of the pair shows.
    auto steps = dmesg_steps(steps_of("hsa-out-of-resources", c.facts));
    REQUIRE(steps.size() == 1);
    CHECK(steps[0].sudo == c.sudo);
  }
}

// rpm_repos lists /etc/yum.repos.d (dnf) before /etc/zypp/repos.d (zypper):
// on SUSE the first may be a dnf file zypper never reads, or a zypper one.
TEST_CASE("the repository refresh step names dnf on dnf distributions and zypper on SUSE", "[rules][catalogue]") {
  auto repo = [](const std::string& file, const std::string& manager) {
    return Json{{"file", file}, {"line", 1}, {"id", "rocm"}, {"manager", manager}, {"kind", "rocm"}, {"enabled", true}};
  };
  auto facts = [](const std::string& distro, const Json& repos) {
    return Json{{"distro", {{"id", distro}, {"version_id", "15.6"}}},
                {"distro_support", {{"listed", true}, {"label", "the distribution"}}},
                {"rocm", {{"package_manager", "rpm"}, {"rpm_repos", repos}}}};
  };
  const std::string id = "rocm-package-name-unknown-to-package-manager";
  auto suse = steps_of(id, facts("sles", Json::array({repo("/etc/yum.repos.d/rocm.repo", "dnf"),
                                                      repo("/etc/zypp/repos.d/rocm.repo", "zypper")})));
  CHECK(has_argv(suse, {"zypper", "refresh"}));
  CHECK_FALSE(has_argv(suse, {"dnf", "makecache", "--refresh"}));
  CHECK(all_words(suse).find("/etc/yum.repos.d/rocm.repo") == std::string::npos);

  auto rhel = steps_of(id, facts("rhel", Json::array({repo("/etc/yum.repos.d/rocm.repo", "dnf")})));
  CHECK(has_argv(rhel, {"dnf", "makecache", "--refresh"}));
  CHECK(all_words(rhel).find("/etc/yum.repos.d/rocm.repo") != std::string::npos);
  CHECK_FALSE(has_argv(rhel, {"zypper", "refresh"}));
}
