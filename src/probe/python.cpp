#include "rocmdoc/probe.h"

namespace rocmdoc {

Json probe_python(ProbeContext&, const Json&) { return unknown("the python probe is not written yet"); }

}  // namespace rocmdoc
