// platform: bare metal, a VM, a container, or WSL2. Each changes what can
// be fixed (no driver installs in a container, no PCIe settings in a VM
// without passthrough), so the evidence is kept with the verdict.
#include "probe/probe.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

Json dmi_facts(ProbeContext& ctx) {
  Json dmi = Json::object();
  for (const char* field : {"sys_vendor", "product_name", "board_name", "bios_version"})
    dmi[field] = ctx.read_text_fact(std::string("/sys/class/dmi/id/") + field);
  return dmi;
}

// DMI vendors and products of the common hypervisors and clouds.
std::string hypervisor_from_dmi(const Json& dmi) {
  static const std::vector<std::pair<std::string, std::string>> known = {
      {"qemu", "QEMU/KVM"},         {"kvm", "QEMU/KVM"},          {"vmware", "VMware"},
      {"virtualbox", "VirtualBox"}, {"innotek", "VirtualBox"},    {"xen", "Xen"},
      {"amazon ec2", "Amazon EC2"}, {"google compute", "Google"}, {"bochs", "Bochs"},
      {"parallels", "Parallels"},   {"cloud hypervisor", "Cloud Hypervisor"},
  };
  std::string text;
  for (const char* field : {"sys_vendor", "product_name"})
    if (dmi[field].is_string()) text += to_lower(dmi[field].get<std::string>()) + " ";
  // Hyper-V: "Microsoft Corporation" + "Virtual Machine".
  if (text.find("microsoft corporation") != std::string::npos && text.find("virtual machine") != std::string::npos)
    return "Microsoft Hyper-V";
  for (auto& [needle, name] : known)
    if (text.find(needle) != std::string::npos) return name;
  return "";
}

// container= values (systemd's list) as rocmdoc's runtime names.
std::string runtime_of(const std::string& v) {
  if (v == "podman" || v == "oci") return "podman";
  if (v == "lxc" || v == "lxc-libvirt") return "lxc";
  return v;
}

struct ContainerSigns {
  std::string runtime;  // empty: none found
  Json evidence = Json::array();
  void found(const std::string& rt, const std::string& why) {
    if (runtime.empty()) runtime = rt;
    evidence.push_back(why);
  }
};

void container_from_files(ProbeContext& ctx, ContainerSigns& signs) {
  if (ctx.fs().exists("/.dockerenv")) signs.found("docker", "/.dockerenv exists");
  if (ctx.fs().exists("/run/.containerenv")) signs.found("podman", "/run/.containerenv exists");
  auto cgroup = ctx.fs().read_file("/proc/1/cgroup", 1 << 20);
  if (cgroup && !looks_binary(*cgroup)) {
    std::string c = *cgroup;
    if (c.find("kubepods") != std::string::npos) signs.found("kubernetes", "/proc/1/cgroup names kubepods");
    else if (c.find("/docker") != std::string::npos) signs.found("docker", "/proc/1/cgroup names docker");
    else if (c.find("libpod") != std::string::npos) signs.found("podman", "/proc/1/cgroup names libpod");
    else if (c.find("/lxc") != std::string::npos) signs.found("lxc", "/proc/1/cgroup names lxc");
  }
}

// systemd's marker (systemd-detect-virt reads it): PID 1 copies the
// container= its manager gave it there, "lxc" for LXC, LXD, Incus and
// Proxmox CTs. PID 1's own environment (/proc/1/environ) says the same but
// is not read: a snapshot would carry every variable of it, secrets too.
void container_from_systemd(ProbeContext& ctx, ContainerSigns& signs) {
  Json kind = ctx.read_text_fact("/run/systemd/container");
  if (!kind.is_string()) return;
  std::string v = kind.get<std::string>();
  signs.found(runtime_of(v), "/run/systemd/container says " + v);
}

// LXD and Incus give their containers a socket to talk to the host.
void container_from_lxd(ProbeContext& ctx, ContainerSigns& signs) {
  if (ctx.fs().exists("/dev/lxd/sock")) signs.found("lxd", "/dev/lxd/sock exists (LXD guest API)");
  else if (ctx.fs().exists("/dev/incus/sock")) signs.found("incus", "/dev/incus/sock exists (Incus guest API)");
}

// The user namespace: the initial one maps every id to itself
// ("0 0 4294967295"); any other map means ids are shifted (an unprivileged
// LXC container, rootless Docker or Podman), and host ids outside the map
// show as nobody/nogroup (65534).
Json user_namespace(ProbeContext& ctx) {
  Json ns = Json::object();
  Json map = ctx.read_text_fact("/proc/self/uid_map");
  ns["uid_map"] = map;
  if (is_unknown(map)) {
    ns["shifted"] = map;
    return ns;
  }
  auto lines = split_lines(map.get<std::string>());
  bool identity = lines.size() == 1 && split_words(lines[0]) == std::vector<std::string>{"0", "0", "4294967295"};
  ns["shifted"] = !identity;
  return ns;
}

void container_from_env(ProbeContext& ctx, ContainerSigns& signs) {
  Json container = ctx.machine().env("container");
  if (container.is_string()) {
    std::string v = container.get<std::string>();
    signs.found(runtime_of(v), "the environment has container=" + v);
  }
  if (ctx.machine().env("KUBERNETES_SERVICE_HOST").is_string())
    signs.found("kubernetes", "the environment has KUBERNETES_SERVICE_HOST");
}

// /sys/hypervisor/type: "xen" in a Xen guest (PV, HVM or PVH), the one
// hypervisor whose guests may not show a DMI vendor.
Json sys_hypervisor_type(ProbeContext& ctx) {
  FileStat st = ctx.fs().stat("/sys/hypervisor/type");
  if (st.absent()) return nullptr;
  return ctx.read_text_fact("/sys/hypervisor/type");
}

Json wsl_signs(ProbeContext& ctx) {
  Json w = Json::object();
  Json version = ctx.read_text_fact("/proc/version");
  if (is_unknown(version)) w["proc_version_microsoft"] = version;
  else {
    std::string v = to_lower(version.get<std::string>());
    w["proc_version_microsoft"] = v.find("microsoft") != std::string::npos || v.find("wsl") != std::string::npos;
  }
  w["dev_dxg"] = ctx.fs().exists("/dev/dxg");
  return w;
}

}  // namespace

Json probe_platform(ProbeContext& ctx, const Json& facts) {
  Json p = Json::object();
  Json evidence = Json::array();

  Json hv_flag = facts.contains("host") && facts["host"].is_object() && facts["host"].contains("hypervisor_flag")
                     ? facts["host"]["hypervisor_flag"]
                     : unknown("no host facts");
  Json dmi = dmi_facts(ctx);
  std::string hypervisor = hypervisor_from_dmi(dmi);
  if (hv_flag == true) evidence.push_back("the CPU reports the hypervisor flag");
  if (!hypervisor.empty()) evidence.push_back("DMI names " + hypervisor);
  Json hv_type = sys_hypervisor_type(ctx);
  if (hv_type.is_string() && to_lower(hv_type.get<std::string>()) == "xen") {
    if (hypervisor.empty()) hypervisor = "Xen";
    evidence.push_back("/sys/hypervisor/type says xen");
  }
  bool vm = hv_flag == true || !hypervisor.empty();
  bool vm_known = vm || !is_unknown(hv_flag) || !is_unknown(dmi["sys_vendor"]);

  ContainerSigns signs;
  container_from_files(ctx, signs);
  container_from_env(ctx, signs);
  container_from_systemd(ctx, signs);
  container_from_lxd(ctx, signs);
  Json userns = user_namespace(ctx);
  if (userns["shifted"] == true) evidence.push_back("/proc/self/uid_map shifts ids (a user namespace)");
  for (auto& e : signs.evidence) evidence.push_back(e);

  Json wsl = wsl_signs(ctx);
  bool is_wsl = wsl["proc_version_microsoft"] == true || wsl["dev_dxg"] == true;
  if (wsl["proc_version_microsoft"] == true) evidence.push_back("/proc/version names Microsoft (WSL kernel)");
  if (wsl["dev_dxg"] == true) evidence.push_back("/dev/dxg exists (WSL GPU paravirtualisation)");

  if (is_wsl) p["kind"] = "wsl2";
  else if (!signs.runtime.empty()) p["kind"] = "container";
  else if (vm) p["kind"] = "vm";
  // Without the flag or DMI nothing rules a VM out: say so rather than
  // calling it bare metal.
  else if (vm_known) p["kind"] = "bare_metal";
  else p["kind"] = unknown("neither the CPU flags nor DMI could be read, so a VM cannot be ruled out");

  p["in_vm"] = vm_known ? Json(vm) : unknown("neither the CPU flags nor DMI could be read");
  p["hypervisor_flag"] = hv_flag;
  p["hypervisor"] = hypervisor.empty() ? Json(nullptr) : Json(hypervisor);
  p["dmi"] = dmi;
  p["in_container"] = !signs.runtime.empty();
  p["container_runtime"] = signs.runtime.empty() ? Json(nullptr) : Json(signs.runtime);
  // Privileged: the container's root is the host's root. Only a user
  // namespace tells; without uid_map it is unknown.
  if (signs.runtime.empty()) p["container_privileged"] = nullptr;
  else if (is_unknown(userns["shifted"])) p["container_privileged"] = userns["shifted"];
  else p["container_privileged"] = userns["shifted"] == false;
  p["user_namespace"] = userns;
  p["sys_hypervisor_type"] = hv_type;
  p["wsl"] = wsl;
  p["evidence"] = evidence;
  return p;
}

}  // namespace rocmdoc
