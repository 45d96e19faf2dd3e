#include "rocmdoc/probe.h"

namespace rocmdoc {

Json probe_amdgpu(ProbeContext&, const Json&) { return unknown("the amdgpu probe is not written yet"); }

}  // namespace rocmdoc
