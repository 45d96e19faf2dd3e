// Base packages, headers, groups, the signing key, AMD's repositories and
// the pin, then apt's view of them: a simulation of the install that may
// remove nothing the user did not agree to, and the removal (asked for) of
// the distribution's own ROCm packages that would shadow AMD's.
#include "install/plan/planner_internal.h"

namespace rocmdoc::plan {

namespace {

PlanStep apt_base_step(const Context& ctx) {
  PlanStep s = step("apt-base", "");
  std::vector<std::string> packages = concat(ctx.recipes.base_packages, ctx.release->prerequisites);
  // Without a driver there is no headers step to bring the Python helpers.
  if (!ctx.options.driver) packages = concat(packages, ctx.recipes.python_packages);
  s.title = "Base packages: ";
  for (size_t i = 0; i < packages.size(); ++i) s.title += (i ? ", " : "") + packages[i];
  s.checks = {packages_installed(packages)};
  s.actions = {run({"apt-get", "update"}), apt_install(packages)};
  s.needs_root = true;
  return s;
}

PlanStep headers_step(const Context& ctx) {
  // Behind a kernel-reboot the run stops at that reboot, and the run after
  // it plans the headers of the kernel it booted (the package names carry
  // its release, unknown before): the running kernel's are not needed.
  if (ctx.behind_kernel_reboot()) {
    PlanStep s = step("headers", "The Python build helpers (the run after kernel-reboot adds the headers of the kernel it booted)");
    s.checks = {packages_installed(ctx.recipes.python_packages)};
    s.actions = {apt_install(ctx.recipes.python_packages)};
    s.needs_root = true;
    return s;
  }
  PlanStep s = step("headers", "Kernel headers for " + ctx.kernel + " and the Python build helpers");
  std::vector<std::string> packages = concat(plan_header_packages(ctx), ctx.recipes.python_packages);
  s.checks = {packages_installed(packages), path_exists("/lib/modules/" + ctx.kernel + "/build")};
  s.actions = {apt_install(packages)};
  s.needs_root = true;
  return s;
}

PlanStep groups_step(const Context& ctx) {
  PlanStep s = step("groups", "User " + ctx.user + " in the " + joined(ctx.recipes.groups, " and ") + " groups");
  s.checks = {user_in_groups(ctx.user, ctx.recipes.groups)};
  s.actions = {run({"usermod", "-a", "-G", joined(ctx.recipes.groups, ","), ctx.user})};
  s.needs_root = true;
  return s;
}

std::string parent_dir(const std::string& path) { return path.substr(0, path.rfind('/')); }

PlanStep key_step(const RecipeKey& k, const std::string& id, const std::string& what) {
  PlanStep s = step(id, k.fingerprint.empty() ? what + " (fingerprint NOT confirmed: see --trust-key)"
                                              : what + ", checked by fingerprint");
  s.checks = {key_fingerprint(k.keyring, k.fingerprint)};
  s.actions = {run({"install", "-d", "-m", "0755", parent_dir(k.keyring)}),
               run({"install", "-d", "-m", "0700", parent_dir(k.download)}), download_key(k.url, k.download, k.fingerprint),
               dearmor_key(k.download, k.keyring)};
  s.needs_root = true;
  return s;
}

struct Repo {
  std::string uri, arch, suite;  // suite: a deb822 file's; empty: the distribution's codename
};

// The Core SDK line's deb822 file names one repository per distribution.
std::string source_file_uri(const Context& ctx) { return ctx.release->source_file->uri_for(*ctx.distro); }

std::vector<Repo> rocm_repos(const Context& ctx) {
  if (ctx.release->source_file) return {{source_file_uri(ctx), ctx.recipes.rocm_arch, ctx.release->source_file->suite}};
  std::vector<Repo> out{{ctx.release->rocm_repo, ctx.recipes.rocm_arch, ""}};
  if (!ctx.release->graphics_repo.empty()) out.push_back({ctx.release->graphics_repo, ctx.recipes.rocm_arch, ""});
  return out;
}

std::string without_trailing_slash(std::string uri) {
  while (!uri.empty() && uri.back() == '/') uri.pop_back();
  return uri;
}

PlanStep probe_repos_step(const Context& ctx) {
  std::vector<Repo> repos = rocm_repos(ctx);
  if (ctx.options.driver) repos.insert(repos.begin(), {ctx.release->driver_repo, ctx.distro->driver_arch, ""});
  std::string suites = ctx.release->source_file ? ctx.release->source_file->suite : ctx.distro->repo_codename;
  PlanStep s = step("probe-repos", "AMD's repositories for " + suites + " exist (before a list names them)");
  for (auto& repo : repos) {
    std::string suite = repo.suite.empty() ? ctx.distro->repo_codename : repo.suite;
    s.checks.push_back(command_succeeds({"curl", "-fsSIL", "--proto", "=https", "--tlsv1.2", "-o", "/dev/null",
                                         without_trailing_slash(repo.uri) + "/dists/" + suite + "/Release"}));
  }
  return s;
}

// An apt configuration file, done when it holds exactly `content`.
PlanStep whole_file_step(const std::string& id, const std::string& title, const std::string& path,
                         const std::string& content) {
  PlanStep s = step(id, title);
  s.checks = {file_equals(path, content)};
  s.actions = {write_file(path, content, 0644)};
  s.needs_root = true;
  return s;
}

PlanStep list_step(const Context& ctx, const std::string& id, const std::string& title, const std::string& path,
                   const std::vector<Repo>& repos, const std::string& keyring) {
  std::string content;
  for (auto& repo : repos)
    content += ctx.recipes.list_line_for(repo.arch, keyring, repo.uri, ctx.distro->repo_codename) + "\n";
  return whole_file_step(id, title, path, content);
}

// The same step for a deb822 file: AMD's text with this distribution's URI
// and the keyring.
PlanStep source_file_step(const Context& ctx) {
  const RecipeSourceFile& f = *ctx.release->source_file;
  return whole_file_step("rocm-list", "ROCm " + ctx.release->version + " repository (" + f.path + ")", f.path,
                         f.content_for(*ctx.distro, ctx.key.keyring));
}

PlanStep pin_step(const Context& ctx) {
  return whole_file_step("pin", "Prefer AMD's packages over the distribution's (apt pin, priority 600)",
                         ctx.recipes.pin_path, ctx.recipes.pin_content);
}

PlanStep apt_update_step(const Context& ctx) {
  PlanStep s = step("apt-update", "apt knows AMD's packages (apt-get update)");
  std::string suite = " " + ctx.distro->repo_codename + "/main";
  // A deb822 URI ends in '/': matched without it, as apt prints it either way.
  std::string rocm_origin =
      ctx.release->source_file ? without_trailing_slash(source_file_uri(ctx)) : ctx.release->rocm_repo + suite;
  s.checks = {output_contains({"apt-cache", "policy", plan_rocm_packages(ctx).front()}, rocm_origin)};
  if (ctx.options.driver)
    s.checks.push_back(
        output_contains({"apt-cache", "policy", ctx.recipes.driver_packages.front()}, ctx.release->driver_repo + suite));
  s.actions = {run({"apt-get", "update"})};
  s.needs_root = true;
  return s;
}

std::vector<std::string> packages_to_install(const Context& ctx) {
  return ctx.options.driver ? concat(ctx.recipes.driver_packages, plan_rocm_packages(ctx)) : plan_rocm_packages(ctx);
}

PlanStep apt_simulate_step(const Context& ctx) {
  PlanStep s = step("apt-simulate", "A simulated install removes no package you did not agree to remove");
  s.checks = {apt_simulation(apt_simulate_install(packages_to_install(ctx)), ctx.shadowing)};
  return s;
}

// AMD's builds carry the Ubuntu release they were built for ("~24.04").
std::string amd_build_marker(const Context& ctx) {
  for (auto& d : ctx.recipes.distros)
    if (d.id == "ubuntu" && d.codename == ctx.distro->repo_codename) return "~" + d.version;
  return "";
}

PlanStep distro_rocm_step(const Context& ctx) {
  PlanStep s = step("distro-rocm", "Remove the distribution's own ROCm packages that shadow AMD's: " + joined(ctx.shadowing, ", "));
  s.checks = {packages_absent(ctx.shadowing, amd_build_marker(ctx))};
  s.actions = {run(concat({"apt-get", "remove", "-y"}, ctx.shadowing))};
  s.needs_root = true;
  return s;
}

}  // namespace

std::vector<std::string> plan_packages_to_install(const Context& ctx) { return packages_to_install(ctx); }
PlanStep plan_groups_step(const Context& ctx) { return groups_step(ctx); }

// The driver's repository is signed with the shared key; where the
// release's key is that key too, the two are one step.
const RecipeKey& plan_driver_key(const Context& ctx) { return ctx.release->key ? ctx.recipes.key : ctx.key; }

// The release's own packages, with the one built for this GPU's target
// where the recipe lists it (amdrocm10.0-gfx1100), else those for all GPUs.
std::vector<std::string> plan_rocm_packages(const Context& ctx) {
  const RecipeRelease& r = *ctx.release;
  if (r.rocm_packages.empty()) return ctx.recipes.rocm_packages;
  std::string for_gfx = r.package_for_gfx(ctx.install_gfx);
  return for_gfx.empty() ? r.rocm_packages : std::vector<std::string>{for_gfx};
}

void add_repository_steps(const Context& ctx, std::vector<PlanStep>& steps) {
  steps.push_back(apt_base_step(ctx));
  add_listed_kernel_steps(ctx, steps);
  if (ctx.options.driver) steps.push_back(headers_step(ctx));
  if (ctx.needs_groups()) steps.push_back(groups_step(ctx));
  steps.push_back(key_step(ctx.key, "key", "AMD's package signing key"));
  // The driver lives on repo.radeon.com under the shared key even where the
  // release's own repository has another (the Core SDK line): AMD's driver
  // guide signs amdgpu.list with rocm.gpg.
  const RecipeKey& driver_key = plan_driver_key(ctx);
  if (ctx.options.driver && driver_key.keyring != ctx.key.keyring)
    steps.push_back(key_step(driver_key, "driver-key", "AMD's driver signing key (" + driver_key.url + ")"));
  steps.push_back(probe_repos_step(ctx));
  if (ctx.options.driver)
    steps.push_back(list_step(ctx, "amdgpu-list", "Driver repository amdgpu " + ctx.release->driver, ctx.recipes.driver_list,
                              {{ctx.release->driver_repo, ctx.distro->driver_arch, ""}}, driver_key.keyring));
  if (ctx.release->source_file) {
    steps.push_back(source_file_step(ctx));  // AMD's guide gives this line no pin
  } else {
    steps.push_back(list_step(ctx, "rocm-list", "ROCm " + ctx.release->version + " repositories", ctx.recipes.rocm_list,
                              rocm_repos(ctx), ctx.key.keyring));
    steps.push_back(pin_step(ctx));
  }
  steps.push_back(apt_update_step(ctx));
  steps.push_back(apt_simulate_step(ctx));
  if (!ctx.shadowing.empty()) steps.push_back(distro_rocm_step(ctx));
}

}  // namespace rocmdoc::plan
