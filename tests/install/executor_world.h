// A small install plan on an in-memory machine, for the executor's tests:
// a gate, packages, a signing key, a source list, groups, the driver, a
// reboot, a gate after it, and ROCm, each step with a check.
#pragma once

#include <sstream>

#include "executor_fake.h"

namespace rocmdoc::test {

constexpr const char* kKeyFpr = "CA8BB4727A47B4D09B4EE8969386B48A1A693C5C";
constexpr const char* kKeyUrl = "https://repo.radeon.com/rocm/rocm.gpg.key";
constexpr const char* kListLine =
    "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/rocm/apt/7.2.4 noble main\n";

inline void add_package(MemoryFileSystem& fs, const std::string& name, const std::string& version) {
  std::string status = fs.read_file("/var/lib/dpkg/status").value_or("");
  fs.file("/var/lib/dpkg/status",
          status + "\nPackage: " + name + "\nStatus: install ok installed\nVersion: " + version + "\n");
}

inline StepCheck make_check(StepCheck::Kind kind, std::string path = "", std::vector<std::string> names = {},
                            std::string value = "") {
  StepCheck c;
  c.kind = kind;
  c.path = std::move(path);
  c.names = std::move(names);
  c.value = std::move(value);
  return c;
}

inline StepAction run_action(std::vector<std::string> argv, bool as_user = false) {
  StepAction a;
  a.kind = StepAction::Kind::run;
  a.argv = std::move(argv);
  a.as_user = as_user;
  return a;
}

inline PlanStep make_step(std::string id, std::vector<StepCheck> checks, std::vector<StepAction> actions) {
  PlanStep s;
  s.title = "Step " + id;
  s.id = std::move(id);
  s.checks = std::move(checks);
  s.actions = std::move(actions);
  s.needs_root = true;
  return s;
}

inline InstallPlan small_plan() {
  using K = StepCheck::Kind;
  InstallPlan plan;
  plan.distro = "ubuntu 24.04";
  plan.codename = "noble";
  plan.rocm = "7.2.4";
  plan.driver = "30.30.4";
  plan.user = "alex";
  plan.steps.push_back(make_step("os", {make_check(K::path_exists, "/etc/os-release")}, {}));
  plan.steps.push_back(make_step("apt-base", {make_check(K::packages_installed, "", {"curl", "gnupg"})},
                                 {run_action({"apt-get", "install", "-y", "curl", "gnupg"})}));
  StepAction download;
  download.kind = StepAction::Kind::download;
  download.url = kKeyUrl;
  download.path = "/var/lib/rocmdoc/rocm.gpg.key";
  download.fingerprint = kKeyFpr;
  StepAction dearmor;
  dearmor.kind = StepAction::Kind::dearmor_key;
  dearmor.source = download.path;
  dearmor.path = "/etc/apt/keyrings/rocm.gpg";
  auto key_check = make_check(K::key_fingerprint, "/etc/apt/keyrings/rocm.gpg", {}, kKeyFpr);
  plan.steps.push_back(make_step("key", {key_check}, {download, dearmor}));
  StepAction list;
  list.kind = StepAction::Kind::write_file;
  list.path = "/etc/apt/sources.list.d/rocm.list";
  list.content = kListLine;
  auto list_check = make_check(K::file_equals, list.path);
  list_check.content = kListLine;
  plan.steps.push_back(make_step("rocm-list", {list_check}, {list}));
  plan.steps.push_back(make_step("groups", {make_check(K::user_in_groups, "", {"render", "video"}, "alex")},
                                 {run_action({"usermod", "-a", "-G", "render,video", "alex"})}));
  plan.steps.push_back(make_step("amdgpu-dkms", {make_check(K::packages_installed, "", {"amdgpu-dkms"})},
                                 {run_action({"apt-get", "install", "-y", "amdgpu-dkms"})}));
  StepAction reboot;
  reboot.kind = StepAction::Kind::reboot;
  plan.steps.push_back(make_step("reboot", {make_check(K::boot_changed)}, {reboot}));
  plan.steps.push_back(make_step("driver-loaded", {make_check(K::path_exists, "/sys/module/amdgpu")}, {}));
  plan.steps.push_back(make_step("rocm", {make_check(K::package_version, "", {"rocm"}, "7.2.4")},
                                 {run_action({"apt-get", "install", "-y", "rocm"})}));
  return plan;
}

struct World {
  MemoryMachine m;
  MemoryFileSystem& fs = *m.fs;
  FakeChanger changer{*m.fs};
  ExecutorPaths paths;
  InstallPlan plan = small_plan();
  std::ostringstream progress;

  World() {
    m.machine.runner = std::make_unique<FakeRunner>(fs, std::map<std::string, ProcessResult>{});
    fs.file(kBootIdPath, "boot-1\n");
    fs.file("/etc/os-release", "ID=ubuntu\nVERSION_ID=\"24.04\"\n");
    fs.file("/etc/passwd", "root:x:0:0::/root:/bin/bash\nalex:x:1000:1000::/home/alex:/bin/bash\n");
    fs.file("/etc/group", "video:x:44:\nrender:x:993:\nalex:x:1000:\n");
    fs.file("/var/lib/dpkg/status", "Package: curl\nStatus: install ok installed\nVersion: 8.5.0\n");
    changer.downloads[kKeyUrl] = fake_key(kKeyFpr);
    changer.commands["apt-get install -y curl gnupg"] = {0, "Setting up gnupg (2.4.4) ...\n",
                                                         [](MemoryFileSystem& f) { add_package(f, "gnupg", "2.4.4"); }};
    changer.commands["usermod -a -G render,video alex"] = {0, "", [](MemoryFileSystem& f) {
                                                             f.file("/etc/group", "video:x:44:alex\nrender:x:993:alex\nalex:x:1000:\n");
                                                           }};
    changer.commands["apt-get install -y amdgpu-dkms"] = {
        0, "Building for 6.8.0-49-generic\nSetting up amdgpu-dkms (1:6.16.13.30300400-2278356.24.04) ...\n",
        [](MemoryFileSystem& f) { add_package(f, "amdgpu-dkms", "1:6.16.13.30300400-2278356.24.04"); }};
    changer.commands["apt-get install -y rocm"] = {
        0, "Setting up rocm (7.2.4.70204-24~24.04) ...\n",
        [](MemoryFileSystem& f) { add_package(f, "rocm", "7.2.4.70204-24~24.04"); }};
  }
  RunReport run(Consent& consent) { return run_plan(plan, m.machine, changer, consent, paths, progress); }
  RunReport run_yes() {
    YesConsent yes;
    return run(yes);
  }
  // What a reboot changes: a new boot id, and the new driver loaded.
  void reboot(const std::string& id) {
    fs.file(kBootIdPath, id + "\n");
    fs.file("/sys/module/amdgpu/version", "6.16.13\n");
  }
  // The machine's files without rocmdoc's own (journal, logs).
  std::map<std::string, std::string> machine_files() {
    auto files = all_files(fs);
    std::erase_if(files, [&](auto& kv) { return kv.first == paths.journal || starts_with(kv.first, paths.log_dir + "/"); });
    return files;
  }
};

}  // namespace rocmdoc::test
