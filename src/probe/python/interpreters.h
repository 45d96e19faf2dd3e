// Python interpreters on the machine, found without running any: the
// python3 and python3.N entries of PATH's directories and the usual places,
// the bin/ of the prefixes the environment, rocmdoc install's journal and
// the user's home name (places.h), and what --python names. Their version
// comes from the file name a link resolves to, a venv's pyvenv.cfg, or the
// prefix's lib/python3.N.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "probe/probe.h"

namespace rocmdoc {

struct PythonInterpreter {
  std::string path;    // as found: "/usr/bin/python3", "/home/u/venv/bin/python3"
  Json resolved;       // the file it runs, or unknown (a dangling link)
  Json version;        // "3.12", or unknown with the reason
  std::string kind;    // system, venv, conda, pyenv, other
  // --python, VIRTUAL_ENV, CONDA_PREFIX, PATH, rocmdoc install, home venv,
  // conda env, pyenv version, common location: the first way that reached it.
  std::string found_by;
  // Installation prefixes whose lib/python3.N/site-packages this
  // interpreter uses (a venv's own directory, a conda prefix; for a pyenv
  // shim, every pyenv version it may run).
  std::vector<std::string> prefixes;
  // A venv whose pyvenv.cfg says include-system-site-packages = true also
  // imports its base interpreter's site-packages.
  bool includes_system_site = false;
  bool pyenv_shim = false;
  Json runs = nullptr;         // a pyenv shim: the interpreter it runs (pyenv.h), or unknown
  Json runs_set_by = nullptr;  // a pyenv shim: PYENV_VERSION, <root>/version or default

  Json to_json() const;
};

struct InterpreterSearch {
  std::vector<PythonInterpreter> interpreters;  // sorted by path
  Json python3_on_path;  // the python3 that PATH finds first; null when none; unknown when PATH is
  std::vector<std::string> not_searched;  // sentences: what could not be searched, and why
  bool any_directory_exists = false;      // some searched directory exists on the machine
  Json home;  // the target user's home (user_home.h), or unknown
};

InterpreterSearch find_python_interpreters(ProbeContext& ctx);

// One interpreter at path, classified and versioned from files.
PythonInterpreter inspect_interpreter(ProbeContext& ctx, const std::string& path, const std::string& found_by);

// The "version = 3.12.3" (or "version_info = 3.12.3.final.0") of a venv's
// pyvenv.cfg as "3.12"; unknown with the reason.
Json python_version_from_pyvenv_cfg(const std::string& path, std::string_view text);

}  // namespace rocmdoc
