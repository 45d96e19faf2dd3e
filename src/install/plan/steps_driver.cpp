// The kernel driver: enrol the module signing key under Secure Boot, install
// amdgpu-dkms (built for the running kernel), reboot, and see it loaded.
#include <re2/re2.h>

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
  PlanStep s =
      step("amdgpu-dkms", "AMD GPU driver " + ctx.release->driver + " (amdgpu-dkms, built for " + ctx.driver_kernel() + ")");
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

// The listed kernel's package (on Ubuntu the meta package brings its headers
// too; on Debian the headers step of the run after the reboot does).
// Installed is not enough: on Ubuntu 22.04 running HWE 6.5 the HWE package
// is installed at 6.5's version, and apt upgrades it to 6.8's. A meta
// package's version starts with its kernel's series (6.8.0.60.62~22.04.1,
// Debian's linux-image-amd64 6.1.119-1).
// What apt would install: a meta package follows the distribution's newest
// series of its kind (linux-generic-hwe-24.04 is 7.0 from 24.04.5 on, where
// 10.0.0 lists HWE 6.17), so the run stops here, by apt's lists as they are
// (apt-base updates them where it installs anything), before it installs a
// kernel the release does not list. The Version field of `apt-cache show` is
// not translated (apt-cache policy's "Candidate:" is). It asks for apt's
// candidate, not what is installed: with the package installed at the listed
// series and a newer candidate, it stops too, and its title says to reboot.
PlanStep kernel_candidate_step(const Context& ctx) {
  const std::string& series = ctx.listed_kernel_package_series;
  PlanStep s = step("kernel-candidate", "apt's " + ctx.listed_kernel_package + " is a " + series +
                                            " kernel (if not: it follows a series ROCm " + ctx.release->version +
                                            " does not list; use --keep-kernel, or install a listed kernel yourself; "
                                            "where one is installed already, reboot into it)");
  s.checks = {output_contains({"apt-cache", "show", "--no-all-versions", ctx.listed_kernel_package}, "Version: " + series + ".")};
  return s;
}

PlanStep listed_kernel_step(const Context& ctx) {
  PlanStep s = step("listed-kernel", "A kernel ROCm " + ctx.release->version + " lists here (" + ctx.listed_kernel_labels +
                                         "): " + ctx.listed_kernel_package + " at its " + ctx.listed_kernel_package_series + " series");
  s.checks = {package_version(ctx.listed_kernel_package, ctx.listed_kernel_package_series + ".")};
  s.actions = {apt_install({ctx.listed_kernel_package})};
  s.needs_root = true;
  return s;
}

// Done when the running kernel is in a listed series, read as `uname -r`
// prints it. A reboot that boots another kernel stops the next run at this
// step with the reason and the way on (the executor does not ask for a
// second reboot).
PlanStep kernel_reboot_step(const Context& ctx) {
  std::string series;
  for (auto& s : ctx.listed_kernel_series) series += (series.empty() ? "" : "|") + RE2::QuoteMeta(s);
  PlanStep s = step("kernel-reboot", "Reboot into the listed kernel (then run `rocmdoc install` again to carry on)");
  s.checks = {file_has_line("/proc/sys/kernel/osrelease", "(?:" + series + ")(?:[.-].*)?")};
  s.actions = {reboot()};
  s.needs_root = true;
  s.if_still_not_done =
      "choose the listed kernel in GRUB's menu under \"Advanced options\", or run with --keep-kernel to build the driver "
      "for the running one";
  return s;
}

}  // namespace

void add_listed_kernel_steps(const Context& ctx, std::vector<PlanStep>& steps) {
  if (!ctx.behind_kernel_reboot()) return;
  steps.push_back(kernel_candidate_step(ctx));
  steps.push_back(listed_kernel_step(ctx));
  steps.push_back(kernel_reboot_step(ctx));
}

void add_driver_steps(const Context& ctx, std::vector<PlanStep>& steps) {
  if (!ctx.options.driver) return;
  if (ctx.secure_boot) steps.push_back(mok_step(ctx));
  steps.push_back(dkms_step(ctx));
  steps.push_back(reboot_step());
  steps.push_back(driver_loaded_step());
}

}  // namespace rocmdoc::plan
