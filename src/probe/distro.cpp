#include "rocmdoc/probe.h"

namespace rocmdoc {

Json probe_distro(ProbeContext&, const Json&) { return unknown("the distro probe is not written yet"); }

}  // namespace rocmdoc
