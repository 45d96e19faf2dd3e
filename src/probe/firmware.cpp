#include "rocmdoc/probe.h"

namespace rocmdoc {

Json probe_firmware(ProbeContext&, const Json&) { return unknown("the firmware probe is not written yet"); }

}  // namespace rocmdoc
