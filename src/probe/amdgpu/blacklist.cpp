#include "probe/amdgpu/blacklist.h"

#include <algorithm>
#include <set>

#include "base/text.h"

namespace rocmdoc {

namespace {

// kmod's search order: a file in an earlier directory hides a file of the
// same name in a later one (that is how /etc overrides a packaged file).
const char* const kModprobeDirs[] = {"/etc/modprobe.d", "/run/modprobe.d", "/usr/local/lib/modprobe.d",
                                     "/lib/modprobe.d", "/usr/lib/modprobe.d"};

std::string module_key(std::string_view name) {
  std::string key(name);
  std::replace(key.begin(), key.end(), '-', '_');
  return key;
}

struct LogicalLine {
  int number;
  std::string text;
};

// Joins backslash-continued lines, as kmod reads them.
std::vector<LogicalLine> logical_lines(std::string_view text) {
  std::vector<LogicalLine> out;
  bool continuing = false;
  int number = 0;
  for (auto& raw : split_lines(text)) {
    ++number;
    std::string line = raw;
    bool continues = !line.empty() && line.back() == '\\';
    if (continues) line.pop_back();
    if (continuing) out.back().text += " " + line;
    else out.push_back({number, line});
    continuing = continues;
  }
  return out;
}

bool install_command_blocks(const std::vector<std::string>& words) {
  if (words.size() < 3) return false;
  std::string command = path_basename(words[2]);
  return command == "false" || command == "true";
}

}  // namespace

std::vector<int> modprobe_lines_blocking(std::string_view conf_text, const std::string& module) {
  std::vector<int> lines;
  std::string wanted = module_key(module);
  for (auto& line : logical_lines(conf_text)) {
    auto words = split_words(line.text);
    if (words.size() < 2 || words[0][0] == '#') continue;
    if (module_key(words[1]) != wanted) continue;
    if (words[0] == "blacklist" || (words[0] == "install" && install_command_blocks(words)))
      lines.push_back(line.number);
  }
  return lines;
}

bool cmdline_blacklists(std::string_view cmdline, const std::string& module) {
  std::string wanted = module_key(module);
  for (auto& word : split_words(cmdline)) {
    for (std::string_view param : {"modprobe.blacklist=", "module_blacklist="}) {
      if (!starts_with(word, param)) continue;
      for (auto& name : split(std::string_view(word).substr(param.size()), ','))
        if (module_key(name) == wanted) return true;
    }
  }
  return false;
}

namespace {

struct ConfScan {
  std::vector<std::string> sources;
  std::vector<std::string> unreadable;  // reasons
};

void scan_modprobe_dir(FileSystem& fs, const std::string& dir, std::set<std::string>& seen_names, ConfScan& scan) {
  auto names = fs.list_dir(dir);
  if (!names) {
    FileStat st = fs.stat_follow(dir);
    if (st.type != FileType::missing || !st.error.empty()) scan.unreadable.push_back(names.error());
    return;
  }
  for (auto& name : *names) {
    if (!ends_with(name, ".conf") || !seen_names.insert(name).second) continue;
    std::string path = path_join(dir, name);
    // A link to /dev/null masks the packaged file of that name, as in systemd.
    if (auto target = fs.read_link(path); target && *target == "/dev/null") continue;
    auto text = fs.read_file(path, 1 << 20);
    if (!text) {
      scan.unreadable.push_back(text.error());
      continue;
    }
    if (looks_binary(*text)) {
      scan.unreadable.push_back(path + ": binary content, not a modprobe configuration");
      continue;
    }
    for (int line : modprobe_lines_blocking(*text, "amdgpu")) scan.sources.push_back(path + ":" + std::to_string(line));
  }
}

}  // namespace

Json amdgpu_blacklist_fact(ProbeContext& ctx) {
  ConfScan scan;
  std::set<std::string> seen_names, seen_dirs;
  for (const char* dir : kModprobeDirs) {
    // /lib is /usr/lib on merged-/usr systems: read each real directory once.
    auto real = ctx.fs().resolve(dir);
    if (real && !seen_dirs.insert(*real).second) continue;
    scan_modprobe_dir(ctx.fs(), dir, seen_names, scan);
  }
  auto cmdline = ctx.fs().read_file("/proc/cmdline", 64 * 1024);
  if (cmdline && cmdline_blacklists(*cmdline, "amdgpu")) scan.sources.push_back("kernel command line");
  if (!cmdline) scan.unreadable.push_back(cmdline.error());

  Json fact = Json::object();
  if (!scan.sources.empty()) fact["value"] = true;
  else if (!scan.unreadable.empty()) {
    std::string why;
    for (auto& r : scan.unreadable) why += (why.empty() ? "" : "; ") + r;
    fact["value"] = unknown(why);
  } else fact["value"] = false;
  fact["sources"] = scan.sources;
  return fact;
}

}  // namespace rocmdoc
