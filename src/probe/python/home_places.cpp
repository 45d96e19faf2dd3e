#include "probe/python/home_places.h"

#include "base/text.h"

namespace rocmdoc {

namespace {

constexpr const char* kCondaInstalls[] = {"miniconda3", "anaconda3", "miniforge3", "mambaforge"};
// A home with more entries than this is not a person's: the rest are not
// looked through (each costs a few stats).
constexpr size_t kHomeEntryLimit = 2000;

bool is_directory(ProbeContext& ctx, const std::string& path) {
  return ctx.fs().stat_follow(path).type == FileType::directory;
}

// There, or not there for a reason other than absence: a listing that
// failed for it is worth a sentence.
bool worth_saying(ProbeContext& ctx, const std::string& path) {
  FileStat st = ctx.fs().stat(path);
  return st.type != FileType::missing || !st.error.empty();
}

class HomeSearch {
 public:
  HomeSearch(ProbeContext& ctx, std::string home) : ctx_(ctx), home_(std::move(home)) {}

  // A prefix whose bin/ exists; an error on the way (a directory the user
  // keeps private, a symlink loop) is said once per place.
  void maybe(const std::string& prefix, const char* found_by) {
    FileStat st = ctx_.fs().stat_follow(prefix + "/bin");
    if (st.type == FileType::directory) out_.prefixes.push_back({prefix, found_by, ""});
    else if (st.unreadable()) out_.not_searched.push_back(prefix + ": " + st.error);
  }

  void venvs() {
    maybe(home_ + "/venv", "home venv");
    maybe(home_ + "/.venv", "home venv");
    auto names = ctx_.fs().list_dir(home_);
    if (!names) {
      out_.not_searched.push_back(home_ + "/*/venv, " + home_ + "/*/.venv: " + names.error());
      return;
    }
    size_t looked = 0;
    for (auto& name : *names) {
      // Like the shell's ~/*: hidden directories (~/.cache, ~/.local) hold
      // tools' own files, not a user's projects.
      if (name.front() == '.' || name == "venv") continue;
      if (++looked > kHomeEntryLimit) {
        out_.not_searched.push_back(home_ + ": more than " + std::to_string(kHomeEntryLimit) +
                                    " entries; venvs below the rest were not looked for");
        break;
      }
      std::string dir = home_ + "/" + name;
      if (ctx_.fs().stat_follow(dir + "/pyvenv.cfg").type == FileType::regular) maybe(dir, "home venv");
      if (!is_directory(ctx_, dir)) continue;
      maybe(dir + "/venv", "home venv");
      maybe(dir + "/.venv", "home venv");
    }
  }

  void conda() {
    for (const char* install : kCondaInstalls) {
      std::string base = home_ + "/" + install;
      if (!is_directory(ctx_, base)) continue;
      maybe(base, "conda env");
      auto envs = ctx_.fs().list_dir(base + "/envs");
      if (!envs) {
        if (worth_saying(ctx_, base + "/envs")) out_.not_searched.push_back(envs.error());
        continue;
      }
      for (auto& env : *envs) maybe(base + "/envs/" + env, "conda env");
    }
  }

  PlaceSearch& result() { return out_; }

 private:
  ProbeContext& ctx_;
  std::string home_;
  PlaceSearch out_;
};

}  // namespace

PlaceSearch home_places(ProbeContext& ctx, const Json& home) {
  const std::string places = "~/.local, venvs, conda and pyenv in the home";
  if (is_unknown(home)) return PlaceSearch{{}, {places + ": " + unknown_reason(home)}};
  const std::string dir = home.get<std::string>();
  FileStat st = ctx.fs().stat_follow(dir);
  if (st.type != FileType::directory) {
    if (!st.error.empty()) return PlaceSearch{{}, {places + ": " + st.error}};
    // A live account without a home has nothing there; a recording that
    // did not keep the home cannot say so.
    if (ctx.machine().live) return {};
    return PlaceSearch{{}, {places + ": " + dir + ": not in this recording"}};
  }
  HomeSearch search(ctx, dir);
  search.venvs();
  search.conda();
  PlaceSearch out = std::move(search.result());
  PlaceSearch pyenv = pyenv_version_places(ctx, dir + "/.pyenv");
  out.prefixes.insert(out.prefixes.end(), pyenv.prefixes.begin(), pyenv.prefixes.end());
  out.not_searched.insert(out.not_searched.end(), pyenv.not_searched.begin(), pyenv.not_searched.end());
  return out;
}

PlaceSearch pyenv_version_places(ProbeContext& ctx, const std::string& root) {
  PlaceSearch out;
  const std::string versions = root + "/versions";
  auto names = ctx.fs().list_dir(versions);
  if (!names) {
    if (worth_saying(ctx, versions)) out.not_searched.push_back(names.error());
    return out;
  }
  for (auto& name : *names) {
    std::string prefix = versions + "/" + name;
    FileStat st = ctx.fs().stat_follow(prefix + "/bin");
    if (st.type == FileType::directory) out.prefixes.push_back({prefix, "pyenv version", ""});
    else if (!st.error.empty()) out.not_searched.push_back(prefix + ": " + st.error);
  }
  return out;
}

}  // namespace rocmdoc
