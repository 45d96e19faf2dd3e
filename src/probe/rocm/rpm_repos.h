// AMD's repositories as dnf and zypper see them: the sections of
// /etc/yum.repos.d/*.repo (dnf, yum) and /etc/zypp/repos.d/*.repo (zypper)
// whose URLs are on repo.radeon.com or repo.amd.com, the counterpart of
// apt.h's sources on an RPM distribution.
#pragma once

#include <string>
#include <string_view>

#include "probe/probe.h"

namespace rocmdoc {

// What an AMD repository URL says of itself: its first path segment
// ("rocm", "amdgpu", "graphics"; "" for none) and the release it is for,
// the first segment that is a version or "latest" (AMD's layouts put the
// release before the OS version: /rocm/rhel9/6.4.1/main,
// /rocm/zyp/6.4.1/main, /amdgpu/6.4.1/rhel/9.6/main/x86_64); "" for none.
std::string amd_repository_kind(std::string_view url);
std::string amd_repository_release(std::string_view url);

// The AMD sections of one .repo file, as facts (file, line, id, name,
// manager, baseurl, enabled, kind, release). manager: "dnf" or "zypper",
// whose defaults for a missing enabled= differ.
Json amd_repos_in_repo_file(const std::string& file, std::string_view text, const std::string& manager);

// Sets "rpm_repos" in `section`.
void probe_rocm_rpm_repos(ProbeContext& ctx, Json& section);

}  // namespace rocmdoc
