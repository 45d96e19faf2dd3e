#include "probe/rocm/rpm_repos.h"

#include <fnmatch.h>

#include <algorithm>
#include <map>

#include "base/text.h"
#include "formats/ini_text.h"
#include "probe/rocm/apt.h"

namespace rocmdoc {

namespace {

constexpr size_t kRepoFileReadLimit = 1024 * 1024;

// The path segments of a URL, without scheme and host.
std::vector<std::string> url_path_segments(std::string_view url) {
  auto scheme_end = url.find("://");
  if (scheme_end != std::string_view::npos) url.remove_prefix(scheme_end + 3);
  url = url.substr(0, url.find_first_of("?#"));
  auto slash = url.find('/');
  if (slash == std::string_view::npos) return {};
  std::vector<std::string> out;
  for (auto& part : split(url.substr(slash + 1), '/'))
    if (!part.empty()) out.push_back(part);
  return out;
}

bool is_release_segment(const std::string& s) {
  if (s == "latest") return true;
  bool dot = false;
  for (char c : s) {
    if (c == '.') dot = true;
    else if (c < '0' || c > '9') return false;
  }
  return dot && s.front() != '.' && s.back() != '.';
}

// libdnf's and libzypp's words for true and false; anything else is not a
// boolean either would read the same way.
Json repo_boolean(const std::string& file, size_t line, const std::string& word) {
  std::string w = to_lower(word);
  for (const char* yes : {"1", "yes", "true", "on"})
    if (w == yes) return true;
  for (const char* no : {"0", "no", "false", "off"})
    if (w == no) return false;
  return unknown(file + ":" + std::to_string(line) + ": enabled is not a boolean: " + quote_for_reason(word));
}

// baseurl may hold several URLs, on continuation lines or separated by
// blanks or commas; mirrorlist and metalink name one.
std::vector<std::string> section_urls(const IniSection& s) {
  std::vector<std::string> urls;
  for (const char* key : {"baseurl", "mirrorlist", "metalink"}) {
    const IniEntry* e = s.find(key);
    if (!e) continue;
    for (auto& word : split_words(replace_all(e->value, ",", " ")))
      urls.push_back(word);
  }
  return urls;
}

// dnf5's repository overrides (dnf5-config-manager(8), setopt): the *.repo
// files of /usr/share/dnf5/repos.override.d and /etc/dnf/repos.override.d,
// one in /etc masking one of the same name in /usr/share, applied in the
// order of their names with the last winning; a section's name is a glob of
// repository ids. dnf5's `config-manager setopt ID.enabled=0` (Fedora 41
// and later) writes 99-config_manager.repo there and leaves the .repo file
// as it was, so without this a repository the user disabled reads enabled.
// dnf4 (RHEL 9 and older) does not read them; the directories exist where
// dnf5 is installed, so they are read wherever they are.
struct EnabledOverride {
  std::string pattern, file, value;
  size_t line = 0;
};

struct DnfOverrides {
  std::vector<EnabledOverride> enabled;  // in the order dnf5 applies them
  std::string unreadable;                // why some override could not be read; "" when all were
};

DnfOverrides read_dnf_overrides(ProbeContext& ctx) {
  DnfOverrides out;
  std::map<std::string, std::string> by_name;  // file name -> path: sorted, /etc's masking /usr/share's
  for (const char* dir : {"/usr/share/dnf5/repos.override.d", "/etc/dnf/repos.override.d"}) {
    auto names = ctx.fs().list_dir(dir);
    if (!names) {
      if (!ctx.fs().stat(dir).absent()) out.unreadable += (out.unreadable.empty() ? "" : "; ") + names.error();
      continue;
    }
    // dnf5 reads the *.repo files there; a directory of that name is
    // skipped, as dnf5 skips it (a file that cannot be stat'ed is read, and
    // its error said).
    for (auto& name : *names)
      if (ends_with(name, ".repo") && ctx.fs().stat_follow(path_join(dir, name)).type != FileType::directory)
        by_name[name] = path_join(dir, name);
  }
  for (auto& [name, path] : by_name) {
    auto text = ctx.fs().read_file(path, kRepoFileReadLimit);
    if (!text || looks_binary(*text)) {
      out.unreadable += (out.unreadable.empty() ? "" : "; ") + (text ? path + ": binary content" : text.error());
      continue;
    }
    for (auto& s : parse_ini(*text, IniSyntax{false, true}))
      if (const IniEntry* e = s.find("enabled"); e && !s.name.empty())
        out.enabled.push_back({s.name, path, e->value, e->line});
  }
  return out;
}

void apply_dnf_overrides(Json& repos, const DnfOverrides& overrides) {
  for (auto& repo : repos) {
    if (repo["manager"] != "dnf") continue;
    if (!overrides.unreadable.empty()) {
      repo["enabled"] = unknown(overrides.unreadable + " (a dnf5 override there may set enabled)");
      continue;
    }
    std::string id = repo["id"].get<std::string>();
    for (auto& o : overrides.enabled) {
      // dnf5 matches with FNM_EXTMATCH; it also substitutes $releasever and
      // the like in the section's name first, which rocmdoc does not.
      if (fnmatch(o.pattern.c_str(), id.c_str(), FNM_EXTMATCH) != 0) continue;
      repo["enabled"] = repo_boolean(o.file, o.line, o.value);
      repo["enabled_by"] = o.file + ":" + std::to_string(o.line);
    }
  }
}

}  // namespace

std::string amd_repository_kind(std::string_view url) {
  auto parts = url_path_segments(url);
  return parts.empty() ? "" : to_lower(parts.front());
}

std::string amd_repository_release(std::string_view url) {
  for (auto& part : url_path_segments(url))
    if (is_release_segment(part)) return part;
  return "";
}

Json amd_repos_in_repo_file(const std::string& file, std::string_view text, const std::string& manager) {
  Json out = Json::array();
  for (auto& s : parse_ini(text, IniSyntax{false, true})) {
    if (s.name.empty()) continue;
    auto urls = section_urls(s);
    auto amd = std::find_if(urls.begin(), urls.end(), [](auto& u) { return is_amd_repository_uri(u); });
    if (amd == urls.end()) continue;
    Json j = Json::object();
    j["file"] = file;
    j["line"] = s.line;
    j["id"] = s.name;
    const IniEntry* name = s.find("name");
    j["name"] = name ? Json(name->value) : Json(nullptr);
    j["manager"] = manager;
    j["baseurl"] = *amd;
    const IniEntry* enabled = s.find("enabled");
    if (enabled) {
      j["enabled"] = repo_boolean(file, enabled->line, enabled->value);
    } else if (manager == "dnf") {
      j["enabled"] = true;  // dnf.conf(5): enabled defaults to true
    } else {
      // zypper writes enabled= itself; a file without one was written by
      // hand, and rocmdoc does not guess libzypp's default for it.
      j["enabled"] = unknown(file + ":" + std::to_string(s.line) + ": [" + s.name + "] has no enabled= line");
    }
    j["enabled_by"] = nullptr;  // the section's own line, or the default
    std::string kind = amd_repository_kind(*amd), release = amd_repository_release(*amd);
    j["kind"] = kind.empty() ? Json(nullptr) : Json(kind);
    j["release"] = release.empty() ? Json(nullptr) : Json(release);
    out.push_back(j);
  }
  return out;
}

void probe_rocm_rpm_repos(ProbeContext& ctx, Json& section) {
  struct Dir {
    const char* path;
    const char* manager;
  };
  std::vector<std::string> errors, absent;
  Json out = Json::array();
  for (auto dir : {Dir{"/etc/yum.repos.d", "dnf"}, Dir{"/etc/zypp/repos.d", "zypper"}}) {
    auto names = ctx.fs().list_dir(dir.path);
    if (!names) {
      FileStat st = ctx.fs().stat(dir.path);
      if (st.absent()) absent.push_back(dir.path);
      else errors.push_back(names.error());
      continue;
    }
    // dnf and zypper read the *.repo files of their directory, nothing else.
    for (auto& name : *names) {
      if (!ends_with(name, ".repo")) continue;
      std::string path = path_join(dir.path, name);
      if (ctx.fs().stat_follow(path).type == FileType::directory) continue;
      auto text = ctx.fs().read_file(path, kRepoFileReadLimit);
      if (!text) {
        errors.push_back(text.error());
      } else if (looks_binary(*text)) {
        errors.push_back(path + ": binary content, not a .repo file");
      } else {
        for (auto& entry : amd_repos_in_repo_file(path, *text, dir.manager)) out.push_back(entry);
      }
    }
  }
  apply_dnf_overrides(out, read_dnf_overrides(ctx));
  // One unreadable file makes the whole list unknown: the file not read
  // could hold the very repository a rule looks for.
  std::string why;
  for (auto& e : errors) why += (why.empty() ? "" : "; ") + e;
  if (why.empty() && absent.size() == 2)
    why = "/etc/yum.repos.d and /etc/zypp/repos.d: no such directory (no dnf or zypper here, or a recording that did "
          "not keep them)";
  section["rpm_repos"] = why.empty() ? out : unknown(why);
}

}  // namespace rocmdoc
