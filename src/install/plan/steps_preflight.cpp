// Pre-flight: the gates and preparations that come before the first package
// is installed (issue 5, "Pre-flight before the first change"): the system
// is the one planned for, there is room, apt is free, Secure Boot is known,
// the running kernel's headers can be installed, and no stale AMD list or
// pin will break apt.
#include <re2/re2.h>

#include "install/plan/planner_internal.h"

namespace rocmdoc::plan {

namespace {

const char* kSecureBootVar = "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c";

PlanStep os_step(const Context& ctx) {
  PlanStep s = step("os", "System is " + distro_label(ctx) + " (" + ctx.distro->codename + ") on x86_64");
  // Read as files, so a recorded machine answers too; os-release may quote values.
  s.checks = {file_has_line("/etc/os-release", "ID=\"?" + RE2::QuoteMeta(ctx.distro->id) + "\"?"),
              file_has_line("/etc/os-release", "VERSION_ID=\"?" + RE2::QuoteMeta(ctx.distro->version) + "\"?"),
              output_contains({"uname", "-m"}, "x86_64")};
  return s;
}

PlanStep kernel_step(const Context& ctx) {
  PlanStep s = step("kernel", "Running kernel is " + ctx.kernel +
                                  (ctx.behind_kernel_reboot()
                                       ? " (the plan boots a listed kernel first, and the run after that reboot plans "
                                         "the driver for it)"
                                       : " (the plan installs for it)"));
  // What `uname -r` prints, read from the kernel's own file (also on a recorded machine).
  s.checks = {file_has_line("/proc/sys/kernel/osrelease", RE2::QuoteMeta(ctx.kernel))};
  return s;
}


PlanStep lock_step(const Context& ctx) {
  PlanStep s = step("apt-lock", "No other package manager is running (apt and dpkg locks free)");
  s.checks = {lock_free(ctx.recipes.apt_locks)};
  return s;
}

// Secure Boot off: a gate that re-reads the firmware variable. On: mokutil
// is installed now, and the `mok` step enrols the DKMS key before the driver.
PlanStep secure_boot_step(const Context& ctx) {
  if (!ctx.efi) {
    PlanStep s = step("secureboot", "No UEFI firmware: Secure Boot does not apply");
    s.checks = {path_absent("/sys/firmware/efi")};
    return s;
  }
  if (!ctx.secure_boot) {
    PlanStep s = step("secureboot", "Secure Boot is off: the driver module needs no signature");
    // The variable: 4 bytes of attributes, then 1 (on) or 0 (off).
    s.checks = {file_byte_equals(kSecureBootVar, 4, 0)};
    return s;
  }
  PlanStep s = step("secureboot", "Secure Boot is on: install mokutil to enrol the driver's signing key");
  s.checks = {packages_installed(ctx.recipes.secure_boot_packages)};
  s.actions = {apt_install(ctx.recipes.secure_boot_packages)};
  s.needs_root = true;
  return s;
}

// A kill or a power cut during an install leaves dpkg half done, and apt
// refuses every later install until `dpkg --configure -a` finishes it: the
// re-run does that first (asked like every change).
PlanStep dpkg_step() {
  PlanStep s = step("dpkg", "dpkg finished its last run (an interrupted install is completed first)");
  s.checks = {dpkg_settled()};
  s.actions = {run({"dpkg", "--configure", "-a"})};
  s.needs_root = true;
  return s;
}

std::vector<std::string> header_packages(const Context& ctx) {
  std::vector<std::string> out;
  for (auto& h : ctx.distro->headers) out.push_back(replace_all(h, "{kernel}", ctx.kernel));
  return out;
}

// Before any change, so apt may not have read its lists yet (a fresh cloud
// image has none): when the gate stops a run, its title says what to try.
PlanStep headers_available_step(const Context& ctx) {
  // Behind a kernel-reboot the running kernel's headers are not needed (an
  // unlisted kernel's may be gone from the archive): the listed kernel's
  // package is what must install.
  if (ctx.behind_kernel_reboot()) {
    PlanStep s = step("headers-available", "The listed kernel " + ctx.listed_kernel_package +
                                               " can be installed (if not: `sudo apt-get update`)");
    s.checks = {apt_simulation(apt_simulate_install({ctx.listed_kernel_package}), {})};
    return s;
  }
  PlanStep s = step("headers-available", "Headers for the running kernel " + ctx.kernel +
                                             " can be installed (if not: `sudo apt-get update`; if still not, upgrade "
                                             "the kernel and reboot into it)");
  s.checks = {apt_simulation(apt_simulate_install(header_packages(ctx)), {})};
  return s;
}

// Lists and pins of earlier installs (amdgpu-install's, a hand-made
// rocm.list with another version) make apt fail or pick other versions:
// moved aside, never deleted, so the user can look at them.
PlanStep leftovers_step(const Context& ctx) {
  PlanStep s = step("leftover-repos", "Move aside earlier AMD repository and pin files");
  s.needs_root = true;
  s.actions.push_back(run({"install", "-d", "-m", "0755", ctx.recipes.leftovers_to}));
  for (auto& f : ctx.leftovers) {
    std::string name = f.substr(f.rfind('/') + 1);
    s.checks.push_back(path_absent(f));
    s.actions.push_back(run({"mv", "--", f, ctx.recipes.leftovers_to + "/" + name}));
  }
  return s;
}

// AMD's guide for the Core SDK line: uninstall ROCm 7.2.4 or older first.
// A gate, not a removal: the user decides what goes with the old release.
PlanStep older_rocm_step(const Context& ctx) {
  std::string names;
  for (auto& n : ctx.release->remove_first) names += (names.empty() ? "" : ", ") + n;
  // The title is what a run stops with: it names both ways forward.
  std::string instead = keep_older_instead(ctx);
  PlanStep s = step("older-rocm", "No earlier ROCm is installed (" + names + "): AMD's guide for ROCm " + ctx.release->version +
                                      " says to uninstall it first: " + ctx.release->remove_first_how +
                                      (instead.empty() ? "" : "; " + instead));
  s.checks = {packages_absent(ctx.release->remove_first)};
  return s;
}

}  // namespace

std::vector<std::string> plan_header_packages(const Context& ctx) { return header_packages(ctx); }
PlanStep plan_lock_step(const Context& ctx) { return lock_step(ctx); }

PlanStep plan_disk_step(const std::vector<DiskNeed>& needs) {
  PlanStep s = step("disk", "Enough free disk space");
  for (auto& d : needs) s.checks.push_back(free_space(d.path, d.min_bytes));
  return s;
}

PlanStep plan_dpkg_step() { return dpkg_step(); }
PlanStep plan_leftovers_step(const Context& ctx) { return leftovers_step(ctx); }

void add_preflight_steps(const Context& ctx, std::vector<PlanStep>& steps) {
  steps.push_back(os_step(ctx));
  steps.push_back(kernel_step(ctx));
  steps.push_back(plan_disk_step(ctx.recipes.disk));
  steps.push_back(lock_step(ctx));
  steps.push_back(dpkg_step());
  if (ctx.options.driver) {
    steps.push_back(secure_boot_step(ctx));
    steps.push_back(headers_available_step(ctx));
  }
  if (!ctx.release->remove_first.empty()) steps.push_back(older_rocm_step(ctx));
  if (!ctx.leftovers.empty()) steps.push_back(leftovers_step(ctx));
}

}  // namespace rocmdoc::plan
