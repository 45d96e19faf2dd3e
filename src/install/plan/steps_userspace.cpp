// ROCm itself, the loader and PATH set-up, and a verification as the target
// user: the GPU appears in rocminfo with the gfx the plan expects, and
// /dev/kfd opens.
#include "install/plan/planner_internal.h"

namespace rocmdoc::plan {

namespace {

PlanStep rocm_step(const Context& ctx) {
  std::vector<std::string> packages = plan_rocm_packages(ctx);
  const std::string& package = packages.front();
  PlanStep s = step("rocm", "ROCm " + ctx.release->version + " (" + package + ")");
  // The legacy `rocm` package carries the release in its version; the Core
  // SDK's carry it in their names (amdrocm10.0), and verify-rocm asks amd-smi.
  if (ctx.release->rocm_packages.empty())
    s.checks = {package_version(package, ctx.release->version + "."),
                output_contains({"cat", "/opt/rocm/.info/version"}, ctx.release->version)};
  else
    s.checks = {packages_installed(packages)};
  s.actions = {apt_install(packages)};
  s.needs_root = true;
  return s;
}

PlanStep ldconf_step(const Context& ctx) {
  PlanStep s = step("ldconf", "The dynamic loader finds ROCm's libraries (" + ctx.recipes.ld_conf_path + ")");
  s.checks = {file_equals(ctx.recipes.ld_conf_path, ctx.recipes.ld_conf_content),
              output_contains({"ldconfig", "-p"}, "libamdhip64.so")};
  s.actions = {write_file(ctx.recipes.ld_conf_path, ctx.recipes.ld_conf_content, 0644), run({"ldconfig"})};
  s.needs_root = true;
  return s;
}

// The packages register their commands with update-alternatives; nothing
// to write, only to confirm.
PlanStep path_step() {
  PlanStep s = step("path", "ROCm's commands are registered (update-alternatives --list rocm)");
  s.checks = {command_succeeds({"update-alternatives", "--list", "rocm"})};
  return s;
}

PlanStep verify_rocm_step(const Context& ctx) {
  PlanStep s = step("verify-rocm", "As " + ctx.user + ": /dev/kfd opens and rocminfo shows the GPU (" + ctx.gfx + ")");
  std::vector<std::string> rocminfo = ctx.release->rocminfo;
  if (rocminfo.empty()) rocminfo = {"/opt/rocm/bin/rocminfo"};
  s.checks = {command_succeeds({"test", "-r", "/dev/kfd", "-a", "-w", "/dev/kfd"}, true),
              output_contains(rocminfo, ctx.gfx, true)};
  if (!ctx.release->version_argv.empty())
    s.checks.push_back(output_contains(ctx.release->version_argv, ctx.release->version_text, true));
  return s;
}

PlanStep venv_pkg_step(const Context& ctx) {
  PlanStep s = step("venv-pkg", "Python's venv module (python3-venv)");
  s.checks = {packages_installed(ctx.recipes.venv_packages)};
  s.actions = {apt_install(ctx.recipes.venv_packages)};
  s.needs_root = true;
  return s;
}

PlanStep venv_step(const Context& ctx) {
  PlanStep s = step("venv", "Virtual environment " + ctx.venv + " (owned by " + ctx.user + ")");
  s.checks = {command_succeeds({ctx.venv + "/bin/python", "-c", "import sys"}, true)};
  s.actions = {run({"python3", "-m", "venv", ctx.venv}, true)};
  return s;
}

PlanStep torch_step(const Context& ctx) {
  std::string local = "+rocm" + ctx.release->torch_rocm;
  PlanStep s = step("torch", "PyTorch " + ctx.torch_version + local + " in the venv (" + ctx.torch_index + ")");
  s.checks = {command_succeeds({ctx.venv + "/bin/python", "-c",
                                "import sys, torch; sys.exit(0 if torch.version.hip and '" + local +
                                    "' in torch.__version__ else 1)"},
                               true)};
  s.actions = {run({ctx.venv + "/bin/pip", "install", "torch==" + ctx.torch_version, "torchvision", "torchaudio",
                    "--index-url", ctx.torch_index},
                   true)};
  return s;
}

PlanStep verify_torch_step(const Context& ctx) {
  std::vector<std::string> argv = {ctx.venv + "/bin/python", "-c",
                                   "import sys, torch; ok = torch.cuda.is_available() and torch.version.hip is not None; "
                                   "sys.exit(0 if ok and float((torch.ones(4, device='cuda') * 2).sum()) == 8.0 else 1)"};
  std::string title = "PyTorch sees the GPU and computes on it";
  // A GPU installed for a stand-in computes only with the override (the
  // wheel has no code for its own target), and rocmdoc's own environment
  // has none under sudo, which resets it: the check sets it.
  if (!ctx.hsa_override.empty()) {
    argv.insert(argv.begin(), {"env", "HSA_OVERRIDE_GFX_VERSION=" + ctx.hsa_override});
    title += " with HSA_OVERRIDE_GFX_VERSION=" + ctx.hsa_override + " (as " + ctx.install_gfx + ")";
  }
  PlanStep s = step("verify-torch", title);
  s.checks = {command_succeeds(std::move(argv), true)};
  return s;
}

}  // namespace

PlanStep plan_verify_rocm_step(const Context& ctx) { return verify_rocm_step(ctx); }

void add_userspace_steps(const Context& ctx, std::vector<PlanStep>& steps) {
  steps.push_back(rocm_step(ctx));
  if (ctx.release->ld_so_conf) {
    steps.push_back(ldconf_step(ctx));
    steps.push_back(path_step());
  }
  if (ctx.user_known()) steps.push_back(verify_rocm_step(ctx));
}

void add_torch_steps(const Context& ctx, std::vector<PlanStep>& steps) {
  if (!ctx.options.torch || !ctx.user_known()) return;
  steps.push_back(venv_pkg_step(ctx));
  steps.push_back(venv_step(ctx));
  steps.push_back(torch_step(ctx));
  steps.push_back(verify_torch_step(ctx));
}

}  // namespace rocmdoc::plan
