#include "probe/rocm/pacman_repos.h"

#include <fnmatch.h>

#include <algorithm>

#include "base/text.h"
#include "formats/ini_text.h"
#include "probe/rocm/apt.h"

namespace rocmdoc {

namespace {

constexpr const char* kPacmanConf = "/etc/pacman.conf";
constexpr size_t kConfReadLimit = 1024 * 1024;
// pacman's own limit on nested Include files (util/ini.c, _parse_ini).
constexpr int kMaxIncludeDepth = 10;

struct Repo {
  std::string name, file;
  size_t line = 0;
  std::vector<std::string> servers;
};

struct Reader {
  ProbeContext& ctx;
  std::vector<Repo> repos;  // in the order pacman.conf declares them
  std::vector<std::string> errors;
  std::string current;  // the section the next entry belongs to; an included file continues it

  Repo* repo(const std::string& name) {
    auto it = std::find_if(repos.begin(), repos.end(), [&](const Repo& r) { return r.name == name; });
    return it == repos.end() ? nullptr : &*it;
  }

  // The files an Include names: the path itself, or the names of its
  // directory that match a pattern in the last component (pacman expands
  // it with glob(3)). A pattern in a directory component is not expanded.
  std::vector<std::string> include_targets(const std::string& from, size_t line, const std::string& pattern) {
    std::string dir = path_dirname(pattern), base = path_basename(pattern);
    bool wild = base.find_first_of("*?[") != std::string::npos;
    if (dir.find_first_of("*?[") != std::string::npos) {
      errors.push_back(from + ":" + std::to_string(line) + ": Include " + quote_for_reason(pattern) +
                       " has a wildcard before its last '/', which rocmdoc does not expand");
      return {};
    }
    if (!wild) return {pattern};
    auto names = ctx.fs().list_dir(dir);
    if (!names) {
      FileStat st = ctx.fs().stat(dir);
      if (!(st.absent())) errors.push_back(names.error());
      return {};  // glob(3) finds nothing in a directory that is not there
    }
    std::vector<std::string> out;
    for (auto& name : *names)
      if (name.front() != '.' && fnmatch(base.c_str(), name.c_str(), 0) == 0) out.push_back(path_join(dir, name));
    return out;
  }

  void read(const std::string& path, int depth) {
    if (depth > kMaxIncludeDepth) {
      errors.push_back(path + ": included more than " + std::to_string(kMaxIncludeDepth) + " levels deep");
      return;
    }
    auto text = ctx.fs().read_file(path, kConfReadLimit);
    if (!text) return errors.push_back(text.error());
    if (looks_binary(*text)) return errors.push_back(path + ": binary content, not a pacman configuration file");
    for (auto& s : parse_ini(*text, IniSyntax{true, false})) {
      if (!s.name.empty()) {
        current = s.name;
        if (current != "options" && !repo(current)) repos.push_back(Repo{current, path, s.line, {}});
      }
      for (auto& e : s.entries) {
        if (e.key == "Include") {
          for (auto& target : include_targets(path, e.line, e.value)) read(target, depth + 1);
        } else if (e.key == "Server" && !current.empty() && current != "options") {
          repo(current)->servers.push_back(e.value);
        }
      }
    }
  }
};

bool names_rocm(std::string_view text) { return to_lower(text).find("rocm") != std::string::npos; }

}  // namespace

bool is_official_arch_repo(std::string_view name) {
  for (const char* official : {"core", "extra", "multilib", "core-testing", "extra-testing", "multilib-testing",
                               "core-staging", "extra-staging", "multilib-staging", "gnome-unstable", "kde-unstable",
                               "community", "testing", "staging", "community-testing", "community-staging"})
    if (name == official) return true;
  return false;
}

void probe_rocm_pacman_repos(ProbeContext& ctx, Json& section) {
  FileStat conf = ctx.fs().stat_follow(kPacmanConf);
  if (conf.type != FileType::regular) {
    // No pacman here, or a recording that did not keep its configuration:
    // "no third-party repository" would be a guess either way.
    std::string why = std::string(kPacmanConf) + ": " +
                      (!conf.error.empty()                   ? conf.error
                       : conf.type == FileType::missing ? std::string("no such file")
                                                        : std::string("not a regular file"));
    section["pacman_repos"] = unknown(why);
    return;
  }
  Reader reader{ctx, {}, {}, ""};
  reader.read(kPacmanConf, 0);
  if (!reader.errors.empty()) {
    std::string why;
    for (auto& e : reader.errors) why += (why.empty() ? "" : "; ") + e;
    section["pacman_repos"] = unknown(why);
    return;
  }
  Json out = Json::array();
  for (auto& r : reader.repos) {
    if (is_official_arch_repo(r.name)) continue;
    bool amd = std::any_of(r.servers.begin(), r.servers.end(), [](auto& s) { return is_amd_repository_uri(s); });
    bool rocm = amd || names_rocm(r.name) ||
                std::any_of(r.servers.begin(), r.servers.end(), [](auto& s) { return names_rocm(s); });
    out.push_back(Json{{"name", r.name}, {"file", r.file}, {"line", r.line}, {"servers", r.servers},
                       {"amd", amd}, {"rocm", rocm}});
  }
  section["pacman_repos"] = out;
}

}  // namespace rocmdoc
