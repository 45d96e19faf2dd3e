#include "probe/rocm/rocblas_kernels.h"

#include <set>

#include "base/text.h"

namespace rocmdoc {

namespace {

bool target_char(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'); }

// Where ollama keeps the ROCm it ships: its Linux builds look for libraries
// in <executable>/../lib/ollama and, since the GPU libraries moved to
// subdirectories, in lib/ollama/rocm (ollama discover/path.go); its install
// script puts the executable in /usr/local/bin, distribution packages in
// /usr/bin.
constexpr const char* kOllamaLibDirs[] = {"/usr/local/lib/ollama/rocm", "/usr/local/lib/ollama", "/usr/lib/ollama/rocm",
                                          "/usr/lib/ollama"};

// The override the ollama service starts with: ollama's Linux docs set it
// with `systemctl edit ollama.service` (a drop-in) or in the unit itself.
Json ollama_service_override(ProbeContext& ctx) {
  std::vector<std::string> files = {"/etc/systemd/system/ollama.service"};
  const std::string dropins = "/etc/systemd/system/ollama.service.d";
  if (auto names = ctx.fs().list_dir(dropins)) {
    for (auto& name : *names)
      if (ends_with(name, ".conf")) files.push_back(dropins + "/" + name);
  } else if (FileStat st = ctx.fs().stat(dropins); st.type != FileType::missing || !st.error.empty()) {
    return unknown(names.error());  // there, and cannot be listed: an override may hide in it
  }
  Json value = nullptr;
  for (auto& file : files) {
    FileStat st = ctx.fs().stat(file);
    if (st.type == FileType::missing && st.error.empty()) continue;
    auto text = ctx.fs().read_file(file, 1024 * 1024);
    if (!text) return unknown(text.error());
    if (looks_binary(*text)) return unknown(file + ": binary content, not a unit file");
    // systemd reads drop-ins after the unit, in name order: the last
    // assignment wins.
    Json set = unit_hsa_override(*text);
    if (!set.is_null()) value = set;
  }
  return value;
}

}  // namespace

Json rocblas_targets_in_names(const std::vector<std::string>& names) {
  std::set<std::string> targets;
  for (auto& name : names) {
    if (!starts_with(name, "TensileLibrary")) continue;
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

Json rocblas_targets(ProbeContext& ctx, const std::string& lib) {
  std::string dir = lib + "/rocblas/library";
  FileStat st = ctx.fs().stat_follow(dir);
  if (st.type == FileType::missing && st.error.empty()) return nullptr;
  auto names = ctx.fs().list_dir(dir);
  if (!names) return unknown(names.error());
  return rocblas_targets_in_names(*names);
}

Json unit_hsa_override(std::string_view unit_text) {
  static constexpr std::string_view kName = "HSA_OVERRIDE_GFX_VERSION=";
  Json value = nullptr;
  for (auto line : split_lines(unit_text)) {
    std::string l = trim(line);
    if (!starts_with(l, "Environment=")) continue;
    // Environment="A=1" "HSA_OVERRIDE_GFX_VERSION=10.3.0" or unquoted words.
    for (size_t at = l.find(kName); at != std::string::npos; at = l.find(kName, at + 1)) {
      if (at > 0 && l[at - 1] != '=' && l[at - 1] != ' ' && l[at - 1] != '"' && l[at - 1] != '\'') continue;
      size_t from = at + kName.size(), end = from;
      while (end < l.size() && l[end] != ' ' && l[end] != '"' && l[end] != '\'') ++end;
      value = l.substr(from, end - from);
    }
  }
  return value;
}

void probe_rocm_bundles(ProbeContext& ctx, Json& section) {
  Json bundles = Json::array();
  Json service_override;
  bool service_read = false;
  for (const char* dir : kOllamaLibDirs) {
    Json targets = rocblas_targets(ctx, dir);
    if (targets.is_null()) continue;
    if (!service_read) service_override = ollama_service_override(ctx), service_read = true;
    bundles.push_back(Json{{"app", "ollama"}, {"path", dir}, {"rocblas_gfx", targets},
                           {"service_hsa_override", service_override}});
  }
  section["bundles"] = bundles;
}

}  // namespace rocmdoc
