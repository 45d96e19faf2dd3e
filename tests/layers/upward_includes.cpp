// Read by the "layer check" test as a probe-stage source; never compiled.
// [0, n) an unbalanced bracket; and a ; to split a CMake list
#include "cli/commands.h"
#include <output/text_report.h>
#include"install/run/run.h"
#include "../fix/fix.h"
#include "probe/probe.h"
#include "base/text.h"
