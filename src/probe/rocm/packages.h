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
// ROCm packages that dpkg left half-way (half-configured, unpacked, ...):
// a failed amdgpu-dkms build leaves exactly this.
Json rocm_packages_incomplete_fact(const DpkgStatus& status);

}  // namespace rocmdoc
