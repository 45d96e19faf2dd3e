#include "rocmdoc/probe.h"

namespace rocmdoc {

Json probe_kfd(ProbeContext&, const Json&) { return unknown("the kfd probe is not written yet"); }

}  // namespace rocmdoc
