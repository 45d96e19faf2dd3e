#include "probe/rocm/packages.h"

#include <algorithm>

#include "base/text.h"

namespace rocmdoc {

namespace {

// Name prefixes of ROCm's packages. AMD's names (rocm-core, hip-runtime-amd,
// rocblas, amdgpu-dkms) and Debian's (librocblas0, libamdhip64-5,
// libhsa-runtime64-1) differ, so both families are listed. "roc" alone
// would catch unrelated packages (rocksdb), hence the explicit libraries.
constexpr std::string_view kPrefixes[] = {
    "rocm", "hip", "hsa", "miopen", "rccl", "rocblas", "rocfft", "rocrand", "rocsparse", "rocsolver", "rocprim",
    "rocthrust", "roctracer", "rocprofiler", "rocalution", "rocwmma", "rocdecode", "rocjpeg", "amdgpu-dkms",
    "amd-smi", "comgr", "libhsa", "libhsakmt", "librocm", "libamdhip", "libhip", "librocblas", "librocfft",
    "librocrand", "librocsparse", "librocsolver", "libroctracer", "librccl", "libmiopen", "libamd-comgr",
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

// Debian repacks (+dfsg), Ubuntu's own revisions and Debian backports.
std::string distro_version_mark(const std::string& version) {
  std::string v = to_lower(version);
  for (const char* mark : {"ubuntu", "+dfsg", "~bpo", "+deb"})
    if (v.find(mark) != std::string::npos) return mark;
  return "";
}

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
  for (const char* d : {"debian.org", "ubuntu.com", "canonical.com"})
    if (domain_is(domain, d)) distro.push_back("maintainer " + p.maintainer + " is the distribution's");
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

}  // namespace rocmdoc
