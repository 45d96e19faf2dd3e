// The decisions a plan rests on, read from the facts: may rocmdoc install
// here at all, for which distribution, GPU and release, for which user, and
// what earlier installs left behind.
#include "install/plan/planner_internal.h"

#include "base/version.h"

namespace rocmdoc::plan {

namespace {

std::string text_at(const Json& facts, std::initializer_list<const char*> path) {
  const Json* at = &facts;
  for (const char* key : path) at = &field(*at, key);
  return at->is_string() ? at->get<std::string>() : "";
}

InstallRefusal refuse(std::string id, std::string reason, std::string instead) {
  return {std::move(id), std::move(reason), std::move(instead)};
}

}  // namespace

// The platform first: no plan helps where rocmdoc must not install a driver.
std::optional<InstallRefusal> platform_refusal(const Json& facts, const InstallOptions& options) {
  std::string kind = text_at(facts, {"platform", "kind"});
  if (kind == "wsl2")
    return refuse("wsl2", "This is WSL2: the GPU belongs to Windows' driver, and ROCm on WSL uses AMD's WSL route "
                          "(amdgpu-install --usecase=wsl,rocm --no-dkms), not the Linux driver.",
                  "Install the AMD Software: Adrenalin Edition driver on Windows, then follow AMD's \"Install Radeon "
                  "software for WSL with ROCm\" guide inside WSL.");
  if (kind == "container" && options.driver) {
    // How the GPU's nodes get into the container is the runtime's own
    // setting: --device is Docker's and Podman's, LXC and its managers pass
    // devices in the container's config.
    std::string runtime = text_at(facts, {"platform", "container_runtime"});
    std::string passed;
    if (runtime == "lxc" || runtime == "lxd" || runtime == "incus")
      passed = "with /dev/kfd and the render node passed into it in its config (Proxmox: dev0: /dev/kfd,gid=GID and "
               "dev1: /dev/dri/renderD128,gid=GID, GID the container's render group; LXD and Incus: a unix-char "
               "device for each)";
    else if (runtime.empty() || runtime == "docker" || runtime == "podman")
      passed = "started with --device /dev/kfd --device /dev/dri";
    else
      passed = "with /dev/kfd and /dev/dri passed into it as " + runtime + " passes devices";
    return refuse("container-driver", "This is a container: it shares the host's kernel, so a driver cannot be installed in it.",
                  "Install the driver on the host (rocmdoc install there), then run `rocmdoc install --no-driver` in the "
                  "container, " + passed + ".");
  }
  return std::nullopt;
}

namespace {

std::optional<InstallRefusal> architecture_refusal(const Json& facts) {
  std::string arch = text_at(facts, {"host", "arch"});
  if (arch == "x86_64") return std::nullopt;
  return refuse("unsupported-architecture",
                "AMD's ROCm packages for Ubuntu and Debian are built for x86_64; this machine is " +
                    (arch.empty() ? std::string("of unknown architecture") : arch) + ".",
                "Use an x86_64 machine, or build ROCm from source (TheRock).");
}

std::string supported_distros(const Context& ctx) {
  std::string out;
  for (auto& d : ctx.recipes.distros) out += (out.empty() ? "" : ", ") + ctx.matrix.distribution_name(d.id) + " " + d.version;
  return out;
}

// Where rocmdoc has no recipe for the distribution: what AMD's guide offers
// this GPU here, by the release check names for it (target.newest_for_gpu),
// or the limit that leaves it out (Rocky Linux 9: Instinct MI300X and MI300A
// only), so install and check say the same of such a machine.
std::string guide_advice(const Context& ctx, const std::string& id, const std::string& version) {
  const std::string guide = "https://rocm.docs.amd.com/projects/install-on-linux/";
  std::string where = distro_label(ctx);
  const Json& target = field(ctx.facts, "target");
  const Json& newest = field(target, "newest_for_gpu");
  if (newest.is_string())
    return "Use one of those distributions, or follow AMD's install guide for ROCm " + newest.get<std::string>() +
           ", the newest release that lists this GPU on " + where + " (" + guide + ").";
  std::string gfx = text_at(target, {"gpu_gfx"}), family = text_at(target, {"gpu_family"});
  // The GPU check decided by (target.for_gpu), for rows limited to some
  // products of its target: this advice can come before install picks one.
  std::string device_id = ctx.gpu_device_id;
  const Json& for_gpu = field(target, "for_gpu");
  for (auto& g : field(ctx.facts, "gpus"))
    if (device_id.empty() && for_gpu.is_string() && field(g, "address") == for_gpu && field(g, "device_id").is_string())
      device_id = field(g, "device_id").get<std::string>();
  std::string limit = gfx.empty() || id.empty() ? "" : ctx.matrix.newest_left_out(gfx, id, version, family, device_id);
  if (!limit.empty())
    return "Use a distribution AMD lists for this GPU: its install guide has no release for it on " + where + " either (" +
           limit + ").";
  // No release lists the distribution at all (CentOS Stream, Fedora, Leap,
  // Arch): AMD's guide has no section to follow, so say what check says.
  const Json& support = field(ctx.facts, "distro_support");
  if (field(support, "listed").is_boolean() && !field(support, "listed").get<bool>()) {
    std::string use = text_at(support, {"use"});
    return "AMD does not support " + where + ": " +
           (use.empty() ? "use a distribution and version AMD's install guide lists (" + guide + ")" : "use " + use) + ".";
  }
  return "Use one of those distributions, or follow AMD's install guide for yours (" + guide + ").";
}

}  // namespace

std::string distro_label(const Context& ctx) {
  std::string label = text_at(ctx.facts, {"distro_support", "label"});
  if (!label.empty()) return label;
  std::string id = text_at(ctx.facts, {"distro", "id"}), version = text_at(ctx.facts, {"distro", "version_id"});
  std::string name = ctx.matrix.distribution_name(id);
  return version.empty() || name.empty() ? name : name + " " + version;
}

void choose_platform(Context& ctx, std::vector<InstallRefusal>& refusals) {
  if (auto r = platform_refusal(ctx.facts, ctx.options)) refusals.push_back(*r);
  if (auto r = architecture_refusal(ctx.facts)) refusals.push_back(*r);
  std::string id = text_at(ctx.facts, {"distro", "id"}), version = text_at(ctx.facts, {"distro", "version_id"});
  ctx.distro = ctx.recipes.distro(id, version);
  if (!ctx.distro) {
    refusals.push_back(refuse("unsupported-distro",
                              "rocmdoc installs ROCm on " + supported_distros(ctx) + "; this is " +
                                  (id.empty() ? std::string("an unknown distribution") : distro_label(ctx)) + ".",
                              guide_advice(ctx, id, version) +
                                  std::string(ctx.recipes.own_packages_for(id, version)
                                                  ? " This distribution has ROCm packages of its own: `rocmdoc install "
                                                    "--from distro --dry-run` says how to install them."
                                                  : "")));
    return;
  }
  ctx.kernel = text_at(ctx.facts, {"kernel", "release"});
  if (ctx.kernel.empty())
    refusals.push_back(refuse("kernel-unknown", "The running kernel's release is not known, so its headers cannot be named.",
                              "Run rocmdoc on the machine itself (not from a recording without /proc)."));
}

}  // namespace rocmdoc::plan
