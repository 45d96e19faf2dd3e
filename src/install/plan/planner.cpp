// build_install_plan: refusals first, then the decisions, then the steps in
// the reference's order (install.md §8) with the pre-flight gates between.
#include "install/plan/planner.h"

#include <algorithm>
#include <cctype>

#include "install/plan/planner_internal.h"
#include "rules/derived_facts.h"

namespace rocmdoc {

const std::vector<std::string>& reference_step_ids() {
  static const std::vector<std::string> ids = {
      "os",          "kernel",    "disk",        "secureboot",    "apt-base", "kernel-candidate", "listed-kernel", "kernel-reboot", "headers", "groups",
      "key",         "driver-key", "probe-repos", "amdgpu-list", "rocm-list", "pin",     "apt-update",    "distro-rocm",
      "mok",         "amdgpu-dkms", "reboot",    "driver-loaded", "rocm",     "ldconf",        "path",
      "verify-rocm", "venv-pkg",  "venv",        "torch",         "verify-torch"};
  return ids;
}

const std::vector<std::string>& preflight_step_ids() {
  static const std::vector<std::string> ids = {"apt-lock", "dpkg", "headers-available", "older-rocm", "leftover-repos", "apt-simulate"};
  return ids;
}

std::string plan_key(const InstallPlan& plan) {
  std::string distro = plan.distro;
  for (auto& c : distro)
    if (c == ' ') c = '-';
  std::string key = "install " + distro + " rocm-" + plan.rocm;
  // The distribution's 7.1.0 is not AMD's: another plan, another journal.
  if (plan.from == "distro") key += " distro";
  if (!plan.driver.empty()) key += " driver-" + plan.driver;
  for (auto& s : plan.steps)
    if (s.id == "torch") key += " torch";
  return key;
}

PlanResult build_install_plan(PlanInput input) {
  if (!input.facts.contains("gpus") || !input.facts.contains("target")) add_derived_facts(input.facts, *input.matrix, std::nullopt);
  InstallPlan plan;
  // The plan's own copy: a machine whose only AMD GPU is an APU's installs
  // no driver, whatever --no-driver said (below).
  InstallOptions options = input.options;
  plan::Context ctx{*input.recipes, *input.matrix, options, input.facts};
  ctx.plan = &plan;
  // The distribution's own packages: asked for, or (without --from) where the
  // recipe documents them as the simpler path for this GPU.
  if (input.options.from == "distro") return plan::plan_from_distro(ctx, input.user_home, false);
  if (input.options.from.empty() && plan::distro_preferred(ctx)) return plan::plan_from_distro(ctx, input.user_home, true);
  // Every reason that refuses, the most fundamental first: a container on
  // a host without an AMD GPU is told both, not one after the other.
  std::vector<InstallRefusal> refusals;
  plan::choose_platform(ctx, refusals);
  if (auto r = plan::choose_gpu(ctx)) refusals.push_back(*r);
  if (!refusals.empty()) {
    // "Install the driver on the host" is no advice for a host that has no
    // AMD GPU either (the next reason): that one comes first there.
    bool host_without_gpu = std::any_of(refusals.begin(), refusals.end(), [](auto& r) { return r.id == "no-amd-gpu"; });
    for (auto& r : refusals)
      if (r.id == "container-driver" && host_without_gpu && !r.instead.empty()) {
        r.instead[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(r.instead[0])));
        r.instead = "First the host needs an AMD GPU (the next reason); with one, " + r.instead;
      }
    InstallRefusal first = refusals.front();
    first.also.assign(refusals.begin() + 1, refusals.end());
    return first;
  }
  // AMD's install guides give Ryzen APUs the distribution kernel's own
  // amdgpu ("Supported Ryzen APUs require the inbox kernel driver", the
  // 10.x guide; the Ryzen support tables for 6.x and 7.x): amdgpu-dkms is
  // built and tested for Radeon and Instinct cards, and check warns of it on
  // an APU (amdgpu-dkms-on-apu).
  if (options.driver && ctx.apu) {
    options.driver = false;
    plan.notes.push_back("The AMD GPU here is a Ryzen APU's (" + ctx.gfx +
                         "): AMD's install guides pair APUs with the inbox amdgpu driver of the distribution's kernel, "
                         "not amdgpu-dkms, so the plan installs no driver (as with --no-driver).");
  }
  if (auto r = plan::choose_release(ctx)) {
    // No AMD release fits this GPU here (AMD lists Debian for Instinct GPUs
    // only): the distribution's own packages may still be built for it.
    std::string alternative = plan::distro_alternative(ctx, false);
    if (r->id == "unsupported-gpu" && !alternative.empty()) r->instead += " " + alternative;
    return *r;
  }
  if (std::string alternative = plan::distro_alternative(ctx, true); !alternative.empty()) ctx.note(alternative);
  plan::choose_user(ctx, input.user_home);
  if (auto r = plan::choose_torch(ctx)) return *r;
  plan::find_leftovers(ctx);
  const Json& firmware = field(input.facts, "firmware");
  ctx.secure_boot = field(firmware, "secure_boot") == true;
  ctx.efi = field(firmware, "efi") != false;
  if (options.driver && is_unknown(field(firmware, "secure_boot")))
    plan.notes.push_back("Secure Boot state is not known (" + unknown_reason(field(firmware, "secure_boot")) +
                         "): the secureboot step reads it again when the plan runs.");

  plan.distro = ctx.distro->name();
  plan.distro_label = plan::distro_label(ctx);
  // A deb822 release names its suite, not the distribution's codename.
  plan.codename = ctx.release->source_file ? ctx.release->source_file->suite : ctx.distro->repo_codename;
  plan.rocm = ctx.release->version;
  plan.driver = options.driver ? ctx.release->driver : "";
  plan.user = ctx.user;
  plan.venv = options.torch && ctx.user_known() ? ctx.venv : "";
  plan::add_preflight_steps(ctx, plan.steps);
  plan::add_repository_steps(ctx, plan.steps);
  plan::add_driver_steps(ctx, plan.steps);
  plan::add_userspace_steps(ctx, plan.steps);
  plan::add_torch_steps(ctx, plan.steps);
  return plan;
}

}  // namespace rocmdoc
