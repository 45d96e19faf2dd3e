#include "rocmdoc/probe.h"

namespace rocmdoc {

Json probe_platform(ProbeContext&, const Json&) { return unknown("the platform probe is not written yet"); }

}  // namespace rocmdoc
