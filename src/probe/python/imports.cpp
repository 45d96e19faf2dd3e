#include "probe/python/imports.h"

#include "probe/python/site_packages.h"

namespace rocmdoc {

namespace {

void add_prefix_sites(std::vector<std::string>& out, const std::string& prefix, const std::string& version) {
  for (const char* lib : {"/lib/python", "/lib64/python"}) out.push_back(prefix + lib + version + "/site-packages");
}

// The interpreter's own site-packages (not the user's); false when it
// cannot tell (an unknown version).
bool add_own_sites(ProbeContext& ctx, std::vector<std::string>& out, const PythonInterpreter& py, int depth) {
  if (!py.version.is_string()) return false;
  const std::string v = py.version.get<std::string>();
  if (py.kind == "system") {
    auto sys = system_site_packages(v);
    out.insert(out.end(), sys.begin(), sys.end());
    return true;
  }
  for (auto& prefix : py.prefixes) add_prefix_sites(out, prefix, v);
  // A venv with include-system-site-packages = true sees its base's too;
  // the base is what its bin/python3 resolves to (never a venv itself, but
  // the depth keeps a strange tree from looping).
  if (py.kind == "venv" && py.includes_system_site && py.resolved.is_string() && depth == 0)
    add_own_sites(ctx, out, inspect_interpreter(ctx, py.resolved.get<std::string>(), ""), depth + 1);
  return true;
}

}  // namespace

std::vector<std::string> imported_site_packages(ProbeContext& ctx, const PythonInterpreter& py, const Json& home) {
  PythonInterpreter ran;
  const PythonInterpreter* target = &py;
  if (py.pyenv_shim) {
    if (!py.runs.is_string()) return {};
    ran = inspect_interpreter(ctx, py.runs.get<std::string>(), "");
    if (ran.pyenv_shim) return {};
    target = &ran;
  }
  std::vector<std::string> out;
  if (!add_own_sites(ctx, out, *target, 0)) return {};
  // A venv without the system site-packages does not import ~/.local either.
  bool user_site = target->kind != "venv" || target->includes_system_site;
  if (user_site && home.is_string())
    out.push_back(home.get<std::string>() + "/.local/lib/python" + target->version.get<std::string>() + "/site-packages");
  return out;
}

}  // namespace rocmdoc
