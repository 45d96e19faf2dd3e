// The kernel driver: enrol the module signing key under Secure Boot, install
// amdgpu-dkms (built for the running kernel), reboot, and see it loaded.
#include "install/plan/planner_internal.h"

namespace rocmdoc::plan {

namespace {

// The enrolment is staged now (mokutil asks for a one-time password) and
// finished at the next boot in the firmware's MokManager screen.
PlanStep mok_step(const Context& ctx) {
  const std::string& key = ctx.distro->mok_key;
  PlanStep s = step("mok", "Enrol the DKMS signing key for Secure Boot (asks a one-time password; confirm it at the next boot)");
  s.checks = {output_contains({"mokutil", "--test-key", key}, "is already enrolled")};
  // Creating the key is skipped by the tool itself when it exists.
  s.actions = {run(ctx.distro->mok_new_key), run({"mokutil", "--import", key})};
  s.needs_root = true;
  s.reboot_after = true;
  return s;
}

PlanStep dkms_step(const Context& ctx) {
  const std::string& package = ctx.recipes.driver_packages.front();
  PlanStep s = step("amdgpu-dkms", "AMD GPU driver " + ctx.release->driver + " (amdgpu-dkms, built for " + ctx.kernel + ")");
  s.checks = {packages_installed(ctx.recipes.driver_packages),
              output_contains({"dpkg-query", "-W", "-f=${Version}", package}, ctx.release->driver_package_marker),
              output_contains({"dkms", "status", "-m", "amdgpu", "-k", ctx.kernel}, "installed")};
  s.actions = {apt_install(ctx.recipes.driver_packages)};
  s.needs_root = true;
  s.reboot_after = true;
  return s;
}

PlanStep reboot_step() {
  PlanStep s = step("reboot", "Reboot to load the new driver (then run `rocmdoc install` again to carry on)");
  s.checks = {boot_changed()};
  s.actions = {reboot()};
  s.needs_root = true;
  return s;
}

// A DKMS build writes /sys/module/amdgpu/version; the in-kernel driver does
// not, so the file tells which one is running.
PlanStep driver_loaded_step() {
  PlanStep s = step("driver-loaded", "The amdgpu driver from DKMS is loaded and /dev/kfd exists");
  s.checks = {path_exists("/sys/module/amdgpu/version"), path_exists("/dev/kfd")};
  return s;
}

}  // namespace

void add_driver_steps(const Context& ctx, std::vector<PlanStep>& steps) {
  if (!ctx.options.driver) return;
  if (ctx.secure_boot) steps.push_back(mok_step(ctx));
  steps.push_back(dkms_step(ctx));
  steps.push_back(reboot_step());
  steps.push_back(driver_loaded_step());
}

}  // namespace rocmdoc::plan
