// `rocmdoc install` through the built binary: --dry-run --json on a fixture
// machine, a refusal, and a usage error.
#include <algorithm>

#include "catch.h"
#include "base/fact.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

TEST_CASE("install --dry-run --json and a refusal through the CLI", "[install-plan][cli]") {
  auto run = run_rocmdoc({"install", "--dry-run", "--json", "--root", machine_root("ubuntu2404-rx7900xtx")});
  CHECK(run.exit_code == 0);
  Json j = Json::parse(run.out);
  CHECK(j["kind"] == "plan");
  CHECK(j["plan"]["rocm"] == "7.2.4");
  CHECK(j["steps"].size() > 20);
  auto refused = run_rocmdoc({"install", "--dry-run", "--root", machine_root("mi300x-container")});
  CHECK(refused.exit_code == 1);
  CHECK(refused.out.find("container-driver") != std::string::npos);
  auto usage = run_rocmdoc({"install", "--root", machine_root("mi300x-container")});
  CHECK(usage.exit_code == 2);
}

TEST_CASE("install --dry-run --root judges the file checks on the recorded machine", "[install-plan][cli]") {
  auto run = run_rocmdoc({"install", "--dry-run", "--json", "--root", machine_root("ubuntu2404-rx7900xtx")});
  REQUIRE(run.exit_code == 0);
  Json j = Json::parse(run.out);
  std::map<std::string, std::string> state;
  for (auto& s : j["steps"]) state[s["id"].get<std::string>()] = s["state"].get<std::string>();
  // os-release, osrelease and the SecureBoot variable are files of the recording: known, not "?".
  CHECK(state["kernel"] == "done");
  CHECK(state["secureboot"] == "done");
  CHECK(state["dpkg"] == "done");
  // `uname -m` was not recorded: the os step stays unknown, but for that reason only.
  for (auto& s : j["steps"])
    if (s["id"] == "os") CHECK(s["state_reason"].get<std::string>().find("uname -m") != std::string::npos);
}

TEST_CASE("install --rocm 10.0.0: its pinned key, --trust-key only as that key, which must be a fingerprint",
          "[install-plan][cli]") {
  std::vector<std::string> core = {"install", "--dry-run", "--json", "--rocm", "10.0.0", "--no-driver", "--no-torch",
                                   "--root", machine_root("ubuntu2404-rx7900xtx")};
  auto pinned = run_rocmdoc(core);
  REQUIRE(pinned.exit_code == 0);
  Json j = Json::parse(pinned.out);
  CHECK(!j.contains("blocked"));  // the recipe pins the key: it would run
  for (auto& s : j["steps"])
    if (s["id"] == "key") CHECK(s["checks"][0]["value"] == "D0F004A0025A1145C7807FCD0701EAC4D5E02107");
  core.push_back("--trust-key");
  core.push_back("d0f0 04a0 025a 1145 c780  7fcd 0701 eac4 d5e0 2107");  // the same key as gpg prints it, any case
  CHECK(run_rocmdoc(core).exit_code == 0);
  core.back() = "0123 4567 89ab cdef 0123  4567 89AB CDEF 0123 4567";  // another key: refused
  auto other = run_rocmdoc(core);
  CHECK(other.exit_code == 1);
  CHECK(Json::parse(other.out)["refusal"]["id"] == "trust-key-mismatch");
  core.back() = "0123456789";
  auto bad = run_rocmdoc(core);
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("is not a key fingerprint") != std::string::npos);
}

TEST_CASE("install --auto on a fresh Ubuntu 26.04: ROCm 10.1.0 with its driver and PyTorch, nothing to confirm",
          "[install-plan][cli]") {
  auto r = run_rocmdoc({"install", "--dry-run", "--json", "--root", machine_root("ubuntu2604-rx7900xtx")});
  REQUIRE(r.exit_code == 0);
  Json j = Json::parse(r.out);
  CHECK(j["plan"]["rocm"] == "10.1.0");
  CHECK(j["plan"]["driver"] == "31.60");
  CHECK(!j.contains("blocked"));
}

TEST_CASE("install --from distro through the CLI: a plan on Ubuntu 26.04, the command on Fedora, a bad source",
          "[install-plan][cli]") {
  auto r = run_rocmdoc({"install", "--from", "distro", "--dry-run", "--json", "--root", machine_root("ubuntu2604-rx7900xtx")});
  REQUIRE(r.exit_code == 0);
  Json j = Json::parse(r.out);
  CHECK(j["plan"]["from"] == "distro");
  CHECK(j["plan"]["rocm"] == "7.1.0");
  CHECK(j["plan"]["driver"].is_null());
  CHECK(!j["gives_up"].empty());
  // The recording's os-release and dpkg database answer those steps: the 26.04 fixture has no ROCm yet.
  std::map<std::string, std::string> state;
  for (auto& s : j["steps"]) state[s["id"].get<std::string>()] = s["state"].get<std::string>();
  CHECK(state["os"] == "done");
  CHECK(state["dpkg"] == "done");
  CHECK(state["distro-packages"] == "todo");
  auto fedora = run_rocmdoc({"install", "--from", "distro", "--dry-run", "--root", machine_root("fedora43-distro-rocm")});
  CHECK(fedora.exit_code == 1);
  CHECK(fedora.out.find("distro-packages-not-planned") != std::string::npos);
  CHECK(fedora.out.find("sudo dnf install -y rocm-hip rocm-runtime rocminfo") != std::string::npos);
  auto bad = run_rocmdoc({"install", "--from", "debian", "--dry-run", "--root", machine_root("ubuntu2604-rx7900xtx")});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--from") != std::string::npos);
  auto help = run_rocmdoc({"install", "--help"});
  CHECK(help.out.find("--from") != std::string::npos);
  CHECK(help.out.find("distro (the distribution's own ROCm packages") != std::string::npos);
}

// The catalogue's `install_note` problems that hold on the machine come
// first in the plan's notes (docs/install.md): what the plan cannot change.
TEST_CASE("install names what check finds outside the plan: unmapped device nodes, an SR-IOV VF, a blacklisted amdgpu", "[install-plan][cli]") {
  auto lxc = run_rocmdoc({"install", "--auto", "--no-driver", "--dry-run", "--json", "--root",
                          machine_root("proxmox-lxc-unprivileged")});
  REQUIRE(lxc.exit_code == 0);
  Json j = Json::parse(lxc.out);
  REQUIRE(j["notes"].size() > 0);
  std::string first = j["notes"][0].get<std::string>();
  CHECK(first.find("Outside this plan (rocmdoc check: device-node-ids-unmapped)") == 0);
  CHECK(first.find("/dev/kfd shows as nobody:nogroup") != std::string::npos);
  CHECK(std::count_if(j["notes"].begin(), j["notes"].end(), [](const Json& n) {
          return n.get<std::string>().find("device-node-ids-unmapped") != std::string::npos;
        }) == 1);  // one note for the problem, whatever the number of nodes
  CHECK(first.find("dev0: /dev/kfd,gid=GID") != std::string::npos);  // the LXC step, not Docker's
  CHECK(first.find("--group-add") == std::string::npos);
  auto vf = run_rocmdoc({"install", "--auto", "--dry-run", "--root", machine_root("cloud-vm-mi300x-vf")});
  REQUIRE(vf.exit_code == 0);
  CHECK(vf.out.find("Outside this plan (rocmdoc check: gpu-is-sriov-virtual-function)") != std::string::npos);
  CHECK(vf.out.find("GIM release the host runs") != std::string::npos);
  // amdgpu blacklisted: the plan's driver-loaded gate after its reboot
  // would wait for a module the blacklist keeps out.
  auto blacklisted = run_rocmdoc({"install", "--auto", "--dry-run", "--root", machine_root("desktop-amdgpu-not-loaded")});
  REQUIRE(blacklisted.exit_code == 0);
  CHECK(blacklisted.out.find("Outside this plan (rocmdoc check: amdgpu-blacklisted)") != std::string::npos);
  CHECK(blacklisted.out.find("/etc/modprobe.d/blacklist-amdgpu.conf:2") != std::string::npos);
  // A machine where none holds has none of these notes.
  auto plain = run_rocmdoc({"install", "--auto", "--dry-run", "--root", machine_root("ubuntu2404-rx7900xtx")});
  REQUIRE(plain.exit_code == 0);
  CHECK(plain.out.find("Outside this plan") == std::string::npos);
}
