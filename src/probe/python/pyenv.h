// Which Python a pyenv shim runs, decided as pyenv decides it but without
// running pyenv: PYENV_VERSION, else <root>/version, else "system". pyenv
// would look at a .python-version in the working directory and its
// parents before <root>/version; rocmdoc cannot know the directory a user
// works in, so the answer is for outside any such project.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "probe/probe.h"

namespace rocmdoc {

// The version names of a pyenv version file, as pyenv-version-file-read
// reads them: the first word of each line; empty lines, comments and names
// that would leave versions/ ("..", anything with a '/') skipped.
std::vector<std::string> parse_pyenv_version_file(std::string_view text);

struct PyenvChoice {
  Json runs;    // the interpreter's path, or unknown with the reason
  Json set_by;  // "PYENV_VERSION", "<root>/version", "default"; unknown when PYENV_VERSION was not recorded
};

// root: the pyenv root the shim belongs to (<root>/shims/<command>).
// system_command: what "system" runs: the first <command> on PATH outside
// the shims, null when there is none, or unknown.
PyenvChoice pyenv_shim_choice(ProbeContext& ctx, const std::string& root, const std::string& command,
                              const Json& system_command);

}  // namespace rocmdoc
