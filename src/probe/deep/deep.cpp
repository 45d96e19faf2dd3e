#include "probe/deep/deep.h"

#include <map>
#include <set>

#include "base/json_input.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

// More interpreters than this are listed in not_run: each may take the
// whole timeout, and a home full of venvs sharing one torch says nothing
// the first few do not.
constexpr size_t kMaxInterpreters = 8;
constexpr size_t kMaxErrorText = 4000;

// Where util-linux installs runuser (usr-merged or not).
const char* const kRunuserPaths[] = {"/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser", "/bin/runuser"};

std::string str(const Json& j) { return j.is_string() ? j.get<std::string>() : ""; }

// The last line of `text` that starts with the marker, parsed; null when
// there is none or it is not a JSON object (Python died before printing it).
Json result_line(const std::string& text) {
  Json found;
  for (auto& line : split_lines(text)) {
    if (!starts_with(line, kDeepResultMarker)) continue;
    // The script's line is a few levels deep; what printed it is the user's
    // Python, so it is parsed with the bounds of any outside JSON.
    auto j = parse_json_bounded(line.substr(std::string(kDeepResultMarker).size()), 64);
    if (j && j->is_object()) found = std::move(j.value());
  }
  return found;
}

// A string the script reported, or null; never longer than the script cuts.
Json text_or_null(const Json& j) {
  if (!j.is_string()) return nullptr;
  std::string s = j.get<std::string>();
  if (s.size() > kMaxErrorText) s.resize(kMaxErrorText);
  return s;
}

// The last non-empty lines of a stream, for a one-line reason.
std::string last_lines(const std::string& text, size_t count = 3) {
  std::vector<std::string> kept;
  for (auto& line : split_lines(text))
    if (!trim(line).empty()) kept.push_back(trim(line));
  if (kept.size() > count) kept.erase(kept.begin(), kept.end() - static_cast<std::ptrdiff_t>(count));
  std::string out;
  for (auto& l : kept) out += (out.empty() ? "" : "\n") + l;
  return out;
}

// Why a command gave no result: it did not start, timed out, or ended
// without the line the script prints.
// (The runner's own timeout message names argv[0], which under sudo is
// runuser: the workload's is said here.)
std::string process_failure(const ProcessResult& r, std::chrono::milliseconds timeout) {
  if (!r.started) return r.error.empty() ? "did not start" : r.error;
  if (r.timed_out) return "timed out after " + std::to_string(timeout.count()) + " ms, and was killed";
  std::string why = "exited with " + std::to_string(r.exit_code);
  if (!r.error.empty()) why += " (" + r.error + ")";
  std::string tail = last_lines(r.err);
  if (tail.empty()) tail = last_lines(r.out);
  if (!tail.empty()) why += ": " + tail;
  return why;
}

void add_process(Json& entry, const ProcessResult& r) {
  entry["exit_code"] = r.started && !r.timed_out ? Json(r.exit_code) : Json(nullptr);
  entry["timed_out"] = r.timed_out;
}

Json torch_entry(const std::string& interpreter, const ProcessResult& r, std::chrono::milliseconds timeout) {
  Json e = Json::object();
  e["interpreter"] = interpreter;
  add_process(e, r);
  Json result = r.started && !r.timed_out ? result_line(r.out) : Json();
  if (!result.is_object()) {
    // No answer from the script: what it would have said is unknown, and
    // the workload failed (a crash in `import torch` is a failure too).
    std::string why = process_failure(r, timeout);
    e["ok"] = false;
    for (const char* k : {"imported", "version", "hip", "is_available", "device_count", "devices"})
      e[k] = unknown("the script gave no result: " + why);
    e["error"] = why;
    e["stderr"] = bounded_output(r.err);
    return e;
  }
  bool imported = result.value("imported", false) == true;
  e["imported"] = imported;
  e["version"] = imported ? text_or_null(field(result, "version")) : Json(nullptr);
  e["hip"] = imported ? text_or_null(field(result, "hip")) : Json(nullptr);
  const Json& available = field(result, "is_available");
  e["is_available"] = available.is_boolean() ? available : Json(nullptr);
  const Json& count = field(result, "device_count");
  e["device_count"] = count.is_number_integer() ? count : Json(nullptr);
  Json devices = Json::array();
  bool every_op_ok = true;
  if (field(result, "devices").is_array()) {
    for (auto& d : result["devices"]) {
      if (!d.is_object()) continue;
      Json dev = Json::object();
      dev["index"] = field(d, "index").is_number_integer() ? d["index"] : Json(nullptr);
      dev["name"] = text_or_null(field(d, "name"));
      dev["arch"] = text_or_null(field(d, "arch"));
      dev["op_ok"] = field(d, "op_ok") == true;
      dev["error"] = text_or_null(field(d, "error"));
      if (dev["op_ok"] != true) every_op_ok = false;
      devices.push_back(std::move(dev));
    }
  }
  e["devices"] = devices;
  Json error = text_or_null(field(result, "error"));
  e["ok"] = imported && available == true && !devices.empty() && every_op_ok && error.is_null() && r.exit_code == 0;
  e["error"] = error;
  e["stderr"] = bounded_output(r.err);
  return e;
}

Json tool_entry(const std::string& name, const std::vector<std::string>& argv, const ProcessResult& r,
                std::chrono::milliseconds timeout) {
  Json e = Json::object();
  e["name"] = name;
  e["argv"] = argv;
  add_process(e, r);
  e["ok"] = r.succeeded();
  e["error"] = r.succeeded() ? Json(nullptr) : Json(process_failure(r, timeout));
  e["stdout"] = bounded_output(r.out);
  e["stderr"] = bounded_output(r.err);
  return e;
}

// The interpreters that import some torch, in the python section's order;
// names in one directory for one real file run once (a venv's python and
// python3). Two venvs share their base's real file but not their
// site-packages, so the directory is part of what makes one interpreter.
struct Interpreters {
  std::vector<std::string> run;
  std::vector<std::string> not_run;
};

Interpreters torch_interpreters(const Json& python) {
  std::map<std::string, std::string> resolved;
  if (field(python, "interpreters").is_array())
    for (auto& py : python["interpreters"]) {
      std::string path = str(field(py, "path"));
      std::string real = str(field(py, "resolved"));
      if (!path.empty()) resolved[path] = real.empty() ? path : real;
    }
  Interpreters out;
  std::set<std::string> seen;
  for (auto& install : python["torch"]) {
    const Json& importers = field(install, "interpreters");
    if (!importers.is_array() || importers.empty()) {
      out.not_run.push_back(str(field(install, "site_packages")) + ": no interpreter found imports this torch");
      continue;
    }
    for (auto& path_json : importers) {
      std::string path = str(path_json);
      if (path.empty()) continue;
      auto it = resolved.find(path);
      std::string real = it == resolved.end() ? path : it->second;
      if (!seen.insert(path_dirname(path) + "\n" + real).second) continue;
      if (out.run.size() < kMaxInterpreters) out.run.push_back(path);
      else out.not_run.push_back(path + ": more than " + std::to_string(kMaxInterpreters) + " interpreters import torch");
    }
  }
  return out;
}

// The first installed copy of a ROCm tool: under the default install, then
// each install, then on PATH.
std::string find_tool(ProbeContext& ctx, const Json& rocm, const std::string& name) {
  std::vector<std::string> dirs;
  const Json& dflt = field(rocm, "default");
  if (dflt.is_string()) dirs.push_back(str(dflt) + "/bin");
  else if (field(dflt, "path").is_string()) dirs.push_back(str(dflt["path"]) + "/bin");
  if (field(rocm, "installs").is_array())
    for (auto& i : rocm["installs"])
      if (field(i, "path").is_string()) dirs.push_back(str(i["path"]) + "/bin");
  Json path = ctx.machine().env("PATH");
  if (path.is_string())
    for (auto& d : split(path.get<std::string>(), ':'))
      if (!d.empty() && d[0] == '/') dirs.push_back(d);
  for (auto& d : dirs) {
    std::string candidate = path_join(d, name);
    if (ctx.fs().stat_follow(candidate).type == FileType::regular) return candidate;
  }
  return "";
}

}  // namespace

const std::string& deep_torch_script() {
  // Fixed text, the same for every interpreter: nothing from the machine
  // is pasted into code. sys.path loses '' because -c puts rocmdoc's
  // working directory first, which is not where the user runs their work
  // (a torch/ source tree there would be imported instead). Every step
  // catches its own error, so one failing device still reports the rest.
  static const std::string script =
      "import json, sys\n"
      "sys.path = [p for p in sys.path if p not in ('', '.')]\n"
      "def err(e):\n"
      "    return (type(e).__name__ + ': ' + str(e))[:4000]\n"
      "r = {'imported': False}\n"
      "try:\n"
      "    import torch\n"
      "    r['imported'] = True\n"
      "    r['version'] = str(getattr(torch, '__version__', ''))\n"
      "    r['hip'] = getattr(getattr(torch, 'version', None), 'hip', None)\n"
      "    r['is_available'] = bool(torch.cuda.is_available())\n"
      "    n = int(torch.cuda.device_count())\n"
      "    r['device_count'] = n\n"
      "    r['devices'] = []\n"
      "    for i in range(n):\n"
      "        d = {'index': i}\n"
      "        r['devices'].append(d)\n"
      "        try:\n"
      "            p = torch.cuda.get_device_properties(i)\n"
      "            d['name'] = str(p.name)\n"
      "            d['arch'] = getattr(p, 'gcnArchName', None)\n"
      "            v = (torch.ones(4, device='cuda:%d' % i) * 2).sum().item()\n"
      "            d['op_ok'] = v == 8.0\n"
      "            if v != 8.0:\n"
      "                d['error'] = 'torch.ones(4) * 2 summed to %r, not 8' % (v,)\n"
      "        except BaseException as e:\n"
      "            d['op_ok'] = False\n"
      "            d['error'] = err(e)\n"
      "except BaseException as e:\n"
      "    r['error'] = err(e)\n"
      "sys.stdout.write('\\n" +
      std::string(kDeepResultMarker) +
      "' + json.dumps(r) + '\\n')\n"
      "sys.stdout.flush()\n";
  return script;
}

std::vector<std::string> deep_torch_argv(const std::vector<std::string>& run_as, const std::string& interpreter) {
  std::vector<std::string> argv = run_as;
  argv.insert(argv.end(), {interpreter, "-c", deep_torch_script()});
  return argv;
}

std::vector<std::string> deep_tool_argv(const std::vector<std::string>& run_as, const std::vector<std::string>& tool) {
  std::vector<std::string> argv = run_as;
  argv.insert(argv.end(), tool.begin(), tool.end());
  return argv;
}

DeepRunAs deep_run_as(ProbeContext& ctx, const Json& user) {
  DeepRunAs as;
  const Json& target = field(user, "target");
  const Json& name = field(user, "name");
  const Json& uid = field(user, "uid");
  if (!target.is_string() || target.get<std::string>().empty()) {
    as.refused = "who will run ROCm is unknown (access.user.target" +
                 (is_unknown(target) ? ": " + unknown_reason(target) : std::string(" is not known")) + ")";
    return as;
  }
  as.user = target.get<std::string>();
  if (name == target) return as;  // rocmdoc already runs as them
  if (uid != 0) {
    as.refused = "rocmdoc runs as " + (name.is_string() ? name.get<std::string>() : std::string("another user")) +
                 ", not root, and cannot run the workloads as " + as.user + "; run rocmdoc check --deep as " + as.user;
    return as;
  }
  // Root runs them for the sudo user: the point is to see what *they* get
  // (their groups decide /dev/kfd, their home holds ~/.local and the venvs),
  // so never root in their place. runuser (util-linux, in every Debian and
  // Ubuntu base system) does setgid, initgroups and setuid, and sets HOME,
  // USER, LOGNAME and SHELL from passwd, all through an argv. The process
  // layer spawns with posix_spawn, which cannot drop privileges between
  // fork and exec; a fork of our own would have to call initgroups (NSS,
  // malloc) in the child, which is not safe there. setpriv would change the
  // ids without HOME, so ~/.local would be root's; runuser also applies the
  // user's pam_limits (memlock), as their login does.
  for (const char* p : kRunuserPaths)
    if (ctx.fs().stat_follow(p).type == FileType::regular) {
      as.prefix = {p, "-u", as.user, "--"};
      as.switched_by = "runuser";
      return as;
    }
  as.refused = "runuser (util-linux) is not installed, and rocmdoc does not run the workloads as root in " + as.user +
               "'s place";
  return as;
}

std::string bounded_output(const std::string& text, size_t limit) {
  if (text.size() <= limit) return text;
  size_t half = limit / 2;
  return text.substr(0, half) + "\n[... " + std::to_string(text.size() - 2 * half) + " bytes cut ...]\n" +
         text.substr(text.size() - half);
}

Json probe_deep(ProbeContext& ctx, const Json& facts) {
  if (!ctx.options().deep) return unknown(kDeepNotRun);
  const Json& access = field(facts, "access");
  const Json& user = is_unknown(access) ? access : field(access, "user");
  if (!user.is_object() || is_unknown(user))
    return unknown("who will run ROCm is unknown (access.user" +
                   (is_unknown(user) ? ": " + unknown_reason(user) : std::string(" is missing")) + ")");
  DeepRunAs as = deep_run_as(ctx, user);
  if (!as.refused.empty()) return unknown(as.refused);

  auto timeout = ctx.options().deep_timeout;
  size_t ran = 0, recorded = 0;
  Json not_run = Json::array();
  // On a recording, a command it does not hold says nothing of the machine:
  // it goes to not_run rather than counting as a failure.
  auto run = [&](const std::vector<std::string>& argv, const std::string& what) -> std::optional<ProcessResult> {
    ++ran;
    ProcessResult r = ctx.run_tool(argv, timeout);
    if (r.not_recorded) {
      not_run.push_back(what + ": not recorded on that machine");
      return std::nullopt;
    }
    ++recorded;
    return r;
  };

  Json section = Json::object();
  section["run_as"] = as.user;
  section["switched_by"] = as.switched_by ? Json(*as.switched_by) : Json(nullptr);
  section["timeout_ms"] = timeout.count();

  const Json& python = field(facts, "python");
  const Json& torch = field(python, "torch");
  if (!torch.is_array()) {
    section["torch"] = unknown("the torch installs are unknown" +
                               (is_unknown(torch) ? ": " + unknown_reason(torch)
                                : is_unknown(python) ? ": " + unknown_reason(python)
                                                     : std::string()));
  } else {
    Interpreters found = torch_interpreters(python);
    for (auto& s : found.not_run) not_run.push_back(s);
    Json entries = Json::array();
    for (auto& py : found.run)
      if (auto r = run(deep_torch_argv(as.prefix, py), py)) entries.push_back(torch_entry(py, *r, timeout));
    section["torch"] = entries;
  }

  const Json& rocm = field(facts, "rocm");
  Json tools = Json::array();
  const std::vector<std::pair<std::string, std::vector<std::string>>> wanted = {{"rocminfo", {}}, {"amd-smi", {"list"}}};
  for (auto& [name, args] : wanted) {
    std::string path = find_tool(ctx, rocm, name);
    if (path.empty()) {
      not_run.push_back(name + ": not installed (not in a ROCm install's bin/ or on PATH)");
      continue;
    }
    std::vector<std::string> tool = {path};
    tool.insert(tool.end(), args.begin(), args.end());
    std::vector<std::string> argv = deep_tool_argv(as.prefix, tool);
    if (auto r = run(argv, name)) tools.push_back(tool_entry(name, tool, *r, timeout));
  }
  section["tools"] = tools;
  section["not_run"] = not_run;
  if (ran > 0 && recorded == 0)
    return unknown("this recording holds none of the workloads' outputs (rocmdoc snapshot --deep records them)");
  return section;
}

}  // namespace rocmdoc
