// python: the interpreters a user may run ROCm's PyTorch with, and every
// torch install with the build it is (ROCm, CUDA, CPU) — all read from
// files, never by running Python or importing torch.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "probe/python/imports.h"
#include "probe/python/interpreters.h"
#include "probe/python/site_packages.h"
#include "probe/python/torch.h"
#include "probe/probe.h"

namespace rocmdoc {

namespace {

constexpr size_t kVersionPyLimit = 256 * 1024;

using Importers = std::map<std::string, std::set<std::string>>;  // resolved site-packages -> interpreter paths

Importers importers_of(ProbeContext& ctx, const InterpreterSearch& found) {
  Importers by_site;
  for (auto& py : found.interpreters)
    for (auto& dir : imported_site_packages(ctx, py, found.home))
      if (auto real = ctx.fs().resolve(dir)) by_site[*real].insert(py.path);
  return by_site;
}

Json torch_install(ProbeContext& ctx, const SitePackages& sp, const Importers& importers) {
  std::string file = sp.path + "/torch/version.py";
  auto text = ctx.fs().read_file(file, kVersionPyLimit);
  Json info = Json::object();
  if (text) {
    info = parse_torch_version_py(file, *text);
  } else {
    for (const char* k : {"version", "hip", "cuda", "build"}) info[k] = unknown(text.error());
  }
  Json j = Json::object();
  j["site_packages"] = sp.path;
  for (const char* k : {"version", "hip", "cuda", "build"}) j[k] = info[k];
  j["python_version"] = sp.python_version;
  Json paths = Json::array();
  if (auto it = importers.find(sp.path); it != importers.end())
    for (auto& path : it->second) paths.push_back(path);
  j["interpreters"] = paths;
  return j;
}

// python.torch in the order fixes should name them, since they name
// python.torch[0] (its interpreters' pip, its site-packages): the user's
// choice first (--python, an activated VIRTUAL_ENV or CONDA_PREFIX), then a
// ROCm build (the one that can use an AMD GPU: telling the user of
// "No module named 'torch'" to switch to a CPU torch helps nobody), then by
// how its interpreters were found (PATH before a home venv before a common
// location); site-packages' path order among equals.
void order_torch(Json& torch, const InterpreterSearch& found) {
  // The first kChosen ways are the user's own choice of environment.
  static const std::vector<std::string> kFoundBy = {"--python",  "VIRTUAL_ENV", "CONDA_PREFIX",  "PATH",
                                                    "rocmdoc install", "home venv", "conda env", "pyenv version",
                                                    "common location"};
  constexpr size_t kChosen = 3;
  std::map<std::string, size_t> rank_of;  // interpreter path -> its found_by's rank
  for (auto& py : found.interpreters) {
    auto at = std::find(kFoundBy.begin(), kFoundBy.end(), py.found_by);
    rank_of[py.path] = static_cast<size_t>(at - kFoundBy.begin());
  }
  auto best_rank = [&](const Json& t) {
    size_t best = kFoundBy.size();
    for (auto& path : t["interpreters"])
      if (auto it = rank_of.find(path.get<std::string>()); it != rank_of.end()) best = std::min(best, it->second);
    return best;
  };
  auto key = [&](const Json& t) {
    size_t rank = best_rank(t);
    bool chosen = rank < kChosen;
    bool rocm = t["build"].is_string() && t["build"] == "rocm";
    return std::make_tuple(!chosen, !rocm, rank);
  };
  std::stable_sort(torch.begin(), torch.end(), [&](const Json& a, const Json& b) { return key(a) < key(b); });
}

Json list_or_empty_recording(const Json& list, bool looked_anywhere, bool live, const std::string& why) {
  // On a recording, finding none of the places at all means they were not
  // recorded, not that the machine lacks them.
  if (!looked_anywhere && !live) return unknown(why);
  return list;
}

}  // namespace

Json probe_python(ProbeContext& ctx, const Json&) {
  InterpreterSearch found = find_python_interpreters(ctx);
  SitePackagesSearch sites = find_site_packages(ctx, found);
  bool live = ctx.machine().live;
  Importers importers = importers_of(ctx, found);

  Json interpreters = Json::array();
  for (auto& py : found.interpreters) interpreters.push_back(py.to_json());
  Json torch = Json::array();
  Json searched = Json::array();
  for (auto& sp : sites.directories) {
    searched.push_back(sp.path);
    if (ctx.fs().stat_follow(sp.path + "/torch").type == FileType::directory) torch.push_back(torch_install(ctx, sp, importers));
  }
  order_torch(torch, found);
  Json not_searched = Json::array();
  for (auto& s : found.not_searched) not_searched.push_back(s);
  for (auto& s : sites.not_searched) not_searched.push_back(s);

  Json section = Json::object();
  section["interpreters"] =
      list_or_empty_recording(interpreters, found.any_directory_exists, live,
                              "this recording holds none of the directories searched for interpreters "
                              "(PATH's, /usr/bin, /usr/local/bin, the home's)");
  section["python3_on_path"] = found.python3_on_path;
  section["torch"] = list_or_empty_recording(torch, !sites.directories.empty(), live,
                                             "this recording holds no site-packages directory");
  section["site_packages_searched"] = searched;
  section["not_searched"] = not_searched;
  return section;
}

}  // namespace rocmdoc
