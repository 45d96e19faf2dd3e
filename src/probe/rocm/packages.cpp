#include "probe/rocm/packages.h"

#include <algorithm>

#include "base/text.h"

namespace rocmdoc {

namespace {

// Name prefixes of ROCm's packages. AMD's names (rocm-core, hip-runtime-amd,
// rocblas, amdgpu-dkms) and Debian's (librocblas0, libamdhip64-5,
// libhsa-runtime64-1) differ, so both families are listed. "roc" alone
// would catch unrelated packages (rocksdb), hence the explicit libraries.
// AMD's Core SDK (10.x) names its packages amdrocm<release>[-<gfx>];
// Fedora and Arch name AMD SMI's package amdsmi; Debian and Ubuntu its
// library libamd-smi<soname> (libamd-smi0 in trixie, libamd-smi26 in
// Ubuntu 26.04: packages.ubuntu.com/resolute/amd64/libamd-smi26, 7.2.0-3,
// read 2026-12-08), which "amd-smi" does not reach.
constexpr std::string_view kPrefixes[] = {
    "rocm", "amdrocm", "amdsmi", "hip", "hsa", "miopen", "rccl", "rocblas", "rocfft", "rocrand", "rocsparse",
    "rocsolver", "rocprim", "rocthrust", "roctracer", "rocprofiler", "rocalution", "rocwmma", "rocdecode", "rocjpeg", "amdgpu-dkms",
    "amd-smi", "comgr", "libhsa", "libhsakmt", "librocm", "libamdhip", "libhip", "librocblas", "librocfft",
    "librocrand", "librocsparse", "librocsolver", "libroctracer", "librccl", "libmiopen", "libamd-comgr", "libamd-smi",
    "python3-torch", "libdrm-amdgpu"};
constexpr std::string_view kExactNames[] = {"amdgpu-install", "amdgpu-core", "amdgpu-lib", "amdgpu-lib32"};

// "Name <user@host>" -> "host", lower-cased; "" without an address.
std::string maintainer_domain(std::string_view maintainer) {
  auto open = maintainer.rfind('<');
  auto close = maintainer.rfind('>');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return "";
  auto address = maintainer.substr(open + 1, close - open - 1);
  auto at = address.rfind('@');
  if (at == std::string_view::npos) return "";
  return to_lower(address.substr(at + 1));
}

bool domain_is(const std::string& domain, std::string_view base) {
  return domain == base || ends_with(domain, "." + std::string(base));
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// AMD's packages append the ROCm release as a number to the upstream
// version, then a build number: 6.4.1.60401-83~24.04 (60401 = 6.4.1),
// 1:6.8.5.60200-2009582.24.04 (amdgpu-dkms), and since 2025 the driver's
// eight-digit form 30.30.1.0.30300100-2303411.24.04. Returns that number.
std::string amd_release_number(std::string_view version) {
  if (auto colon = version.find(':'); colon != std::string_view::npos) version.remove_prefix(colon + 1);
  auto dash = version.rfind('-');
  if (dash == std::string_view::npos || dash + 1 >= version.size()) return "";
  auto upstream = version.substr(0, dash);
  auto dot = upstream.rfind('.');
  if (dot == std::string_view::npos) return "";
  auto last = upstream.substr(dot + 1);
  if (!all_digits(last) || (last.size() != 5 && last.size() != 8)) return "";
  return std::string(last);
}

// Debian repacks (+dfsg), Ubuntu's own revisions, Debian backports, and
// Fedora's release tag (".fc43"; AMD builds no Fedora packages, while its
// RHEL packages carry ".el9" as the distribution's own do, so that mark
// tells nothing).
std::string distro_version_mark(const std::string& version) {
  std::string v = to_lower(version);
  for (const char* mark : {"ubuntu", "+dfsg", "~bpo", "+deb"})
    if (v.find(mark) != std::string::npos) return mark;
  for (auto at = v.find(".fc"); at != std::string::npos; at = v.find(".fc", at + 1))
    if (at + 3 < v.size() && v[at + 3] >= '0' && v[at + 3] <= '9') return ".fc";
  return "";
}

// The distributions' own build services, by the packager's (or Debian
// maintainer's) address.
constexpr std::string_view kDistroDomains[] = {"debian.org",    "ubuntu.com",     "canonical.com", "archlinux.org",
                                               "fedoraproject.org", "redhat.com", "suse.com",      "suse.de",
                                               "opensuse.org",  "centos.org",     "rockylinux.org", "almalinux.org",
                                               "oracle.com"};
// rpm's Vendor tag of the distributions' packages, as their rpm -qi shows
// it; a prefix, since SUSE appends its URL ("SUSE LLC <https://www.suse.com/>").
constexpr std::string_view kDistroVendors[] = {"Fedora Project", "Red Hat, Inc.", "openSUSE", "SUSE LLC",
                                               "CentOS", "Rocky Enterprise Software Foundation", "AlmaLinux",
                                               "Oracle America"};

}  // namespace

bool is_rocm_package_name(std::string_view name) {
  // Asked of every package in dpkg's database: the first letter rules out
  // most names before any string is compared.
  if (name.empty()) return false;
  for (auto exact : kExactNames)
    if (exact[0] == name[0] && name == exact) return true;
  for (auto prefix : kPrefixes)
    if (prefix[0] == name[0] && name.starts_with(prefix)) return true;
  return false;
}

PackageOrigin classify_package_origin(const DpkgPackage& p) {
  PackageOrigin o;
  std::vector<std::string> amd, distro;
  std::string domain = maintainer_domain(p.maintainer);
  if (domain_is(domain, "amd.com")) amd.push_back("maintainer " + p.maintainer + " is AMD's");
  for (auto d : kDistroDomains)
    if (domain_is(domain, d)) distro.push_back("maintainer " + p.maintainer + " is the distribution's");
  for (auto v : kDistroVendors)
    if (starts_with(p.vendor, v)) distro.push_back("vendor " + p.vendor + " is the distribution's");
  // The packager alone, without an address: Fedora's build system writes
  // "Fedora Project" there.
  if (domain.empty())
    for (auto v : kDistroVendors)
      if (p.maintainer == v) distro.push_back("packager " + p.maintainer + " is the distribution's");
  if (starts_with(p.vendor, "Advanced Micro Devices") || p.vendor == "AMD")
    amd.push_back("vendor " + p.vendor + " is AMD's");
  if (auto number = amd_release_number(p.version); !number.empty())
    amd.push_back("version " + p.version + " carries AMD's ROCm release number " + number);
  if (auto mark = distro_version_mark(p.version); !mark.empty())
    distro.push_back("version " + p.version + " carries the distribution mark \"" + mark + "\"");

  o.evidence = amd;
  o.evidence.insert(o.evidence.end(), distro.begin(), distro.end());
  if (!amd.empty() && !distro.empty()) {
    o.why_unknown = p.name + ": the signs disagree (" + amd.front() + "; " + distro.front() + ")";
  } else if (!amd.empty()) {
    o.origin = "amd";
  } else if (!distro.empty()) {
    o.origin = "distro";
  } else {
    o.why_unknown = p.name + ": neither the maintainer (" + (p.maintainer.empty() ? "none" : p.maintainer) +
                    ") nor the version (" + p.version + ") tells whose build it is";
  }
  return o;
}

namespace {

Json package_json(const DpkgPackage& p) {
  Json j = Json::object();
  j["name"] = p.name;
  j["architecture"] = p.architecture.empty() ? Json(nullptr) : Json(p.architecture);
  j["version"] = p.version.empty() ? unknown("/var/lib/dpkg/status: " + p.name + " has no Version") : Json(p.version);
  j["status"] = p.status;
  j["maintainer"] = p.maintainer.empty() ? Json(nullptr) : Json(p.maintainer);
  // "libdrm (2.4.114-1)": the source package, with its version when it
  // differs from the binary's; the name is what identifies it.
  std::string source = trim(std::string_view(p.source).substr(0, p.source.find('(')));
  j["source"] = source.empty() ? Json(nullptr) : Json(source);
  return j;
}

std::vector<const DpkgPackage*> sorted_rocm_packages(const DpkgStatus& status, bool installed) {
  std::vector<const DpkgPackage*> out;
  for (auto& p : status.packages) {
    if (!is_rocm_package_name(p.name)) continue;
    std::string state = p.state();
    // Removed packages keep a stanza ("config-files", "not-installed"):
    // their files are gone, so they are neither installed nor half-way.
    bool gone = state == "not-installed" || state == "config-files";
    if (gone || p.installed() != installed) continue;
    out.push_back(&p);
  }
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) {
    return a->name != b->name ? a->name < b->name : a->architecture < b->architecture;
  });
  return out;
}

}  // namespace

Json rocm_packages_fact(const DpkgStatus& status) {
  Json list = Json::array();
  for (auto* p : sorted_rocm_packages(status, true)) {
    Json j = package_json(*p);
    PackageOrigin o = classify_package_origin(*p);
    j["origin"] = o.origin.empty() ? unknown(o.why_unknown) : Json(o.origin);
    j["origin_evidence"] = o.evidence;
    list.push_back(j);
  }
  return list;
}

Json rocm_packages_incomplete_fact(const DpkgStatus& status) {
  Json list = Json::array();
  for (auto* p : sorted_rocm_packages(status, false)) list.push_back(package_json(*p));
  return list;
}

std::string upstream_release(std::string_view version) {
  if (auto colon = version.find(':'); colon != std::string_view::npos) version.remove_prefix(colon + 1);
  if (auto dash = version.rfind('-'); dash != std::string_view::npos) version = version.substr(0, dash);
  // The release is the leading X.Y or X.Y.Z (the Core SDK's "10.0"); what
  // follows (+dfsg, ~rc1, a fourth number) is packaging.
  std::string out;
  int parts = 0;
  size_t i = 0;
  while (parts < 3) {
    size_t start = i;
    while (i < version.size() && version[i] >= '0' && version[i] <= '9') ++i;
    if (i == start) return parts >= 2 ? out.substr(0, out.size() - 1) : "";
    out += std::string(version.substr(start, i - start));
    if (++parts == 3 || i >= version.size() || version[i] != '.') break;
    out += '.';
    ++i;
  }
  return parts >= 2 ? out : "";
}

Json distro_rocm_release_fact(const Json& packages) {
  if (!packages.is_array()) return packages;
  // Debian and Ubuntu, Fedora and SUSE, Arch: the HIP runtime's package
  // names first, then the HSA runtime's, then the tools that share the
  // release's version.
  static constexpr std::string_view kCarriers[] = {
      "libamdhip64", "rocm-hip", "hip-runtime-amd", "libhsa-runtime64", "rocm-runtime", "hsa-rocr",
      "rocminfo", "rocm-core"};
  for (auto carrier : kCarriers)
    for (auto& p : packages) {
      if (field(p, "origin") != "distro" || !field(p, "name").is_string() || !field(p, "version").is_string()) continue;
      std::string name = p["name"].get<std::string>();
      // libamdhip64-5 and libamdhip64-6 carry a soname; the rpm and pacman
      // names are exact (rocm-hip-devel is not the runtime).
      bool named = carrier.substr(0, 3) == "lib" ? starts_with(name, std::string(carrier) + "-") || name == carrier
                                                   : name == carrier;
      if (!named) continue;
      std::string version = p["version"].get<std::string>();
      std::string release = upstream_release(version);
      if (release.empty()) continue;
      return Json{{"release", release}, {"package", name}, {"version", version}};
    }
  return nullptr;
}

}  // namespace rocmdoc
