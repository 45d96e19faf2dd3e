// The repositories pacman syncs from besides Arch's own: the sections of
// /etc/pacman.conf and the files it includes, other than [options] and
// Arch's official repositories. AMD publishes no pacman repository, so an
// AMD or ROCm repository here is a third party's (or a hand-made one).
#pragma once

#include <string_view>

#include "probe/probe.h"

namespace rocmdoc {

// Arch Linux's own repositories: core, extra and multilib, their -testing
// and -staging, gnome-unstable and kde-unstable, and the names before the
// 2023 merge (community, testing, staging, community-testing, community-staging).
bool is_official_arch_repo(std::string_view name);

// Sets "pacman_repos" in `section`.
void probe_rocm_pacman_repos(ProbeContext& ctx, Json& section);

}  // namespace rocmdoc
