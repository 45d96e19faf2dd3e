// ROCm installs under /opt: every /opt/rocm-X.Y.Z and the /opt/rocm link
// (or directory) that tools use by default.
#pragma once

#include <string_view>

#include "probe/probe.h"

namespace rocmdoc {

// Sets "installs" and "default" in `section`.
void probe_rocm_installs(ProbeContext& ctx, Json& section);

// The contents of a .info/version file ("6.4.1", "5.7.0-63") as a
// version string, or unknown with the reason.
Json parse_rocm_info_version(const std::string& path, std::string_view text);

}  // namespace rocmdoc
