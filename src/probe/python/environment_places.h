// The prefixes the session's environment names: VIRTUAL_ENV (an activated
// venv) and CONDA_PREFIX (the active conda environment). They are this
// process's variables: under sudo, whatever sudo kept of the user's
// (usually neither), which is why the home places are searched as well.
#pragma once

#include "probe/python/places.h"
#include "probe/probe.h"

namespace rocmdoc {

PlaceSearch environment_places(ProbeContext& ctx);

}  // namespace rocmdoc
