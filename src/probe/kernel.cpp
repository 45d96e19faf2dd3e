// kernel: the running release, its flavour, and the boot parameters that
// decide whether amdgpu and ROCm work (IOMMU, ASPM, amdgpu.*, blacklists).
#include <algorithm>

#include "formats/dpkg_status.h"
#include "probe/probe.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

// "Linux version 6.8.0-45-generic (buildd@...) ..." -> "6.8.0-45-generic"
Json release_from_proc_version(const std::string& text) {
  auto words = split_words(text);
  if (words.size() >= 3 && words[0] == "Linux" && words[1] == "version") return words[2];
  return unknown("/proc/version: not the \"Linux version <release>\" format");
}

Json version_numbers(const std::string& release) {
  Json v = Json::array();
  size_t i = 0;
  while (v.size() < 3 && i < release.size() && std::isdigit(static_cast<unsigned char>(release[i]))) {
    size_t j = i;
    while (j < release.size() && std::isdigit(static_cast<unsigned char>(release[j]))) ++j;
    auto n = parse_uint(std::string_view(release).substr(i, j - i));
    if (!n) break;
    v.push_back(*n);
    if (j >= release.size() || release[j] != '.') break;
    i = j + 1;
  }
  if (v.size() < 2) return unknown("kernel release " + quote_for_reason(release) + " does not start with major.minor");
  while (v.size() < 3) v.push_back(0);
  return v;
}

// The suffix conventions of Ubuntu (-generic, -oem, -azure ...), Debian
// (-amd64, -cloud-amd64) and WSL (-microsoft-standard-WSL2).
std::string flavour_of(const std::string& release) {
  std::string r = to_lower(release);
  if (r.find("microsoft-standard-wsl2") != std::string::npos) return "wsl";
  static const std::vector<std::pair<std::string, std::string>> suffixes = {
      {"-generic", "generic"}, {"-oem", "oem"},   {"-lowlatency", "lowlatency"}, {"-azure", "azure"},
      {"-aws", "aws"},         {"-gcp", "gcp"},   {"-kvm", "kvm"},               {"-amd64", "debian"},
      {"-arm64", "debian"},
  };
  for (auto& [suffix, name] : suffixes)
    if (ends_with(r, suffix)) return name;
  return "custom";
}

// Ubuntu's HWE kernels are "-generic" too; only the installed meta package
// (linux-generic-hwe-24.04 and friends) tells them apart.
Json hwe_installed(ProbeContext& ctx, const Json& distro) {
  if (is_unknown(distro)) return unknown("the distribution is unknown");
  if (distro.value("id", "") != "ubuntu") return nullptr;
  auto& status = ctx.dpkg().text();
  if (!status) return unknown(status.error());
  // linux-generic-hwe-24.04, linux-image-generic-hwe-22.04, ...
  auto is_hwe = [](std::string_view name) {
    return name.starts_with("linux-") && name.find("-hwe-") != std::string_view::npos;
  };
  for (auto& package : ctx.dpkg().status().packages)
    if (is_hwe(package.name) && package.installed()) return true;
  return false;
}

// The kernel reads '-' and '_' in a parameter's name as the same character
// (kernel/params.c, parameq): amdgpu.cwsr-enable=0 is amdgpu.cwsr_enable=0.
std::string parameter_name(std::string key) {
  for (char& c : key)
    if (c == '-') c = '_';
  return key;
}

// The parameters that change how amdgpu, its memory manager (ttm), the
// IOMMU or PCIe treat the GPU: where people put the usual workarounds
// (amdgpu.cwsr_enable=0, iommu=pt, amdgpu.gttsize=...), so a rule can say
// which are already set.
bool gpu_parameter(const std::string& name) {
  static const char* const prefixes[] = {"amdgpu.", "amdttm.", "ttm.", "amdkfd."};
  for (const char* p : prefixes)
    if (starts_with(name, p)) return true;
  static const char* const names[] = {"iommu", "amd_iommu", "intel_iommu", "pcie_aspm", "pci", "nomodeset"};
  for (const char* n : names)
    if (name == n) return true;
  return false;
}

Json parse_cmdline(const std::string& raw) {
  Json c = Json::object();
  c["raw"] = raw;
  Json params = Json::object();
  Json amdgpu = Json::object();
  Json blacklist = Json::array();
  Json gpu_params = Json::array();
  for (auto& word : split_words(raw)) {
    auto eq = word.find('=');
    std::string key = parameter_name(word.substr(0, eq));
    std::string value = eq == std::string::npos ? "" : word.substr(eq + 1);
    // A later value of the same parameter wins, as the kernel applies them in order.
    if (starts_with(key, "amdgpu.")) amdgpu[key.substr(7)] = value;
    if (key == "modprobe.blacklist" || key == "module_blacklist")
      for (auto& m : split(value, ','))
        if (!m.empty()) blacklist.push_back(m);
    if (gpu_parameter(key)) {
      auto same = [&](const Json& p) {
        auto& text = p.get_ref<const std::string&>();
        return text == key || starts_with(text, key + "=");
      };
      gpu_params.erase(std::remove_if(gpu_params.begin(), gpu_params.end(), same), gpu_params.end());
      gpu_params.push_back(eq == std::string::npos ? key : key + "=" + value);
    }
    params[key] = value;
  }
  for (const char* key : {"iommu", "amd_iommu", "intel_iommu", "pcie_aspm"})
    c[key] = params.contains(key) ? params[key] : Json(nullptr);
  c["amdgpu"] = amdgpu;
  c["gpu_params"] = gpu_params;
  c["modprobe_blacklist"] = blacklist;
  return c;
}

// kernel.dmesg_restrict: whether only root (CAP_SYSLOG) may read the kernel
// log. A rule that tells the user to type dmesg reads this, not whether the
// probe read the log: under sudo the probe is root and reads it where the
// user's own dmesg is refused. The kernel takes only 0 and 1 here
// (proc_dointvec_minmax), so anything else is a file rocmdoc does not
// understand, not a third setting.
Json dmesg_restrict(ProbeContext& ctx) {
  const std::string path = "/proc/sys/kernel/dmesg_restrict";
  Json text = ctx.read_text_fact(path);
  if (is_unknown(text)) return text;
  if (text == "0") return 0;
  if (text == "1") return 1;
  return unknown(path + ": not 0 or 1: " + quote_for_reason(text.get<std::string>()));
}

}  // namespace

Json probe_kernel(ProbeContext& ctx, const Json& facts) {
  Json k = Json::object();
  Json release = ctx.read_text_fact("/proc/sys/kernel/osrelease");
  k["release_source"] = "/proc/sys/kernel/osrelease";
  if (is_unknown(release) || release.get<std::string>().find_first_of(" \t\n") != std::string::npos) {
    Json version = ctx.read_text_fact("/proc/version");
    release = is_unknown(version) ? version : release_from_proc_version(version.get<std::string>());
    k["release_source"] = "/proc/version";
  }
  k["release"] = release;
  if (is_unknown(release)) {
    k["version"] = release;
    k["flavour"] = release;
  } else {
    k["version"] = version_numbers(release.get<std::string>());
    k["flavour"] = flavour_of(release.get<std::string>());
  }
  k["hwe"] = hwe_installed(ctx, facts.contains("distro") ? facts["distro"] : unknown("no distro facts"));
  k["dmesg_restrict"] = dmesg_restrict(ctx);

  auto cmdline = ctx.fs().read_file("/proc/cmdline", 64 * 1024);
  if (!cmdline) k["cmdline"] = unknown(cmdline.error());
  else if (looks_binary(*cmdline)) k["cmdline"] = unknown("/proc/cmdline: binary content, not text");
  else k["cmdline"] = parse_cmdline(trim(*cmdline));
  return k;
}

}  // namespace rocmdoc
