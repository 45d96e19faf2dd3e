// host: CPU architecture, vendor and model, memory. The ROCm packages and
// PyTorch wheels are published for x86_64 only, so the architecture is a
// fact the rules need, read from the kernel rather than assumed.
#include "probe/probe.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

// /proc/cpuinfo "key : value" lines of the first processor block, and the
// number of "processor" lines.
struct CpuInfo {
  std::map<std::string, std::string> first;
  int processors = 0;
};

CpuInfo parse_cpuinfo(const std::string& text) {
  CpuInfo info;
  bool in_first = true;
  for (auto& line : split_lines(text)) {
    if (trim(line).empty()) {
      if (!info.first.empty()) in_first = false;
      continue;
    }
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = trim(line.substr(0, colon));
    std::string value = trim(line.substr(colon + 1));
    if (key == "processor") ++info.processors;
    if (in_first && !info.first.count(key)) info.first[key] = value;
  }
  return info;
}

// The architecture as the shape of /proc/cpuinfo shows it: x86 writes
// "vendor_id" and "flags" ("lm" = long mode = 64-bit); arm64 writes
// "CPU architecture: 8" and "Features".
Json arch_from_cpuinfo(const CpuInfo& info) {
  auto flags = info.first.find("flags");
  if (info.first.count("vendor_id") && flags != info.first.end()) {
    auto words = split_words(flags->second);
    bool long_mode = std::find(words.begin(), words.end(), "lm") != words.end();
    return long_mode ? "x86_64" : "i686";
  }
  auto arch = info.first.find("CPU architecture");
  if (arch != info.first.end() && info.first.count("Features")) {
    if (arch->second == "8" || arch->second == "9") return "aarch64";
    return unknown("/proc/cpuinfo: ARM CPU architecture " + quote_for_reason(arch->second) + " is not one rocmdoc knows");
  }
  return unknown("/proc/cpuinfo: neither the x86 nor the ARM layout");
}

Json cpu_vendor(const CpuInfo& info) {
  if (auto it = info.first.find("vendor_id"); it != info.first.end()) return it->second;
  // ARM: the implementer code (0x41 Arm, 0x61 Apple, 0xc0 Ampere, ...).
  if (auto it = info.first.find("CPU implementer"); it != info.first.end()) return "arm-implementer-" + it->second;
  return unknown("/proc/cpuinfo: no vendor_id or CPU implementer line");
}

Json cpu_model(const CpuInfo& info) {
  for (const char* key : {"model name", "Model", "Hardware"})
    if (auto it = info.first.find(key); it != info.first.end()) return it->second;
  return unknown("/proc/cpuinfo: no model name line");
}

Json memory_bytes(ProbeContext& ctx) {
  auto text = ctx.fs().read_file("/proc/meminfo", 1 << 20);
  if (!text) return unknown(text.error());
  for (auto& line : split_lines(*text)) {
    auto w = split_words(line);
    if (w.size() == 3 && w[0] == "MemTotal:" && w[2] == "kB")
      if (auto kb = parse_uint(w[1])) return *kb * 1024;
  }
  return unknown("/proc/meminfo: no MemTotal line in kB");
}

}  // namespace

Json probe_host(ProbeContext& ctx, const Json&) {
  Json h = Json::object();
  auto text = ctx.fs().read_file("/proc/cpuinfo", 16 << 20);
  CpuInfo info;
  bool cpuinfo_ok = text && !looks_binary(*text);
  if (cpuinfo_ok) info = parse_cpuinfo(*text);
  std::string cpuinfo_why = !text ? text.error() : "/proc/cpuinfo: binary content, not text";

  Json arch = ctx.read_text_fact("/proc/sys/kernel/arch");
  if (!is_unknown(arch) && arch.get<std::string>().find_first_of(" \t") == std::string::npos) {
    h["arch"] = arch;
    h["arch_source"] = "/proc/sys/kernel/arch";
  } else {
    h["arch"] = cpuinfo_ok ? arch_from_cpuinfo(info) : unknown(cpuinfo_why);
    h["arch_source"] = "/proc/cpuinfo";
  }
  h["cpu_vendor"] = cpuinfo_ok ? cpu_vendor(info) : unknown(cpuinfo_why);
  h["cpu_model"] = cpuinfo_ok ? cpu_model(info) : unknown(cpuinfo_why);
  h["cpu_count"] = cpuinfo_ok && info.processors > 0 ? Json(info.processors) : unknown(cpuinfo_ok ? "/proc/cpuinfo: no processor lines" : cpuinfo_why);
  h["memory_bytes"] = memory_bytes(ctx);
  // The node's name for `rocmdoc fleet merge`, which reads many nodes'
  // reports; the kernel's own name, as uname -n gives it.
  h["hostname"] = ctx.read_text_fact("/proc/sys/kernel/hostname");
  // The platform probe decides "VM" partly from this flag, which the CPU
  // sets for software running under a hypervisor.
  if (!cpuinfo_ok) h["hypervisor_flag"] = unknown(cpuinfo_why);
  else if (auto flags = info.first.find("flags"); flags != info.first.end()) {
    auto words = split_words(flags->second);
    h["hypervisor_flag"] = std::find(words.begin(), words.end(), "hypervisor") != words.end();
  } else {
    h["hypervisor_flag"] = unknown("/proc/cpuinfo has no flags line (not x86)");
  }
  return h;
}

}  // namespace rocmdoc
