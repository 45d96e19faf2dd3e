// amdgpu: is the kernel driver there (loaded, built in, which version), is
// it kept from loading, which AMD GPUs it drives, and the DKMS builds of
// AMD's packaged driver.
#include "probe/amdgpu/blacklist.h"
#include "probe/amdgpu/dkms.h"
#include "probe/amdgpu/pci_devices.h"
#include "probe/probe.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

constexpr const char* kSysModule = "/sys/module/amdgpu";

// The running kernel's release, which names the module and DKMS trees.
Json running_release(ProbeContext& ctx, const Json& facts) {
  Json release = ctx.read_text_fact("/proc/sys/kernel/osrelease");
  if (!is_unknown(release)) return release;
  // The kernel probe falls back on /proc/version, which recordings keep more often.
  if (facts.is_object() && facts.contains("kernel") && facts["kernel"].is_object() &&
      facts["kernel"].contains("release") && facts["kernel"]["release"].is_string())
    return facts["kernel"]["release"];
  return release;
}

Json module_loaded(ProbeContext& ctx, const FileStat& sys_module) {
  if (sys_module.type == FileType::directory) return true;
  auto modules = ctx.fs().read_file("/proc/modules", 4 << 20);
  if (modules) {
    for (auto& line : split_lines(*modules)) {
      auto words = split_words(line);
      if (!words.empty() && words[0] == "amdgpu") return true;
    }
    if (sys_module.absent()) return false;
  }
  std::string why;
  if (!modules) {
    why = modules.error();
    if (ctx.fs().stat("/proc/modules").absent()) why += " (a kernel without loadable modules?)";
    why += "; ";
  }
  why += std::string(kSysModule) + ": " + (sys_module.absent() ? "absent" : sys_module.error);
  return unknown(why);
}

// A built-in driver has a /sys/module entry (for its parameters) but no
// initstate, which only loadable modules have.
Json module_builtin(ProbeContext& ctx, const FileStat& sys_module, const Json& release) {
  if (sys_module.type == FileType::directory) {
    FileStat initstate = ctx.fs().stat(std::string(kSysModule) + "/initstate");
    if (initstate.absent()) return true;
    if (initstate.type != FileType::missing) return false;
    return unknown(std::string(kSysModule) + "/initstate: " + initstate.error);
  }
  if (is_unknown(release)) return unknown("the kernel release is unknown: " + unknown_reason(release));
  std::string path = "/lib/modules/" + release.get<std::string>() + "/modules.builtin";
  auto text = ctx.fs().read_file(path, 4 << 20);
  if (!text) return unknown(text.error());
  for (auto& line : split_lines(*text))
    if (trim(line) == "kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko") return true;
  return false;
}

// Only AMD's DKMS driver declares MODULE_VERSION; the in-kernel one has
// no version file, so null means "the distribution kernel's driver".
Json module_version(ProbeContext& ctx) {
  std::string path = std::string(kSysModule) + "/version";
  if (ctx.fs().stat(path).absent()) return nullptr;
  return ctx.read_text_fact(path);
}

Json module_fact(ProbeContext& ctx, const Json& release) {
  FileStat sys_module = ctx.fs().stat_follow(kSysModule);
  Json m = Json::object();
  m["loaded"] = module_loaded(ctx, sys_module);
  m["builtin"] = module_builtin(ctx, sys_module, release);
  m["version"] = module_version(ctx);
  return m;
}

void add_devices(ProbeContext& ctx, const Json& facts, Json& out) {
  auto devices = pci_device_summaries(ctx, facts);
  if (!devices) {
    out["devices"] = unknown(devices.error());
    out["radeon_bound"] = unknown(devices.error());
    return;
  }
  Json list = Json::array(), radeon = Json::array();
  for (auto& d : *devices) {
    if (!is_amd_gpu(d)) continue;
    Json entry = Json::object();
    entry["address"] = d.address;
    entry["driver"] = d.driver;
    list.push_back(entry);
    if (d.driver.is_string() && d.driver == "radeon") radeon.push_back(d.address);
  }
  out["devices"] = list;
  out["radeon_bound"] = radeon;
}

}  // namespace

Json probe_amdgpu(ProbeContext& ctx, const Json& facts) {
  Json release = running_release(ctx, facts);
  Json out = Json::object();
  out["module"] = module_fact(ctx, release);
  out["blacklisted"] = amdgpu_blacklist_fact(ctx);
  add_devices(ctx, facts, out);
  out["dkms"] = amdgpu_dkms_fact(ctx, release);
  return out;
}

}  // namespace rocmdoc
