#include "probe/python/interpreters.h"

#include <algorithm>
#include <map>
#include <set>

#include "probe/python/environment_places.h"
#include "probe/python/home_places.h"
#include "probe/python/install_venv.h"
#include "probe/python/pyenv.h"
#include "probe/python/torch.h"
#include "probe/python/user_home.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

constexpr const char* kCommonLocations[] = {"/usr/bin", "/usr/local/bin"};
// A pyenv shim is a few hundred bytes of shell; an interpreter is MBs.
constexpr uint64_t kScriptSizeLimit = 64 * 1024;

bool is_interpreter_name(const std::string& name) {
  return name == "python3" || !python_version_of_name(name).empty();
}

// "3.12.3" or "3.12.3.final.0" -> "3.12"; "" unless it is a Python 3.
std::string major_minor(const std::string& full) {
  auto parts = split(full, '.');
  if (parts.size() < 2 || parts[0] != "3" || !parse_uint(parts[1])) return "";
  return "3." + parts[1];
}

// pyenv's shims are shell scripts that hand over to `pyenv exec`.
bool is_pyenv_shim(ProbeContext& ctx, const std::string& path) {
  FileStat st = ctx.fs().stat_follow(path);
  if (st.type != FileType::regular || st.size > kScriptSizeLimit) return false;
  auto text = ctx.fs().read_file(path, kScriptSizeLimit);
  return text && starts_with(*text, "#!") && text->find("pyenv") != std::string::npos;
}

// The python3.N directories under <prefix>/lib: "3.N" when exactly one.
Json version_from_lib(ProbeContext& ctx, const std::string& prefix) {
  auto names = ctx.fs().list_dir_starting_with(prefix + "/lib", "python3.");
  if (!names) return unknown(names.error());
  std::vector<std::string> versions;
  for (auto& n : *names)
    if (auto v = python_version_of_name(n); !v.empty()) versions.push_back(v);
  if (versions.size() == 1) return versions.front();
  if (versions.empty()) return unknown(prefix + "/lib: no python3.N directory");
  return unknown(prefix + "/lib: several python3.N directories, so the version cannot be told");
}

// The pyenv versions a shim may run: <pyenv root>/versions/*.
std::vector<std::string> pyenv_prefixes(ProbeContext& ctx, const std::string& shim) {
  std::string versions = path_dirname(path_dirname(shim)) + "/versions";
  std::vector<std::string> out;
  if (auto names = ctx.fs().list_dir(versions))
    for (auto& n : *names) out.push_back(versions + "/" + n);
  return out;
}

// pyvenv.cfg's "key = value" lines, keys lower-cased.
std::map<std::string, std::string> pyvenv_keys(std::string_view text) {
  std::map<std::string, std::string> keys;
  for (auto& line : split_lines(text)) {
    auto eq = line.find('=');
    if (eq != std::string::npos) keys[to_lower(trim(std::string_view(line).substr(0, eq)))] = trim(line.substr(eq + 1));
  }
  return keys;
}

Json version_from_file_name(const std::string& file) {
  std::string v = python_version_of_name(path_basename(file));
  if (v.empty()) return unknown(file + ": the file name does not carry the version");
  return v;
}

// A venv's bin/python3 links to its base interpreter: the pyvenv.cfg
// beside bin/ decides before the link target does.
bool classify_venv(ProbeContext& ctx, PythonInterpreter& py, const Json& from_name) {
  std::string prefix = path_dirname(path_dirname(py.path));
  std::string cfg_path = prefix + "/pyvenv.cfg";
  if (ctx.fs().stat_follow(cfg_path).type != FileType::regular) return false;
  py.kind = "venv";
  py.prefixes = {prefix};
  auto cfg = ctx.fs().read_file(cfg_path, kScriptSizeLimit);
  py.version = cfg ? python_version_from_pyvenv_cfg(cfg_path, *cfg) : unknown(cfg.error());
  if (is_unknown(py.version) && from_name.is_string()) py.version = from_name;
  if (cfg && !looks_binary(*cfg)) py.includes_system_site = to_lower(pyvenv_keys(*cfg)["include-system-site-packages"]) == "true";
  return true;
}

bool classify_pyenv_shim(ProbeContext& ctx, PythonInterpreter& py) {
  if (!is_pyenv_shim(ctx, py.path)) return false;
  py.kind = "pyenv";
  py.pyenv_shim = true;
  py.prefixes = pyenv_prefixes(ctx, py.path);
  py.version = unknown(py.path +
                       " is a pyenv shim (a shell script): the Python it runs depends on pyenv's version "
                       "setting, and rocmdoc does not run it");
  return true;
}

void classify(ProbeContext& ctx, PythonInterpreter& py) {
  std::string resolved = py.resolved.get<std::string>();
  Json from_name = version_from_file_name(resolved);
  if (classify_venv(ctx, py, from_name) || classify_pyenv_shim(ctx, py)) return;
  std::string prefix = path_dirname(path_dirname(py.path));
  std::string real_prefix = path_dirname(path_dirname(resolved));
  if (ctx.fs().stat_follow(prefix + "/conda-meta").type == FileType::directory) {
    py.kind = "conda";
    real_prefix = prefix;
  } else if (resolved.find("/.pyenv/versions/") != std::string::npos) {
    py.kind = "pyenv";
  } else if (path_dirname(resolved) == "/usr/bin" || path_dirname(resolved) == "/bin") {
    py.kind = "system";
  } else {
    py.kind = "other";
  }
  // The system prefix's site-packages are searched as well-known places.
  if (py.kind != "system") py.prefixes = {real_prefix};
  if (from_name.is_string()) {
    py.version = from_name;
    return;
  }
  Json from_lib = version_from_lib(ctx, real_prefix);
  py.version = from_lib.is_string() ? from_lib : unknown(unknown_reason(from_name) + "; " + unknown_reason(from_lib));
}

}  // namespace

PythonInterpreter inspect_interpreter(ProbeContext& ctx, const std::string& path, const std::string& found_by) {
  PythonInterpreter py;
  py.path = path;
  py.found_by = found_by;
  auto resolved = ctx.fs().resolve(path);
  py.resolved = resolved ? Json(*resolved) : unknown(resolved.error());
  if (!resolved) {
    py.kind = "other";
    py.version = unknown(resolved.error());
    return py;
  }
  classify(ctx, py);
  return py;
}

namespace {

class Search {
 public:
  explicit Search(ProbeContext& ctx) : ctx_(ctx) {}

  // The python3 and python3.N entries of a directory; "" when it has no
  // python3 entry. A missing directory is normal (PATH often names some).
  std::string scan_directory(const std::string& dir, const std::string& found_by) {
    // PATH names /bin and /usr/bin, which merged-/usr systems link: each
    // directory is scanned once, under the first name it was reached by.
    const std::string key = real_dir(dir);
    if (!scanned_.insert(key).second) return first_python3_[key];
    auto names = ctx_.fs().list_dir_starting_with(dir, "python3");
    if (!names) {
      FileStat st = ctx_.fs().stat(dir);
      if (!(st.absent())) result_.not_searched.push_back(names.error());
      return "";
    }
    result_.any_directory_exists = true;
    std::string python3;
    for (auto& name : *names) {
      if (!is_interpreter_name(name)) continue;
      std::string path = path_join(dir, name);
      if (name == "python3") python3 = path;
      holds_interpreter_.insert(key);
      add(path, found_by);
    }
    first_python3_[key] = python3;
    return python3;
  }

  // Each place's bin/, scanned like PATH's directories (each once).
  void add_places(const PlaceSearch& places) {
    for (auto& s : places.not_searched) result_.not_searched.push_back(s);
    for (auto& place : places.prefixes) {
      std::string bin = place.prefix + "/bin";
      scan_directory(bin, place.found_by);
      if (!place.named_by.empty() && !holds_interpreter_.count(real_dir(bin)))
        result_.not_searched.push_back(place.named_by + " holds no bin/python3");
    }
  }

  // The versions of every pyenv root a shim on PATH belongs to (~/.pyenv
  // is a home place already; PYENV_ROOT may put one elsewhere).
  void add_pyenv_roots() {
    std::set<std::string> roots;
    for (auto& py : result_.interpreters)
      if (py.pyenv_shim) roots.insert(path_dirname(path_dirname(py.path)));
    for (auto& root : roots) add_places(pyenv_version_places(ctx_, root));
  }

  // What each shim runs, now that PATH is known (pyenv's "system" is the
  // first command on PATH outside the shims).
  void resolve_pyenv_shims() {
    for (auto& py : result_.interpreters) {
      if (!py.pyenv_shim) continue;
      std::string command = path_basename(py.path);
      PyenvChoice choice = pyenv_shim_choice(ctx_, path_dirname(path_dirname(py.path)), command,
                                             system_command(path_dirname(py.path), command));
      py.runs = choice.runs;
      py.runs_set_by = choice.set_by;
      if (py.runs.is_string()) py.version = inspect_interpreter(ctx_, py.runs.get<std::string>(), "").version;
      else py.version = unknown(py.path + " is a pyenv shim (rocmdoc does not run it): " + unknown_reason(py.runs));
    }
  }

  // --python names an interpreter, or a venv (or any prefix) directory.
  void add_option(const std::string& given) {
    if (given.empty() || given.front() != '/') {
      result_.not_searched.push_back("--python " + given + ": not an absolute path");
      return;
    }
    std::string path = path_normalize(given);
    if (ctx_.fs().stat_follow(path).type == FileType::directory) {
      result_.any_directory_exists = true;
      std::string found = scan_directory(path + "/bin", "--python");
      if (found.empty()) result_.not_searched.push_back("--python " + given + ": no bin/python3 in that directory");
      return;
    }
    add(path, "--python");
  }

  void add(const std::string& path, const std::string& found_by) {
    if (!seen_.insert(path).second) return;
    result_.interpreters.push_back(inspect_interpreter(ctx_, path, found_by));
  }

  void search_path() {
    Json path = ctx_.machine().env("PATH");
    if (is_unknown(path)) {
      result_.python3_on_path = unknown(unknown_reason(path));
      result_.not_searched.push_back("PATH: " + unknown_reason(path));
      return;
    }
    result_.python3_on_path = nullptr;
    if (path.is_null()) return;
    std::set<std::string> dirs;
    path_known_ = true;
    bool any_exists = false;
    for (auto& dir : split(path.get<std::string>(), ':')) {
      // An empty or relative entry names the current directory, which
      // rocmdoc cannot know for the session that would run python3.
      if (dir.empty() || dir.front() != '/' || !dirs.insert(path_normalize(dir)).second) continue;
      any_exists |= ctx_.fs().stat_follow(path_normalize(dir)).type == FileType::directory;
      path_dirs_.push_back(path_normalize(dir));
      std::string python3 = scan_directory(path_normalize(dir), "PATH");
      if (!python3.empty() && result_.python3_on_path.is_null()) result_.python3_on_path = python3;
    }
    // A recording that kept none of PATH's directories cannot say that
    // python3 is absent.
    if (!any_exists && !dirs.empty() && !ctx_.machine().live)
      result_.python3_on_path = unknown("this recording holds none of PATH's directories (" +
                                        path.get<std::string>() + ")");
  }

  InterpreterSearch finish() {
    resolve_pyenv_shims();
    std::sort(result_.interpreters.begin(), result_.interpreters.end(),
              [](auto& a, auto& b) { return a.path < b.path; });
    return std::move(result_);
  }

 private:
  // PATH names /bin and /usr/bin, which merged-/usr systems link, and a
  // place may be a link to another: directories are known by what they resolve to.
  std::string real_dir(const std::string& dir) {
    auto real = ctx_.fs().resolve(dir);
    return real ? *real : dir;
  }

  Json system_command(const std::string& shims, const std::string& command) {
    if (!path_known_ || is_unknown(result_.python3_on_path))
      return unknown("PATH, where pyenv's \"system\" looks, is not known here");
    const std::string skip = real_dir(shims);
    for (auto& dir : path_dirs_) {
      if (real_dir(dir) == skip) continue;
      if (ctx_.fs().stat_follow(dir + "/" + command).type == FileType::regular) return dir + "/" + command;
    }
    return nullptr;
  }

  ProbeContext& ctx_;
  InterpreterSearch result_;
  std::set<std::string> seen_;
  std::set<std::string> scanned_;
  std::set<std::string> holds_interpreter_;           // scanned directories with an interpreter
  std::map<std::string, std::string> first_python3_;  // by scanned directory
  std::vector<std::string> path_dirs_;                // PATH's absolute entries, in order
  bool path_known_ = false;
};

}  // namespace

Json PythonInterpreter::to_json() const {
  Json j = Json::object();
  j["path"] = path;
  j["resolved"] = resolved;
  j["version"] = version;
  j["kind"] = kind;
  j["found_by"] = found_by;
  j["runs"] = runs;
  j["runs_set_by"] = runs_set_by;
  return j;
}

Json python_version_from_pyvenv_cfg(const std::string& path, std::string_view text) {
  if (looks_binary(text)) return unknown(path + ": binary content, not a pyvenv.cfg");
  auto keys = pyvenv_keys(text);
  // uv and virtualenv write version_info; venv writes version.
  for (const char* key : {"version_info", "version"})
    if (auto v = major_minor(keys[key]); !v.empty()) return v;
  return unknown(path + ": no version or version_info naming a Python 3");
}

InterpreterSearch find_python_interpreters(ProbeContext& ctx) {
  Search search(ctx);
  Json home = find_user_home(ctx);
  // The order decides found_by when one prefix is reached several ways: an
  // activated venv is on PATH too, and VIRTUAL_ENV says more.
  for (auto& given : ctx.options().python_paths) search.add_option(given);
  search.add_places(environment_places(ctx));
  search.search_path();
  search.add_places(install_venv_places(ctx, home));
  search.add_places(home_places(ctx, home));
  search.add_pyenv_roots();
  for (const char* dir : kCommonLocations) search.scan_directory(dir, "common location");
  InterpreterSearch found = search.finish();
  found.home = home;
  return found;
}

}  // namespace rocmdoc
