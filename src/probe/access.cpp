#include "rocmdoc/probe.h"

namespace rocmdoc {

Json probe_access(ProbeContext&, const Json&) { return unknown("the access probe is not written yet"); }

}  // namespace rocmdoc
