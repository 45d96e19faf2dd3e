#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>

#include "facts/facts_document.h"
#include "base/build_info.h"
#include "platform/host_filesystem.h"
#include "snapshot/snapshot.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

// Files larger than this are not copied (dpkg status is the largest a
// probe reads, a few MB).
constexpr size_t kMaxCopiedFile = 64u << 20;

class TreeWriter {
 public:
  TreeWriter(FileSystem& live, const Redactor& redactor, std::string dir)
      : live_(live), redactor_(redactor), dir_(std::move(dir)) {}

  // Recreates `path` as the machine has it, following links on the way:
  // each link met is recreated, then the walk goes on at its target.
  void replicate(const std::string& path, bool copy_content) {
    std::string resolved = walk(path);
    if (resolved.empty()) return;
    FileStat st = live_.stat(resolved);
    switch (st.type) {
      case FileType::directory: make_dirs(resolved); break;
      case FileType::regular: copy_content ? copy_file(resolved) : placeholder(resolved); break;
      case FileType::char_device:
      case FileType::block_device: add_node(resolved, st); break;
      default: break;
    }
  }

  // A device's records (/dev/kmsg) as a plain file at its path: a recorded
  // machine answers read_records from it.
  void keep_records(const std::string& path, const std::string& records) {
    created_.insert(path);
    write(path, redactor_.content(path, records));
    ++summary.files;
  }

  void replicate_listing(const std::string& dir) {
    std::string resolved = walk(dir);
    if (resolved.empty()) return;
    make_dirs(resolved);
    auto names = live_.list_dir(resolved);
    if (!names) return;
    // Directories, links and nodes are cheap and decide what a probe sees
    // when it lists; plain files only matter when a probe read them.
    for (auto& name : *names) {
      std::string child = path_join(resolved, name);
      FileStat st = live_.stat(child);
      if (st.type == FileType::symlink) link(child);
      else if (st.type == FileType::directory) make_dirs(child);
      else if (st.type == FileType::char_device || st.type == FileType::block_device) add_node(child, st);
    }
  }

  Json nodes_json() const { return nodes_; }
  SnapshotSummary summary;
  std::vector<std::string> errors;

 private:
  std::string host(const std::string& machine_path) const { return dir_ + redactor_.path(machine_path); }

  // Resolves path on the live machine, recreating every link met.
  // Returns the resolved path, or "" when some part does not exist.
  std::string walk(const std::string& path) {
    std::vector<std::string> pending;
    for (auto& part : split(path_normalize(path), '/'))
      if (!part.empty()) pending.push_back(part);
    std::reverse(pending.begin(), pending.end());
    std::string current = "/";
    for (int hops = 0; !pending.empty();) {
      std::string part = pending.back();
      pending.pop_back();
      if (part == "..") {
        current = path_dirname(current);
        continue;
      }
      if (part == ".") continue;
      std::string next = path_join(current, part);
      FileStat st = live_.stat(next);
      if (st.type == FileType::missing) return "";
      if (st.type != FileType::symlink) {
        if (st.type == FileType::directory) make_dirs(next);
        current = next;
        continue;
      }
      if (++hops > 40) return "";
      auto target = link(next);
      if (target.empty()) return "";
      if (target[0] == '/') current = "/";
      auto parts = split(target, '/');
      for (auto it = parts.rbegin(); it != parts.rend(); ++it)
        if (!it->empty()) pending.push_back(*it);
    }
    return current;
  }

  std::string link(const std::string& path) {
    auto target = live_.read_link(path);
    if (!target) return "";
    if (created_.insert(path).second) {
      make_dirs(path_dirname(path));
      if (::symlink(redactor_.path(*target).c_str(), host(path).c_str()) == 0) ++summary.links;
      else if (errno != EEXIST) errors.push_back(path + ": symlink: " + errno_reason(errno));
    }
    return *target;
  }

  void make_dirs(const std::string& path) {
    std::string so_far;
    for (auto& part : split(path, '/')) {
      if (part.empty()) continue;
      so_far += "/" + part;
      if (!created_.insert(so_far).second) continue;
      if (::mkdir(host(so_far).c_str(), 0755) == 0) ++summary.directories;
    }
  }

  void write(const std::string& path, const std::string& data) {
    make_dirs(path_dirname(path));
    std::ofstream out(host(path), std::ios::binary | std::ios::trunc);
    out << data;
    if (!out) errors.push_back(path + ": cannot write into the snapshot");
  }

  void copy_file(const std::string& path) {
    if (copied_.count(path)) return;
    auto data = live_.read_file(path, kMaxCopiedFile);
    if (!data) return;  // unreadable on the live machine: the recording is too
    copied_.insert(path);
    created_.insert(path);
    write(path, redactor_.content(path, *data));
    ++summary.files;
  }

  void placeholder(const std::string& path) {
    if (!created_.insert(path).second) return;
    write(path, "");
  }

  void add_node(const std::string& path, const FileStat& st) {
    std::string key = redactor_.path(path);
    if (nodes_.contains(key)) return;
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", st.mode);
    nodes_[key] = {{"type", file_type_name(st.type)}, {"mode", mode}, {"uid", st.uid}, {"gid", st.gid}};
    ++summary.nodes;
  }

  FileSystem& live_;
  const Redactor& redactor_;
  std::string dir_;
  std::set<std::string> created_, copied_;
  Json nodes_ = Json::object();
};

Json user_json(const Machine& m, const Redactor& redactor) {
  if (!m.user.known) return unknown(m.user.unknown_reason);
  Json groups = Json::array();
  for (auto g : m.user.process_gids) groups.push_back(g);
  return {{"name", redactor.name(m.user.name)}, {"uid", m.user.uid}, {"gid", m.user.gid}, {"groups", groups}};
}

Json env_json(const Machine& m, const Redactor& redactor) {
  Json values = Json::object();
  for (auto& name : m.env_names()) {
    Json v = m.env(name);
    if (!v.is_string()) continue;
    // These hold a bare user name, which text() (home paths) leaves alone.
    bool user_name = name == "USER" || name == "LOGNAME" || name == "SUDO_USER";
    values[name] = user_name ? redactor.name(v.get<std::string>()) : redactor.text(v.get<std::string>());
  }
  return {{"values", values}, {"recorded", Json::array({"*"})}};
}

// A command's key, its argv joined with spaces, redacted as its output is,
// and the user runuser switches to (`runuser -u NAME --`, check --deep under
// sudo) as a user name: the replay builds that argv from the redacted
// SUDO_USER and home paths, so the key must read the same.
std::string redacted_command(const std::string& key, const Redactor& redactor) {
  auto words = split(key, ' ');
  if (words.size() > 2 && words[1] == "-u" && (words[0] == "runuser" || ends_with(words[0], "/runuser")))
    words[2] = redactor.name(words[2]);
  std::string joined;
  for (size_t i = 0; i < words.size(); ++i) joined += (i ? " " : "") + words[i];
  return redactor.text(joined);
}

Json commands_json(const std::map<std::string, ProcessResult>& commands, const Redactor& redactor) {
  Json out = Json::object();
  for (auto& [argv, r] : commands) {
    out[redacted_command(argv, redactor)] = {{"started", r.started},      {"timed_out", r.timed_out},         {"exit_code", r.exit_code},
                 {"stdout", redactor.text(r.out)}, {"stderr", redactor.text(r.err)}, {"error", redactor.text(r.error)}};
  }
  return out;
}

}  // namespace

Result<SnapshotSummary> write_snapshot_tree(FileSystem& live, const AccessLog& log, const Machine& machine,
                                            const std::map<std::string, ProcessResult>& commands,
                                            const Redactor& redactor, const std::string& dir) {
  TreeWriter writer(live, redactor, dir);
  for (auto& path : log.listed) writer.replicate_listing(path);
  for (auto& path : log.examined) writer.replicate(path, false);
  for (auto& path : log.read) writer.replicate(path, true);
  for (auto& [path, records] : log.records) writer.keep_records(path, records);
  if (!writer.errors.empty()) return Result<SnapshotSummary>::fail(writer.errors.front());

  Json sidecar = Json::object();
  sidecar["schema"] = 1;
  sidecar["kind"] = "rocmdoc-snapshot";
  sidecar["generator"] = "rocmdoc " + rocmdoc_version();
  sidecar["redacted"] = redactor.active();
  sidecar["user"] = user_json(machine, redactor);
  sidecar["env"] = env_json(machine, redactor);
  sidecar["nodes"] = writer.nodes_json();
  sidecar["commands"] = commands_json(commands, redactor);
  std::string sidecar_dir = dir + path_dirname(kSidecarPath);
  ::mkdir(sidecar_dir.c_str(), 0755);
  std::ofstream out(dir + kSidecarPath, std::ios::trunc);
  out << facts_to_string(sidecar) << "\n";
  if (!out) return Result<SnapshotSummary>::fail(dir + kSidecarPath + ": cannot write");
  SnapshotSummary summary = writer.summary;
  summary.commands = commands.size();
  return Result<SnapshotSummary>::ok(summary);
}

Redactor redactor_for(FileSystem& live, const Machine& machine, const std::string& hostname) {
  std::map<std::string, std::string> names;
  auto add = [&](const std::string& real) {
    if (real.empty() || real == "root" || names.count(real)) return;
    names[real] = names.empty() ? "user" : "user" + std::to_string(names.size() + 1);
  };
  // The people this report is about come first, so they read as "user".
  Json sudo_user = machine.env("SUDO_USER");
  if (sudo_user.is_string()) add(sudo_user.get<std::string>());
  if (machine.user.known) add(machine.user.name);
  std::set<std::string> system_accounts;
  if (auto passwd = live.read_file("/etc/passwd", 16 << 20)) {
    for (auto& line : split_lines(*passwd)) {
      auto f = split(line, ':');
      auto uid = f.size() == 7 ? parse_uint(f[2]) : std::nullopt;
      if (!uid) continue;
      if (*uid >= 1000 && *uid < 65534) add(f[0]);  // human accounts, not nobody
      else system_accounts.insert(f[0]);
    }
  }
  // Group members with no local account (LDAP, AD) are people too.
  if (auto group = live.read_file("/etc/group", 16 << 20)) {
    for (auto& line : split_lines(*group)) {
      auto f = split(line, ':');
      if (f.size() == 4)
        for (auto& member : split(f[3], ','))
          if (!system_accounts.count(member)) add(member);
    }
  }
  return Redactor(std::move(names), hostname);
}

}  // namespace rocmdoc
