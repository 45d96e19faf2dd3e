#include "catch.h"
#include "probe_test_support.h"

using namespace rocmdoc;
using rocmdoc::test::MemoryMachine;

namespace {
Json host(bool hypervisor) {
  Json f = Json::object();
  f["host"] = {{"hypervisor_flag", hypervisor}};
  return f;
}
}  // namespace

TEST_CASE("platform: bare metal when the CPU and DMI show no hypervisor", "[platform]") {
  MemoryMachine m;
  m.fs->file("/sys/class/dmi/id/sys_vendor", "Micro-Star International Co., Ltd.\n");
  m.fs->file("/proc/version", "Linux version 6.8.0-45-generic (buildd@lcy02) #45-Ubuntu\n");
  Json p = m.run(probe_platform, host(false));
  CHECK(p["kind"] == "bare_metal");
  CHECK(p["in_vm"] == false);
  CHECK(p["in_container"] == false);
  CHECK(p["container_runtime"].is_null());
}

TEST_CASE("platform: VM from DMI even without the flag, and Hyper-V by its pair of names", "[platform]") {
  MemoryMachine qemu;
  qemu.fs->file("/sys/class/dmi/id/sys_vendor", "QEMU\n");
  Json p = qemu.run(probe_platform, host(false));
  CHECK(p["kind"] == "vm");
  CHECK(p["hypervisor"] == "QEMU/KVM");

  MemoryMachine hyperv;
  hyperv.fs->file("/sys/class/dmi/id/sys_vendor", "Microsoft Corporation\n");
  hyperv.fs->file("/sys/class/dmi/id/product_name", "Virtual Machine\n");
  CHECK(hyperv.run(probe_platform, host(true))["hypervisor"] == "Microsoft Hyper-V");

  MemoryMachine surface;  // a Microsoft laptop is not a VM
  surface.fs->file("/sys/class/dmi/id/sys_vendor", "Microsoft Corporation\n");
  surface.fs->file("/sys/class/dmi/id/product_name", "Surface Laptop 5\n");
  CHECK(surface.run(probe_platform, host(false))["kind"] == "bare_metal");
}

TEST_CASE("platform: containers by marker files, cgroup and environment", "[platform]") {
  MemoryMachine docker;
  docker.fs->file("/.dockerenv", "");
  Json d = docker.run(probe_platform, host(true));
  CHECK(d["kind"] == "container");  // a container inside a VM is a container
  CHECK(d["in_vm"] == true);
  CHECK(d["container_runtime"] == "docker");

  MemoryMachine k8s;
  k8s.fs->file("/proc/1/cgroup", "0::/kubepods/besteffort/pod1234/abcd\n");
  CHECK(k8s.run(probe_platform, host(false))["container_runtime"] == "kubernetes");

  MemoryMachine podman(std::map<std::string, std::string>{{"container", "podman"}});
  CHECK(podman.run(probe_platform, host(false))["container_runtime"] == "podman");
}

TEST_CASE("platform: WSL2 by its kernel and /dev/dxg", "[platform]") {
  MemoryMachine wsl;
  wsl.fs->file("/proc/version", "Linux version 5.15.167.4-microsoft-standard-WSL2 (root@1) #1 SMP\n");
  wsl.fs->device("/dev/dxg", 0666, 0, 0);
  Json w = wsl.run(probe_platform, host(true));
  CHECK(w["kind"] == "wsl2");
  CHECK(w["wsl"]["dev_dxg"] == true);
  CHECK(w["evidence"].size() >= 2);
}

TEST_CASE("platform: unknown, not bare metal, when nothing can be read", "[platform][malformed]") {
  MemoryMachine m;
  Json p = m.run(probe_platform, Json::object());
  CHECK(is_unknown(p["kind"]));
  CHECK(is_unknown(p["in_vm"]));
  MemoryMachine garbage;
  garbage.fs->file("/proc/1/cgroup", std::string("\0docker\0", 8));
  garbage.fs->file("/sys/class/dmi/id/sys_vendor", std::string("\x01\x02\x03", 3));
  Json g = garbage.run(probe_platform, host(false));
  CHECK(g["in_container"] == false);
  CHECK(is_unknown(g["dmi"]["sys_vendor"]));
}

TEST_CASE("platform: a Xen guest by /sys/hypervisor/type even without DMI", "[platform]") {
  MemoryMachine xen;
  xen.fs->file("/sys/hypervisor/type", "xen\n");
  Json p = xen.run(probe_platform, host(false));
  CHECK(p["kind"] == "vm");
  CHECK(p["hypervisor"] == "Xen");
  CHECK(p["sys_hypervisor_type"] == "xen");
  MemoryMachine metal;
  metal.fs->file("/sys/class/dmi/id/sys_vendor", "ASUSTeK COMPUTER INC.\n");
  CHECK(metal.run(probe_platform, host(false))["sys_hypervisor_type"].is_null());
  MemoryMachine vmware;
  vmware.fs->file("/sys/class/dmi/id/sys_vendor", "VMware, Inc.\n");
  CHECK(vmware.run(probe_platform, host(true))["hypervisor"] == "VMware");
}

TEST_CASE("platform: LXC and Proxmox containers, privileged or not, by systemd's marker, container= and uid_map", "[platform]") {
  // A Proxmox unprivileged CT: cgroup v2 names nothing, the shell lost
  // container=, but systemd's marker and the shifted uid_map remain.
  MemoryMachine unpriv;
  unpriv.fs->file("/proc/1/cgroup", "0::/\n");
  unpriv.fs->file("/run/systemd/container", "lxc\n");
  unpriv.fs->file("/proc/self/uid_map", "         0     100000      65536\n");
  Json u = unpriv.run(probe_platform, host(true));
  CHECK(u["kind"] == "container");
  CHECK(u["container_runtime"] == "lxc");
  CHECK(u["container_privileged"] == false);
  CHECK(u["user_namespace"]["shifted"] == true);

  MemoryMachine priv(std::map<std::string, std::string>{{"container", "lxc"}});
  priv.fs->file("/proc/self/uid_map", "         0          0 4294967295\n");
  Json p = priv.run(probe_platform, host(false));
  CHECK(p["container_runtime"] == "lxc");
  CHECK(p["container_privileged"] == true);

  MemoryMachine lxd;
  lxd.fs->file("/dev/lxd/sock", "");
  Json l = lxd.run(probe_platform, host(false));
  CHECK(l["container_runtime"] == "lxd");
  CHECK(is_unknown(l["container_privileged"]));  // no uid_map recorded

  MemoryMachine host_machine;
  host_machine.fs->file("/proc/self/uid_map", "         0          0 4294967295\n");
  Json h = host_machine.run(probe_platform, host(false));
  CHECK(h["container_privileged"].is_null());
  CHECK(h["user_namespace"]["shifted"] == false);
}
