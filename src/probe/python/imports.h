// Which site-packages an interpreter imports: what CPython's site module
// puts on sys.path, worked out from the prefix, the version and pyvenv.cfg
// instead of by running it. A torch install is reported with the
// interpreters that would import it.
#pragma once

#include <string>
#include <vector>

#include "probe/python/interpreters.h"
#include "probe/probe.h"

namespace rocmdoc {

// The directories as paths (not resolved; some need not exist). Empty when
// the interpreter's version is unknown, or a pyenv shim's choice is.
// home: the target user's home for ~/.local (not a venv's, unless it
// includes the system site-packages), or unknown.
std::vector<std::string> imported_site_packages(ProbeContext& ctx, const PythonInterpreter& py, const Json& home);

}  // namespace rocmdoc
