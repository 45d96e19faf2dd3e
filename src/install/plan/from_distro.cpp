// `install --from distro`: the distribution's own ROCm packages instead of
// AMD's repositories. The release they are and the GPU targets their
// libraries are built for come from the matrix (distributions.yaml,
// own_packages), the package names from distro-packages.yaml. A shorter
// plan than AMD's: no key, no lists, no pin, no driver, no reboot; the same
// pre-flight gates, groups, verification and PyTorch venv.
//
// Only apt is planned: the steps' package checks read dpkg's database and
// their locks are apt's, so on Fedora and Arch the plan is the one command
// for the user to run, given as a refusal.
#include <algorithm>

#include <re2/re2.h>

#include "install/plan/planner_internal.h"

namespace rocmdoc::plan {

namespace {

std::string text_at(const Json& facts, const char* section, const char* key) {
  const Json& v = field(field(facts, section), key);
  return v.is_string() ? v.get<std::string>() : "";
}

std::vector<std::string> texts(const MatrixTexts& list) { return {list.begin(), list.end()}; }

bool listed(const OwnPackages& limits, const std::string& gfx) {
  return std::find(limits.gpu_targets.begin(), limits.gpu_targets.end(), gfx) != limits.gpu_targets.end();
}

// Where rocmdoc knows no own packages of this distribution (or version).
InstallRefusal no_packages(const Context& ctx, const std::string& id, const std::string& version) {
  const MatrixDistribution* d = ctx.matrix.distribution(id);
  std::string who = distro_label(ctx);
  std::string amd = ctx.recipes.distro(id, version)
                        ? "Install AMD's ROCm instead: `rocmdoc install --from amd --dry-run` shows the plan."
                        : "Use AMD's packages: rocmdoc installs them on Ubuntu and Debian; for this distribution follow "
                          "AMD's install guide (https://rocm.docs.amd.com/projects/install-on-linux/).";
  if (d && !d->own_rocm)
    return {"no-distro-packages",
            who + " ships no ROCm packages of its own, so there is nothing to install --from distro.",
            amd};
  if (d && d->own_rocm)
    return {"no-distro-packages",
            "rocmdoc has no install recipe for " + who + "'s own ROCm packages, or does not know which release they are "
                "and which GPUs they are built for.",
            std::string(*d->own_rocm) + "; or: " + amd};
  return {"no-distro-packages",
          "rocmdoc knows no ROCm packages of " + (id.empty() ? std::string("this distribution") : who) + "'s own.", amd};
}

// dnf and pacman: the distribution's one command, for the user.
InstallRefusal not_planned(const Context& ctx, const RecipeOwnPackages& own, const std::string& id) {
  std::vector<std::string> argv = own.install_argv();
  argv.insert(argv.begin(), "sudo");
  // An enabled AMD ROCm repository offers packages of the same names
  // (rocminfo, at a higher priority): the command would then mix the two
  // builds (check's distro-rocm-packages-mixed-with-amd, once they are
  // installed). Its amdgpu and graphics repositories hold no ROCm packages.
  // dnf5 (Fedora 41 on) and dnf4 disable a repository in different words.
  std::string disable;
  for (auto& r : field(field(ctx.facts, "rocm"), "rpm_repos")) {
    if (field(r, "enabled") != true || field(r, "kind") != "rocm" || !field(r, "id").is_string()) continue;
    std::string repo = r["id"].get<std::string>();
    std::vector<std::string> off = own.manager == "zypper" ? std::vector<std::string>{"sudo", "zypper", "modifyrepo", "--disable", repo}
                                   : id == "fedora" ? std::vector<std::string>{"sudo", "dnf", "config-manager", "setopt", repo + ".enabled=0"}
                                                    : std::vector<std::string>{"sudo", "dnf", "config-manager", "--set-disabled", repo};
    disable += (disable.empty() ? "" : ", ") + std::string("`") + shell_words(off, false) + "`";
  }
  std::string first = disable.empty() ? ""
                                      : "First disable AMD's ROCm repository (" + disable +
                                            "): it offers packages of the same names, and the command would mix AMD's "
                                            "build with the distribution's. Then run ";
  return {"distro-packages-not-planned",
          distro_label(ctx) + "'s own ROCm packages install with " + own.manager +
              ", which rocmdoc's install steps do not drive (they check packages in dpkg's database and take apt's "
              "locks); it is one command.",
          (first.empty() ? "Run it yourself: `" : first + "it yourself: `") + shell_words(argv, false) +
              "`, add your user to the render and video groups (`sudo usermod -a -G render,video $USER`, then log in "
              "again), and check the result with `rocmdoc check`."};
}

PlanStep os_step(const Context& ctx, const std::string& id, const std::string& version, const std::string& codename) {
  PlanStep s = step("os", "System is " + distro_label(ctx) + (codename.empty() ? "" : " (" + codename + ")"));
  s.checks = {file_has_line("/etc/os-release", "ID=\"?" + RE2::QuoteMeta(id) + "\"?"),
              file_has_line("/etc/os-release", "VERSION_ID=\"?" + RE2::QuoteMeta(version) + "\"?")};
  return s;
}

// AMD's ROCm and the distribution's are two builds of the same libraries:
// AMD's goes first, by the user (rocmdoc does not remove a release).
PlanStep amd_rocm_step(const std::vector<std::string>& amd_packages) {
  // An install of AMD's has a hundred packages: the title names a few, the check all.
  std::vector<std::string> some(amd_packages.begin(), amd_packages.begin() + std::min<size_t>(amd_packages.size(), 3));
  std::string named = joined(some, ", ");
  if (amd_packages.size() > some.size()) named += " and " + std::to_string(amd_packages.size() - some.size()) + " more";
  PlanStep s = step("amd-rocm", "No ROCm from AMD's repository is installed (" + named +
                                    "): remove it first (`sudo apt autoremove rocm`, then `sudo apt autoremove rocm-core`)");
  s.checks = {packages_absent(amd_packages)};
  return s;
}

PlanStep simulate_step(const RecipeOwnPackages& own) {
  PlanStep s = step("distro-simulate", "A simulated install of the distribution's packages succeeds and removes nothing "
                                       "(if not: `sudo apt-get update`; on Ubuntu, universe enabled)");
  s.checks = {apt_simulation(apt_simulate_install(own.packages), {})};
  return s;
}

PlanStep packages_step(const Context& ctx, const RecipeOwnPackages& own) {
  PlanStep s = step("distro-packages", "The distribution's ROCm " + ctx.own_release.version + ": " + joined(own.packages, ", "));
  s.checks = {packages_installed(own.packages)};
  s.actions = {run({"apt-get", "update"}), apt_install(own.packages)};
  s.needs_root = true;
  return s;
}

// AMD's list and pin files, and AMD's packages, from the facts: the plan
// writes none of its own, so every one of them is a leftover.
void find_amd_leftovers(Context& ctx, std::vector<std::string>& amd_packages) {
  const Json& rocm = field(ctx.facts, "rocm");
  auto add = [&](const Json& entry) {
    const Json& named = field(entry, "file");
    std::string file = named.is_string() ? named.get<std::string>() : "";
    if (file.empty() || std::find(ctx.leftovers.begin(), ctx.leftovers.end(), file) != ctx.leftovers.end()) return;
    if (file == "/etc/apt/sources.list" || file == "/etc/apt/preferences") {
      ctx.note(file + " itself names AMD's repository: remove those lines by hand (rocmdoc moves whole files only).");
      return;
    }
    ctx.leftovers.push_back(file);
  };
  for (auto& s : field(rocm, "apt_sources")) add(s);
  for (auto& p : field(rocm, "apt_pins")) add(p);
  for (auto& p : field(rocm, "packages"))
    if (field(p, "origin") == "amd" && field(p, "name").is_string()) amd_packages.push_back(p["name"].get<std::string>());
  std::sort(amd_packages.begin(), amd_packages.end());
  amd_packages.erase(std::unique(amd_packages.begin(), amd_packages.end()), amd_packages.end());
}

// The release AMD's plan would install here (--from amd, no --rocm), or ""
// where it would refuse: what the distribution's release is compared with.
// The release AMD's plan installs for this GPU here, or "" with the reason
// its plan gives for none in `why`.
std::string amd_release_here(const Context& ctx, std::string& why) {
  InstallOptions o = ctx.options;
  o.rocm.clear();
  o.from = "amd";
  o.driver = false;  // a container may take AMD's user space too
  InstallPlan scratch;
  Context amd{ctx.recipes, ctx.matrix, o, ctx.facts};
  amd.plan = &scratch;
  std::vector<InstallRefusal> refusals;
  choose_platform(amd, refusals);
  if (!refusals.empty()) {
    why = refusals.front().reason;
    return "";
  }
  if (auto r = choose_gpu(amd)) {
    why = r->reason;
    return "";
  }
  if (auto r = choose_release(amd)) {
    why = r->reason;
    return "";
  }
  if (!amd.release) return "";
  return amd.release->version;
}

}  // namespace

bool distro_preferred(Context& ctx) {
  std::string id = text_at(ctx.facts, "distro", "id"), version = text_at(ctx.facts, "distro", "version_id");
  const RecipeOwnPackages* own = ctx.recipes.own_packages_for(id, version);
  if (!own || own->auto_prefer.empty() || own->manager != "apt") return false;
  const MatrixDistribution* d = ctx.matrix.distribution(id);
  const OwnPackages* limits = d ? d->own_packages_for(version) : nullptr;
  if (!limits || limits->gpu_targets.empty() || choose_gpu(ctx)) return false;
  return listed(*limits, ctx.gfx);
}

std::string distro_alternative(const Context& ctx, bool beside_amd_plan) {
  std::string id = text_at(ctx.facts, "distro", "id"), version = text_at(ctx.facts, "distro", "version_id");
  const RecipeOwnPackages* own = ctx.recipes.own_packages_for(id, version);
  const MatrixDistribution* d = ctx.matrix.distribution(id);
  const OwnPackages* limits = d ? d->own_packages_for(version) : nullptr;
  if (!own || own->manager != "apt" || !limits || !listed(*limits, ctx.gfx)) return "";
  return distro_label(ctx) + "'s own ROCm " + std::string(limits->release) + " is built for " + ctx.gfx +
         (beside_amd_plan ? " too" : "") + ": `rocmdoc install --from distro` plans it" + (beside_amd_plan ? " instead" : "") +
         " (an older release, no AMD driver; its plan says what else it gives up).";
}

PlanResult plan_from_distro(Context& ctx, const std::string& user_home, bool chosen_by_default) {
  InstallPlan& plan = *ctx.plan;
  plan.from = "distro";
  std::string id = text_at(ctx.facts, "distro", "id"), version = text_at(ctx.facts, "distro", "version_id");
  const RecipeOwnPackages* own = ctx.recipes.own_packages_for(id, version);
  const MatrixDistribution* d = ctx.matrix.distribution(id);
  const OwnPackages* limits = d ? d->own_packages_for(version) : nullptr;

  // Every reason that refuses, the most fundamental first. No driver is
  // installed, so a container is no reason; WSL2 is.
  std::vector<InstallRefusal> refusals;
  InstallOptions no_driver = ctx.options;
  no_driver.driver = false;
  if (auto r = platform_refusal(ctx.facts, no_driver)) refusals.push_back(*r);
  if (own && own->manager != "apt") refusals.push_back(not_planned(ctx, *own, id));
  else if (!own || !limits) refusals.push_back(no_packages(ctx, id, version));
  if (auto r = choose_gpu(ctx)) refusals.push_back(*r);
  if (!refusals.empty()) {
    InstallRefusal first = refusals.front();
    first.also.assign(refusals.begin() + 1, refusals.end());
    return first;
  }
  std::string release(limits->release), who = distro_label(ctx);
  std::string targets = joined(texts(limits->gpu_targets), ", ");
  if (!limits->gpu_targets.empty() && !listed(*limits, ctx.gfx)) {
    // AMD's way out where it has one here; where it has none either, the
    // two refusals would send the user to each other: name where the GPU is
    // supported instead.
    std::string amd_why, amd_release = amd_release_here(ctx, amd_why), elsewhere;
    if (amd_release.empty()) elsewhere = supported_elsewhere(ctx, ctx.gfx);
    return InstallRefusal{"gpu-not-in-distro-targets",
                          who + "'s own ROCm " + release + " is built for " + targets + " (" +
                              std::string(limits->targets_from) + "), not for " + ctx.gfx +
                              ": its libraries (rocBLAS and those on it) have no kernels for this GPU.",
                          !amd_release.empty()
                              ? "Install AMD's ROCm " + amd_release + ", which lists " + ctx.gfx +
                                    ": `rocmdoc install --from amd --dry-run` shows the plan."
                              : "AMD's repository has no release rocmdoc installs for it here either (`rocmdoc install --from amd "
                                "--dry-run` says why)." +
                                    (elsewhere.empty() ? " No distribution rocmdoc knows builds its own ROCm for " + ctx.gfx + "."
                                                       : elsewhere)};
  }
  if (!ctx.options.rocm.empty() && release != ctx.options.rocm && release.rfind(ctx.options.rocm + ".", 0) != 0)
    return InstallRefusal{"release-not-from-distro",
                          who + "'s own packages are ROCm " + release + "; --rocm " + ctx.options.rocm +
                              " names another release.",
                          "Leave --rocm out with --from distro, or use --from amd for ROCm " + ctx.options.rocm + "."};

  // The distribution's packages as the release the shared steps read.
  ctx.own_release.version = release;
  ctx.own_release.torch_rocm = own->torch_rocm;
  ctx.own_release.rocminfo = own->rocminfo;
  ctx.own_release.rocm_packages = own->packages;
  ctx.own_release.ld_so_conf = false;
  ctx.release = &ctx.own_release;
  ctx.install_gfx = ctx.gfx;
  ctx.distro = ctx.recipes.distro(id, version);

  if (chosen_by_default)
    ctx.note("rocmdoc plans " + who + "'s own ROCm packages without --from because " + own->auto_prefer +
             "; `--from amd` plans AMD's repositories instead.");
  if (limits->gpu_targets.empty())
    ctx.note("Which GPU targets " + who + "'s ROCm libraries are built for is not known to rocmdoc; " + ctx.gfx +
             " may have no kernels in them.");
  else
    ctx.note(who + "'s ROCm " + release + " is built for " + targets + " (" + std::string(limits->targets_from) +
             "; confidence " + std::string(limits->confidence) + "), " + ctx.gfx + " among them.");
  if (limits->unconfirmed) ctx.note("Not confirmed: " + std::string(*limits->unconfirmed) + ".");
  for (auto& n : own->notes) ctx.note(n);
  choose_user(ctx, user_home);
  if (auto r = choose_torch(ctx)) return *r;
  std::vector<std::string> amd_packages;
  find_amd_leftovers(ctx, amd_packages);

  plan.distro = id + " " + version;
  plan.distro_label = distro_label(ctx);
  plan.codename = text_at(ctx.facts, "distro", "codename");
  plan.rocm = release;
  plan.driver = "";
  plan.user = ctx.user;
  plan.venv = ctx.options.torch && ctx.user_known() ? ctx.venv : "";
  // The recipe's sentences, with this machine's names in them.
  std::string amd_why;
  std::string amd_release = amd_release_here(ctx, amd_why);
  // Where AMD's repository has no release for this GPU here, a line comparing
  // with "the release AMD's plan installs" has nothing to compare with: the
  // recipe's lines for that case say what the packages are and why AMD's
  // plan has none.
  std::vector<std::string> lines;
  bool amd_none_said = false;
  for (auto& g : ctx.recipes.own_gives_up) {
    if (amd_release.empty() && g.find("{amd_release}") != std::string::npos && !ctx.recipes.own_gives_up_amd_none.empty()) {
      if (!amd_none_said) lines.insert(lines.end(), ctx.recipes.own_gives_up_amd_none.begin(), ctx.recipes.own_gives_up_amd_none.end());
      amd_none_said = true;
      continue;
    }
    lines.push_back(g);
  }
  if (amd_why.empty()) amd_why = "AMD's plan for this machine names no release.";
  for (auto g : lines) {
    g = replace_all(g, "{name}", who);
    g = replace_all(g, "{release}", release);
    g = replace_all(g, "{gfx}", ctx.gfx);
    g = replace_all(g, "{targets}", targets.empty() ? "targets rocmdoc does not know" : targets);
    g = replace_all(g, "{amd_release}", amd_release.empty() ? "no release (none it covers fits here)" : "ROCm " + amd_release);
    g = replace_all(g, "{amd_why}", amd_why);
    plan.gives_up.push_back(g);
  }

  std::vector<PlanStep>& steps = plan.steps;
  steps.push_back(os_step(ctx, id, version, plan.codename));
  steps.push_back(plan_disk_step(ctx.recipes.own_disk));
  steps.push_back(plan_lock_step(ctx));
  steps.push_back(plan_dpkg_step());
  if (!amd_packages.empty()) steps.push_back(amd_rocm_step(amd_packages));
  if (!ctx.leftovers.empty()) steps.push_back(plan_leftovers_step(ctx));
  steps.push_back(simulate_step(*own));
  if (ctx.needs_groups()) steps.push_back(plan_groups_step(ctx));
  steps.push_back(packages_step(ctx, *own));
  if (ctx.user_known()) steps.push_back(plan_verify_rocm_step(ctx));
  add_torch_steps(ctx, steps);
  return plan;
}

}  // namespace rocmdoc::plan
