// The device nodes ROCm opens (/dev/kfd, /dev/dri/renderD*), with owner,
// group, mode, and whether the target user can open them read-write.
#pragma once

#include "probe/access/target.h"
#include "probe/probe.h"

namespace rocmdoc {

// The `nodes` list of the access section, sorted by path, or unknown.
Json access_nodes_fact(ProbeContext& ctx, const TargetUser& target, const Accounts& accounts);

}  // namespace rocmdoc
