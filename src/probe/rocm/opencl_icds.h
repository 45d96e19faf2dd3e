// The OpenCL runtimes registered with the ICD loader: the .icd files in
// /etc/OpenCL/vendors (and openSUSE's /usr/share/OpenCL/vendors), each
// naming the library the loader opens.
#pragma once

#include "probe/probe.h"

namespace rocmdoc {

// Sets "opencl_icds" in `section`.
void probe_opencl_icds(ProbeContext& ctx, Json& section);

}  // namespace rocmdoc
