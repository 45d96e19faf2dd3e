#include "rocmdoc/probe.h"

namespace rocmdoc {

Json probe_host(ProbeContext&, const Json&) { return unknown("the host probe is not written yet"); }

}  // namespace rocmdoc
