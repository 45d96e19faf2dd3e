// Who the install is for (the target user, home and venv), which PyTorch
// wheels fit the release, and what earlier installs left behind.
#include <algorithm>

#include "install/plan/planner_internal.h"
#include "base/version.h"

namespace rocmdoc::plan {

namespace {

std::string str_of(const Json& j, const char* key) {
  const Json& v = field(j, key);
  return v.is_string() ? v.get<std::string>() : "";
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

// The user to add to the groups and to own the venv: --user, else the one
// who ran sudo, else the one running rocmdoc (access.user.target says which).
void choose_user(Context& ctx, const std::string& user_home) {
  const Json& user = field(field(ctx.facts, "access"), "user");
  ctx.user = ctx.options.user;
  if (ctx.user.empty()) ctx.user = str_of(user, "target");
  if (ctx.user.empty()) ctx.user = str_of(user, "name");
  if (ctx.user.empty()) {
    // No name to give usermod or to own a venv: those steps are left out
    // (steps_*.cpp test user_known), never run with an empty name.
    const Json& target = field(user, "target");
    std::string why = is_unknown(target) ? unknown_reason(target) : is_unknown(user) ? unknown_reason(user) : "the facts name no user";
    ctx.note("The user to install for is not known (" + why + "), so the steps for that user are left out: the " +
             std::string("render/video groups, the check that they can open /dev/kfd") +
             (ctx.options.torch ? ", and the PyTorch venv" : "") + ". Run again with --user NAME to include them.");
    return;
  }
  ctx.home = user_home;
  if (ctx.home.empty()) {
    ctx.home = ctx.user == "root" ? "/root" : "/home/" + ctx.user;
    ctx.note("The home of " + ctx.user + " is taken to be " + ctx.home + " (not read from /etc/passwd).");
  }
  if (ctx.user == "root")
    ctx.note("Installing for root: to install for your own account, run rocmdoc with sudo from it, or pass --user NAME. "
             "Root opens /dev/kfd and /dev/dri without the render and video groups, so the plan adds it to none.");
  ctx.venv = ctx.options.venv.empty() ? ctx.home + "/" + ctx.recipes.venv_dir : ctx.options.venv;
}

// The newest stable torch built for the release's ROCm line.
std::optional<InstallRefusal> choose_torch(Context& ctx) {
  if (!ctx.options.torch) return std::nullopt;
  if (ctx.release->torch_gap) return InstallRefusal{"no-torch-wheels", ctx.release->torch_gap->reason, ctx.release->torch_gap->instead};
  const Wheel* best = nullptr;
  for (auto& w : ctx.matrix.wheels()) {
    if (w.channel != "release" || w.rocm != ctx.release->torch_rocm) continue;
    if (!best || compare_versions(w.torch, best->torch) > 0) best = &w;
  }
  if (!best)
    return InstallRefusal{"no-torch-wheels", "The matrix knows no PyTorch release built for ROCm " + ctx.release->torch_rocm + ".",
                          "Run with --no-torch, or pick another release with --rocm."};
  // A wheel whose GPU list is read and lacks the target the GPU runs (its
  // own, or the override's stand-in) has no kernels for it: the venv step
  // would install it and verify-torch fail at the end. No PyTorch then, as
  // with --no-torch, and the plan says why and what would work.
  // A list of low confidence that does not name it is not known to lack it
  // (Matrix::wheel_has_gfx): the plan installs it, and verify-torch tells.
  const std::string& runs_as = ctx.install_gfx.empty() ? ctx.gfx : ctx.install_gfx;
  if (!runs_as.empty() && ctx.matrix.wheel_has_gfx(*best, runs_as).is_false()) {
    std::string list;
    if (best->gfx)
      for (auto& g : *best->gfx) list += (list.empty() ? "" : ", ") + std::string(g);
    ctx.options.torch = false;
    ctx.plan->torch_left_out = "no PyTorch wheel has " + runs_as + "'s code";
    ctx.note("PyTorch " + std::string(best->torch) + "'s wheels for ROCm " + ctx.release->torch_rocm + " (" +
             std::string(best->index_url) + ") carry no code for " + runs_as +
             (list.empty() ? "" : " (their GPU list: " + list + ")") +
             ", so the plan installs no PyTorch (as with --no-torch): a later PyTorch release whose ROCm wheels list " +
             runs_as + ", or a source build with PYTORCH_ROCM_ARCH=" + runs_as + ", would have it.");
    return std::nullopt;
  }
  ctx.torch_version = std::string(best->torch);
  ctx.torch_index = std::string(best->index_url);
  // The venv uses the system python3: its version must have wheels.
  for (auto& i : field(field(ctx.facts, "python"), "interpreters")) {
    if (str_of(i, "kind") != "system" || str_of(i, "path") != "/usr/bin/python3") continue;
    std::string v = str_of(i, "version");
    if (!v.empty() && best->python && std::find(best->python->begin(), best->python->end(), v) == best->python->end())
      ctx.note("torch " + ctx.torch_version + " has no wheels for Python " + v + " (the system python3) on " +
               ctx.torch_index + "; pip will fail in the venv step.");
  }
  return std::nullopt;
}

void find_leftovers(Context& ctx) {
  const Json& rocm = field(ctx.facts, "rocm");
  // A deb822 release writes neither rocm.list nor the pin: an earlier
  // release's are leftovers then.
  std::vector<std::string> mine = {ctx.recipes.driver_list, ctx.recipes.rocm_list, ctx.recipes.pin_path};
  if (ctx.release->source_file) mine = {ctx.recipes.driver_list, ctx.release->source_file->path};
  auto add = [&](const std::string& file) {
    if (file.empty() || contains(mine, file) || contains(ctx.leftovers, file)) return;
    if (file == "/etc/apt/sources.list" || file == "/etc/apt/preferences") {
      ctx.note(file + " itself names AMD's repository: remove those lines by hand (rocmdoc moves whole files only).");
      return;
    }
    ctx.leftovers.push_back(file);
  };
  for (auto& s : field(rocm, "apt_sources")) add(str_of(s, "file"));
  for (auto& p : field(rocm, "apt_pins")) add(str_of(p, "file"));
  for (auto& p : field(rocm, "packages"))
    if (str_of(p, "origin") == "distro" && contains(ctx.recipes.shadowing_packages, str_of(p, "name")) &&
        !contains(ctx.shadowing, str_of(p, "name")))
      ctx.shadowing.push_back(str_of(p, "name"));
  std::sort(ctx.shadowing.begin(), ctx.shadowing.end());
}

}  // namespace rocmdoc::plan
