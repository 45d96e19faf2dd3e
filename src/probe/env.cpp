#include "rocmdoc/probe.h"

namespace rocmdoc {

Json probe_env(ProbeContext&, const Json&) { return unknown("the env probe is not written yet"); }

}  // namespace rocmdoc
