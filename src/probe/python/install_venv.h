// The venv `rocmdoc install` made for PyTorch, found from its journal.
#pragma once

#include "probe/python/places.h"
#include "probe/probe.h"

namespace rocmdoc {

// The journal `rocmdoc install` keeps; see docs/install.md.
constexpr const char* kInstallJournal = "/var/lib/rocmdoc/install.json";

// home: the target user's home (find_user_home), or unknown.
PlaceSearch install_venv_places(ProbeContext& ctx, const Json& home);

}  // namespace rocmdoc
