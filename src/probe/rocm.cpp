#include "rocmdoc/probe.h"

namespace rocmdoc {

Json probe_rocm(ProbeContext&, const Json&) { return unknown("the rocm probe is not written yet"); }

}  // namespace rocmdoc
