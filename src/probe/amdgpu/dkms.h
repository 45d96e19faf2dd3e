// AMD's packaged driver (amdgpu-dkms): which versions DKMS holds, whether
// one was built for the running kernel, and whether that kernel's headers
// (which a build needs) are installed.
#pragma once

#include "probe/probe.h"

namespace rocmdoc {

// release: the running kernel's release string, or unknown.
// {"installed": [versions], "built_for_running_kernel": bool,
//  "headers_for_running_kernel": bool}
Json amdgpu_dkms_fact(ProbeContext& ctx, const Json& release);

}  // namespace rocmdoc
