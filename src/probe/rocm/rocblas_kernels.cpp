#include "probe/rocm/rocblas_kernels.h"

#include <map>
#include <set>

#include "base/text.h"

namespace rocmdoc {

namespace {

bool target_char(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'); }

// Where ollama keeps the ROCm it ships: its Linux builds look for libraries
// in <executable>/../lib/ollama (ollama ml/path.go, formerly
// discover/path.go) and the GPU libraries in subdirectories of it: rocm in
// older releases, rocm_v<N> since ollama builds for more than one ROCm
// (its Dockerfile and scripts/build_linux.sh install lib/ollama/rocm_v*).
// Its install script puts the executable in /usr/local/bin, distribution
// packages in /usr/bin; very old releases kept the libraries in lib/ollama.
constexpr const char* kOllamaLibPrefixes[] = {"/usr/local/lib/ollama", "/usr/lib/ollama"};

// The unit files systemd reads for ollama.service, in the order it applies
// them: the unit (/etc's replaces /usr/lib's), then the drop-ins of both
// directories by file name (/etc's wins over one of the same name).
Result<std::vector<std::string>> ollama_unit_files(ProbeContext& ctx) {
  std::vector<std::string> files;
  for (const char* unit : {"/etc/systemd/system/ollama.service", "/usr/lib/systemd/system/ollama.service"}) {
    FileStat st = ctx.fs().stat(unit);
    if (st.absent()) continue;
    files.push_back(unit);
    break;
  }
  std::map<std::string, std::string> dropins;  // name -> path
  for (const char* dir : {"/usr/lib/systemd/system/ollama.service.d", "/etc/systemd/system/ollama.service.d"}) {
    auto names = ctx.fs().list_dir(dir);
    if (!names) {
      FileStat st = ctx.fs().stat(dir);
      if (st.absent()) continue;
      return Result<std::vector<std::string>>::fail(names.error());  // there, unreadable: an override may hide in it
    }
    for (auto& name : *names)
      if (ends_with(name, ".conf")) dropins[name] = path_join(dir, name);
  }
  for (auto& [name, path] : dropins) files.push_back(path);
  return Result<std::vector<std::string>>::ok(files);
}

// The override the ollama service starts with: ollama's Linux docs set
// variables with `systemctl edit ollama.service` (a drop-in).
Json ollama_service_override(ProbeContext& ctx) {
  auto files = ollama_unit_files(ctx);
  if (!files) return unknown(files.error());
  Json value = nullptr;
  for (auto& file : *files) {
    // A drop-in masked with a link to /dev/null sets nothing.
    if (ctx.fs().stat_follow(file).type != FileType::regular) continue;
    auto text = ctx.fs().read_file(file, 1024 * 1024);
    if (!text) return unknown(text.error());
    if (looks_binary(*text)) return unknown(file + ": binary content, not a unit file");
    value = unit_hsa_override(*text, value);
    if (is_unknown(value)) return unknown(file + ": " + unknown_reason(value));
  }
  return value;
}

// systemd's words of an Environment= value: separated by blanks, quotes
// around or inside a word removed, a backslash taking the next character.
std::vector<std::string> unit_words(std::string_view value) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    if (c == '\\' && i + 1 < value.size()) {
      word += value[++i], in_word = true;
    } else if (quote) {
      if (c == quote) quote = 0;
      else word += c;
    } else if (c == '"' || c == '\'') {
      quote = c, in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(word);
      word.clear(), in_word = false;
    } else {
      word += c, in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

}  // namespace

Json rocblas_targets_in_names(const std::vector<std::string>& names, bool lazy_only) {
  std::set<std::string> targets;
  for (auto& name : names) {
    if (!starts_with(name, "TensileLibrary")) continue;
    if (lazy_only && !(starts_with(name, "TensileLibrary_lazy_gfx") && ends_with(name, ".dat"))) continue;
    for (size_t at = name.find("_gfx"); at != std::string::npos; at = name.find("_gfx", at + 1)) {
      size_t end = at + 4;
      while (end < name.size() && target_char(name[end])) ++end;
      if (end > at + 4) targets.insert(name.substr(at + 1, end - at - 1));
    }
  }
  Json out = Json::array();
  for (auto& t : targets) out.push_back(t);
  return out;
}

Json rocblas_targets(ProbeContext& ctx, const std::string& lib, bool lazy_only) {
  std::string dir = lib + "/rocblas/library";
  FileStat st = ctx.fs().stat_follow(dir);
  if (st.absent()) return nullptr;
  auto names = ctx.fs().list_dir(dir);
  if (!names) return unknown(names.error());
  return rocblas_targets_in_names(*names, lazy_only);
}

Json unit_hsa_override(std::string_view unit_text, Json value) {
  static constexpr std::string_view kName = "HSA_OVERRIDE_GFX_VERSION=";
  for (auto line : split_lines(unit_text)) {
    std::string l = trim(line);
    size_t eq = l.find('=');
    if (l.empty() || l[0] == '#' || l[0] == ';' || eq == std::string::npos) continue;
    std::string key = trim(std::string_view(l).substr(0, eq));
    std::string rest = trim(std::string_view(l).substr(eq + 1));
    if (key == "EnvironmentFile") return unknown("the service reads variables from " + rest + ", which rocmdoc does not read");
    if (key != "Environment") continue;
    if (rest.empty()) {
      value = nullptr;  // "Environment=" clears what came before
      continue;
    }
    for (auto& word : unit_words(rest))
      if (starts_with(word, kName)) {
        std::string v = word.substr(kName.size());
        value = v.empty() ? Json(nullptr) : Json(v);  // empty is unset to ROCm and ollama
      }
  }
  return value;
}

void probe_rocm_bundles(ProbeContext& ctx, Json& section) {
  Json bundles = Json::array();
  Json service_override;
  bool service_read = false;
  for (const char* prefix : kOllamaLibPrefixes) {
    std::vector<std::string> dirs;
    if (auto rocm = ctx.fs().list_dir_starting_with(prefix, "rocm"))
      for (auto& name : *rocm) dirs.push_back(path_join(prefix, name));
    dirs.push_back(prefix);
    for (auto& dir : dirs) {
      // ollama counts only the lazy-loading index of each target
      // (TensileLibrary_lazy_<gfx>.dat), so rocmdoc does the same here.
      Json targets = rocblas_targets(ctx, dir, true);
      if (targets.is_null()) continue;
      if (!service_read) service_override = ollama_service_override(ctx), service_read = true;
      bundles.push_back(Json{{"app", "ollama"}, {"path", dir}, {"rocblas_gfx", targets},
                             {"service_hsa_override", service_override}});
    }
  }
  section["bundles"] = bundles;
}

}  // namespace rocmdoc
