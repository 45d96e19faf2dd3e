#include "machine/recorded_machine.h"

#include <sys/stat.h>


#include "platform/host_filesystem.h"
#include "machine/node_overlay_filesystem.h"
#include "base/json_input.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

// Everything a recording holds is read as the probes read it: through the
// filesystem confined to its folder (links resolve inside it), as regular
// files only (a FIFO would block, /dev/zero never ends) and no larger than
// the limit. A file that is not there is nullopt; one that is there but
// cannot be read this way is an error naming it, since the recording is
// then not what it claims to be.
struct ReadError {
  std::string why;
};

std::optional<std::string> read_recorded(FileSystem& fs, const std::string& shown_dir, const std::string& path,
                                         size_t limit) {
  FileStat st = fs.stat(path);
  if (st.absent()) return std::nullopt;
  auto text = fs.read_file(path, limit);
  if (!text) throw ReadError{shown_dir + text.error()};
  return std::move(text.value());
}

// name -> id from an /etc/group or /etc/passwd style file (field 0 and 2).
std::map<std::string, uint32_t> name_ids(FileSystem& fs, const std::string& path) {
  std::map<std::string, uint32_t> out;
  auto text = fs.read_file(path);
  if (!text) return out;
  for (auto& line : split_lines(*text)) {
    auto f = split(line, ':');
    if (f.size() < 3) continue;
    if (auto id = parse_uint(f[2])) out[f[0]] = static_cast<uint32_t>(*id);
  }
  return out;
}

FileType type_from_name(const std::string& name) {
  for (auto t : {FileType::regular, FileType::directory, FileType::symlink, FileType::char_device,
                 FileType::block_device, FileType::other})
    if (name == file_type_name(t)) return t;
  return FileType::missing;
}

struct SidecarError {
  std::string where;
};

const Json& need(const Json& obj, const char* key, Json::value_t type, const std::string& where) {
  if (!obj.contains(key)) throw SidecarError{where + "." + key + ": missing"};
  const Json& v = obj[key];
  bool ok = v.type() == type ||
            (type == Json::value_t::number_unsigned && v.type() == Json::value_t::number_integer && v.get<int64_t>() >= 0);
  if (!ok && type == Json::value_t::number_unsigned && v.is_number())
    throw SidecarError{where + "." + key + ": not a whole number 0 or more (" + v.dump() + ")"};
  if (!ok) throw SidecarError{where + "." + key + ": wrong type (" + v.type_name() + ")"};
  return v;
}

void apply_sidecar(Machine& m, const Json& doc, std::map<std::string, FileStat>& nodes) {
  if (!doc.is_object()) throw SidecarError{"top level: not an object"};
  auto schema = need(doc, "schema", Json::value_t::number_unsigned, "");
  if (schema.get<uint64_t>() != 1) throw SidecarError{"schema: only schema 1 is understood"};

  const Json& user = need(doc, "user", Json::value_t::object, "");
  if (is_unknown(user)) {
    m.user.known = false;
    m.user.unknown_reason = unknown_reason(user);
  } else {
    m.user.known = true;
    m.user.name = need(user, "name", Json::value_t::string, "user").get<std::string>();
    m.user.uid = need(user, "uid", Json::value_t::number_unsigned, "user").get<uint32_t>();
    m.user.gid = need(user, "gid", Json::value_t::number_unsigned, "user").get<uint32_t>();
    for (auto& g : need(user, "groups", Json::value_t::array, "user")) {
      if (!g.is_number_unsigned() && !(g.is_number_integer() && g.get<int64_t>() >= 0))
        throw SidecarError{"user.groups: not a group id"};
      m.user.process_gids.push_back(g.get<uint32_t>());
    }
  }

  const Json& env = need(doc, "env", Json::value_t::object, "");
  std::map<std::string, std::string> values;
  for (auto& [k, v] : need(env, "values", Json::value_t::object, "env").items()) {
    if (!v.is_string()) throw SidecarError{"env.values." + k + ": not a string"};
    values[k] = v.get<std::string>();
  }
  std::vector<std::string> recorded;
  for (auto& p : need(env, "recorded", Json::value_t::array, "env")) {
    if (!p.is_string()) throw SidecarError{"env.recorded: not a string"};
    recorded.push_back(p.get<std::string>());
  }
  m.set_env(std::move(values), std::move(recorded));

  for (auto& [path, n] : need(doc, "nodes", Json::value_t::object, "").items()) {
    std::string where = "nodes." + path;
    FileStat st;
    st.type = type_from_name(need(n, "type", Json::value_t::string, where).get<std::string>());
    if (st.type == FileType::missing) throw SidecarError{where + ".type: unknown file type"};
    auto mode = parse_uint(need(n, "mode", Json::value_t::string, where).get<std::string>(), 8);
    if (!mode || *mode > 07777) throw SidecarError{where + ".mode: not an octal mode"};
    st.mode = static_cast<unsigned>(*mode);
    st.uid = need(n, "uid", Json::value_t::number_unsigned, where).get<uint32_t>();
    st.gid = need(n, "gid", Json::value_t::number_unsigned, where).get<uint32_t>();
    nodes[path] = st;
  }

  std::map<std::string, ProcessResult> commands;
  for (auto& [argv, c] : need(doc, "commands", Json::value_t::object, "").items()) {
    std::string where = "commands." + argv;
    ProcessResult r;
    r.started = need(c, "started", Json::value_t::boolean, where).get<bool>();
    r.timed_out = c.value("timed_out", false);
    r.exit_code = static_cast<int>(c.value("exit_code", -1));
    r.out = c.value("stdout", "");
    r.err = c.value("stderr", "");
    r.error = c.value("error", "");
    commands[argv] = r;
  }
  m.runner = std::make_unique<RecordedProcessRunner>(std::move(commands));
}

// A capture made by shared/fixtures/capture-machine.sh: DIR/root is the
// tree, DIR/cmd holds command outputs.
void apply_capture(Machine& m, const std::string& cmd_dir, std::map<std::string, FileStat>& nodes) {
  HostFileSystem cmd(cmd_dir);
  auto slurp = [&](const std::string& name) { return read_recorded(cmd, cmd_dir, name, kMaxCaptureFileBytes); };
  if (auto id = slurp("/id.txt"); id) {
    if (auto user = parse_id_output(*id)) m.user = *user;
  }
  if (!m.user.known) m.user.unknown_reason = "the capture has no readable cmd/id.txt";

  std::map<std::string, std::string> values;
  if (auto env = slurp("/env.txt")) values = parse_env_file(*env);
  // capture-machine.sh keeps only these prefixes (its `env | grep -E`).
  m.set_env(std::move(values), {"PATH", "LD_LIBRARY_PATH", "HIP", "HSA", "ROCM", "CUDA", "NVIDIA"});

  // ls -la of the device nodes, and of the container marker files
  // (/.dockerenv, /run/.containerenv), which the capture did not copy.
  auto users = name_ids(*m.fs, "/etc/passwd"), groups = name_ids(*m.fs, "/etc/group");
  for (const char* listing : {"/ls-dev.txt", "/container-markers.txt"})
    if (auto ls = slurp(listing))
      for (auto& [path, st] : parse_ls_listing(*ls, users, groups)) nodes[path] = st;

  std::map<std::string, ProcessResult> commands;
  if (auto dmesg = slurp("/dmesg.txt")) {
    ProcessResult r;
    r.started = true;
    r.exit_code = 0;
    r.out = *dmesg;
    // dmesg's own refusal is printed on stderr, which the capture merged.
    if (dmesg->find("Operation not permitted") != std::string::npos) r.exit_code = 1, r.err = *dmesg, r.out.clear();
    commands["dmesg"] = r;
  }
  m.runner = std::make_unique<RecordedProcessRunner>(std::move(commands));
}

}  // namespace

std::optional<UserIdentity> parse_id_output(const std::string& text) {
  UserIdentity u;
  auto words = split_words(text);
  bool have_uid = false, have_gid = false;
  for (auto& w : words) {
    auto eq = w.find('=');
    if (eq == std::string::npos) continue;
    std::string key = w.substr(0, eq), value = w.substr(eq + 1);
    if (key == "groups") {
      for (auto& g : split(value, ',')) {
        auto paren = g.find('(');
        if (auto gid = parse_uint(g.substr(0, paren))) u.process_gids.push_back(static_cast<uint32_t>(*gid));
      }
      continue;
    }
    auto paren = value.find('(');
    auto num = parse_uint(value.substr(0, paren));
    if (!num) continue;
    if (key == "uid") {
      u.uid = static_cast<uint32_t>(*num), have_uid = true;
      if (paren != std::string::npos && value.back() == ')') u.name = value.substr(paren + 1, value.size() - paren - 2);
    } else if (key == "gid") {
      u.gid = static_cast<uint32_t>(*num), have_gid = true;
    }
  }
  if (!have_uid || !have_gid) return std::nullopt;
  u.known = true;
  return u;
}

std::map<std::string, FileStat> parse_ls_listing(const std::string& text,
                                                        const std::map<std::string, uint32_t>& name_to_uid,
                                                        const std::map<std::string, uint32_t>& name_to_gid) {
  std::map<std::string, FileStat> nodes;
  std::string dir;  // set by "/dev/dri:" headers of a directory listing
  for (auto& line : split_lines(text)) {
    if (!line.empty() && line.back() == ':' && line.front() == '/') {
      dir = line.substr(0, line.size() - 1);
      continue;
    }
    auto w = split_words(line);
    // crw-rw----+ 1 root render 226, 128 Oct 15 22:25 /dev/dri/renderD128
    if (w.size() < 9 || w[0].size() < 10) continue;
    FileStat st;
    switch (w[0][0]) {
      case 'c': st.type = FileType::char_device; break;
      case 'b': st.type = FileType::block_device; break;
      case '-': st.type = FileType::regular; break;
      default: continue;  // directories and links are in the tree itself
    }
    static const unsigned bits[9] = {0400, 0200, 0100, 040, 020, 010, 04, 02, 01};
    for (int i = 0; i < 9; ++i)
      if (w[0][static_cast<size_t>(i) + 1] != '-') st.mode |= bits[i];
    auto uid = w[2] == "root" ? std::optional<uint32_t>(0) : std::nullopt;
    if (auto it = name_to_uid.find(w[2]); it != name_to_uid.end()) uid = it->second;
    if (auto n = parse_uint(w[2])) uid = static_cast<uint32_t>(*n);
    std::optional<uint32_t> gid = w[3] == "root" ? std::optional<uint32_t>(0) : std::nullopt;
    if (auto it = name_to_gid.find(w[3]); it != name_to_gid.end()) gid = it->second;
    if (auto n = parse_uint(w[3])) gid = static_cast<uint32_t>(*n);
    if (!uid || !gid) continue;
    st.uid = *uid;
    st.gid = *gid;
    std::string name = w.back();
    nodes[name.front() == '/' ? name : path_join(dir, name)] = st;
  }
  return nodes;
}

std::optional<std::string> apply_sidecar_text(Machine& m, std::string_view text, std::map<std::string, FileStat>& nodes) {
  auto doc = parse_json_bounded(text, kMaxSidecarDepth);
  if (!doc) return doc.error();
  try {
    apply_sidecar(m, *doc, nodes);
  } catch (const Json::exception& e) {
    return std::string("not a sidecar: ") + e.what();
  } catch (const SidecarError& e) {
    return e.where;
  }
  return std::nullopt;
}

Result<std::unique_ptr<Machine>> load_recording(const std::string& abs_root) {
  using R = Result<std::unique_ptr<Machine>>;
  auto m = std::make_unique<Machine>();
  m->live = false;
  m->root = abs_root;
  m->fs = std::make_unique<HostFileSystem>(abs_root);
  std::map<std::string, FileStat> nodes;

  std::string sidecar = abs_root + kSidecarPath;
  std::string capture_cmd = path_dirname(abs_root) + "/cmd";
  struct stat st {};
  std::optional<std::string> text;
  try {
    text = read_recorded(*m->fs, abs_root, kSidecarPath, kMaxSidecarBytes);
  } catch (const ReadError& e) {
    return R::fail(e.why);
  }
  if (text) {
    if (auto problem = apply_sidecar_text(*m, *text, nodes)) return R::fail(sidecar + ": " + *problem);
    m->recording_kind = "snapshot";
  } else if (::stat(capture_cmd.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && path_basename(abs_root) == "root") {
    try {
      apply_capture(*m, capture_cmd, nodes);
    } catch (const ReadError& e) {
      return R::fail(e.why);
    }
    m->recording_kind = "capture";
  } else {
    m->user.unknown_reason = "the recorded tree has no " + std::string(kSidecarPath) + " sidecar";
    m->set_env({}, {});
    m->runner = std::make_unique<RecordedProcessRunner>(std::map<std::string, ProcessResult>{});
    m->recording_kind = "tree";
  }
  if (!nodes.empty()) m->fs = std::make_unique<NodeOverlayFileSystem>(std::move(m->fs), std::move(nodes));
  return R::ok(std::move(m));
}

}  // namespace rocmdoc
