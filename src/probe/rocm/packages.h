// Which installed packages belong to ROCm, and whose build each one is:
// AMD's repository (repo.radeon.com) or the distribution's own.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "formats/dpkg_status.h"
#include "base/fact.h"

namespace rocmdoc {

// rocm*, hip*, hsa*, miopen*, rccl*, rocblas*, amdgpu-dkms*, libhsa*, ...
// and the Debian/Ubuntu library names of the same projects.
bool is_rocm_package_name(std::string_view name);

struct PackageOrigin {
  std::string origin;                 // "amd", "distro", or "" when undecided
  std::vector<std::string> evidence;  // sentences, for the report
  std::string why_unknown;            // set when origin is ""
};

// Decides from the maintainer's address and the shape of the version;
// when the signs disagree or there are none, origin stays undecided.
PackageOrigin classify_package_origin(const DpkgPackage& p);

// The "packages" fact: ROCm packages whose files are installed, sorted by
// name and architecture.
Json rocm_packages_fact(const DpkgStatus& status);
// The ROCm release the distribution's own ROCm packages are, from the
// upstream version of the package that carries the HIP runtime (else the
// HSA runtime, rocminfo, rocm-core): Debian's libamdhip64-5 5.2.3-3 is ROCm
// 5.2.3, Fedora's rocm-hip 6.4.2-1.fc43 and Arch's hip-runtime-amd 6.4.1-1
// are 6.4.2 and 6.4.1. {release, package, version}; null when no package
// of the distribution's carries one. `packages` is rocm_packages_fact's.
Json distro_rocm_release_fact(const Json& packages);
// "5.7.1-3build1" -> "5.7.1", "1:6.4.2-1.fc43" -> "6.4.2",
// "5.2.3+dfsg-1" -> "5.2.3", "10.0-1" -> "10.0"; "" when the upstream
// version does not start with X.Y.
std::string upstream_release(std::string_view version);

// ROCm packages that dpkg left half-way (half-configured, unpacked, ...):
// a failed amdgpu-dkms build leaves exactly this.
Json rocm_packages_incomplete_fact(const DpkgStatus& status);

}  // namespace rocmdoc
