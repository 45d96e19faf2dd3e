// Which GPU decides and which release to install for it: --rocm, or the
// newest release the recipes cover for this distribution that the matrix
// says supports the GPU. Where the matrix has no GPU list for a release, the
// nearest older release with one stands in, and the plan says so.
#include <fmt/format.h>

#include <algorithm>

#include "install/plan/planner_internal.h"
#include "base/version.h"
#include "rules/derived_facts.h"  // gpu_family

namespace rocmdoc::plan {

namespace {

// The matrix on this machine's distribution and GPU: its family and device
// id go with every question, so no row limited to some products of a target
// is judged without them.
Value lists_gpu_here(const Context& ctx, const std::string& version, const std::string& gfx) {
  return ctx.matrix.lists_gpu(version, ctx.distro->id, ctx.distro->version, ctx.gpu_family, gfx, ctx.gpu_device_id);
}
std::string gpu_left_out_here(const Context& ctx, const std::string& version, const std::string& gfx) {
  return ctx.matrix.gpu_left_out(version, ctx.distro->id, ctx.distro->version, ctx.gpu_family, gfx, ctx.gpu_device_id);
}

// "10.3.0" -> "gfx1030", "9.0.10" -> "gfx90a": the override's target.
std::string gfx_of_override(const std::string& value) {
  int major = 0, minor = 0, step = 0;
  if (std::sscanf(value.c_str(), "%d.%d.%d", &major, &minor, &step) != 3) return "";
  return fmt::format("gfx{}{}{:x}", major, minor, step);
}

bool supported(const Value& v) { return !v.is_unknown() && (v.json() == "supported" || v.json() == "deprecated"); }

// The release with a GPU list nearest below `version`, or "".
std::string nearest_listed_release(const Matrix& m, const std::string& version) {
  std::string best;
  for (auto& r : m.releases()) {
    std::string v(r.version);
    if (r.line != "production" || compare_versions(v, version) >= 0) continue;
    if (r.gpus.empty()) continue;
    if (best.empty() || compare_versions(v, best) > 0) best = v;
  }
  return best;
}

struct Support {
  bool ok = false;
  std::string via;  // the release whose list answered, when not `version` itself
};

Support matrix_support(const Matrix& m, const std::string& version, const std::string& gfx) {
  Value s = m.gpu_support(version, gfx);
  if (!s.is_unknown()) return {supported(s), ""};
  std::string near = nearest_listed_release(m, version);
  if (near.empty()) return {};
  return {supported(m.gpu_support(near, gfx)), near};
}

// The releases picked without --rocm (an on-request line is named by its hint).
std::string covered_releases(const InstallRecipes& r) {
  std::string out;
  for (auto& rel : r.releases)
    if (!rel.on_request) out += (out.empty() ? "" : ", ") + rel.version;
  return out;
}

// The releases whose recipe installs on this distribution, on request or
// not, newest first: what --rocm can name here. On Ubuntu 26.04 that is the
// Core SDK line alone, which covered_releases leaves out.
std::string releases_for_distro(const InstallRecipes& r, const RecipeDistro& d) {
  std::string out;
  for (auto& rel : r.releases)
    if (rel.supports(d)) out += (out.empty() ? "" : ", ") + rel.version;
  return out;
}

// An on-request release with a package built for gfx: worth naming when
// nothing else fits, but only one that would pass here: its recipe covers
// the distribution and the matrix lists the distribution for this GPU
// (10.1.0 lists no kernel for Ryzen APUs on Ubuntu 22.04, Debian for
// Instinct GPUs only).
std::string on_request_hint(const Context& ctx, const std::string& gfx) {
  for (auto& rel : ctx.recipes.releases) {
    std::string package = rel.on_request ? rel.package_for_gfx(gfx) : "";
    if (!package.empty() && rel.supports(*ctx.distro) &&
        lists_gpu_here(ctx, rel.version, gfx).is_true())
      return " ROCm " + rel.version + " builds " + package + ": `rocmdoc install --rocm " + rel.version +
             "` (see its plan's notes).";
  }
  return "";
}

// A newer release of the chosen one's line that the matrix lists for this
// GPU and distribution but rocmdoc has no recipe for (no AMD document read
// gives its repository layout): named, so the choice is not silent.
void note_newer_unrecipied(Context& ctx, const std::string& gfx) {
  const Release* chosen = ctx.matrix.find_release(ctx.release->version);
  if (!chosen) return;
  for (auto& r : ctx.matrix.releases()) {
    std::string v(r.version);
    if (r.line != chosen->line || compare_versions(v, ctx.release->version) <= 0) continue;
    if (ctx.recipes.release(v) || !supported(ctx.matrix.gpu_support(v, gfx))) continue;
    if (!lists_gpu_here(ctx, v, gfx).is_true()) continue;
    ctx.note("ROCm " + v + " is newer and lists " + gfx + " on " + distro_label(ctx) +
             ", but rocmdoc has no install recipe for it (no AMD install guide rocmdoc has read gives its repository "
             "layout); the plan installs ROCm " + ctx.release->version + ".");
  }
}

// --rocm as check reads it (names_release): X.Y.Z, or X.Y for its newest
// point release rocmdoc has a recipe for.
const RecipeRelease* requested_release(const InstallRecipes& r, const std::string& wanted) {
  if (auto* exact = r.release(wanted)) return exact;
  for (auto& rel : r.releases)  // newest first: "7.2" means the newest 7.2.x
    if (names_release(wanted, rel.version)) return &rel;
  return nullptr;
}

// The running kernel is not one the release lists (the caller knows): with
// the driver to build and the distribution's package for a listed kernel
// known, the plan installs that kernel and reboots into it first, since
// amdgpu-dkms may not build for an unlisted one. GRUB boots the newest kernel
// installed, so this works only where the listed kernel is newer than the
// running one; past a newer kernel (a mainline 6.15) the choice is GRUB's
// menu, which rocmdoc does not change: a note with the way there.
void plan_or_note_listed_kernel(Context& ctx) {
  Matrix::ListedKernels k = ctx.matrix.listed_kernels(ctx.release->version, ctx.distro->id, ctx.distro->version,
                                                      ctx.kernel, ctx.gpu_family, ctx.install_gfx, ctx.gpu_device_id);
  std::string unlisted = "Kernel " + ctx.kernel + " is not among the kernels the matrix lists for ROCm " +
                         ctx.release->version + " on " + distro_label(ctx);
  if (k.labels.empty()) return ctx.note(unlisted + "; amdgpu-dkms may fail to build for it.");
  std::string labels = joined(k.labels, ", ");
  // k.newer_package: the first package of a series newer than the running
  // kernel's (GRUB boots the newest kernel installed), where there is one.
  if (ctx.options.driver && ctx.options.listed_kernel && !k.newer_package.empty() && k.running_newer.is_false()) {
    ctx.listed_kernel_package = k.newer_package;
    ctx.listed_kernel_package_series = k.newer_package_series;
    ctx.listed_kernel_series = k.series;
    ctx.listed_kernel_labels = labels;
    return ctx.note(unlisted + " (" + labels + "), and amdgpu-dkms may fail to build for it: the plan installs " +
                    ctx.listed_kernel_package + " and reboots into it before it builds the driver; the run after that reboot "
                    "plans the remaining steps for that kernel. `--keep-kernel` builds the driver for " + ctx.kernel +
                    " instead.");
  }
  std::string advice = " ROCm " + ctx.release->version + " lists " + labels + " here.";
  if (!k.packages.empty()) {
    // A package of a newer series boots by itself; otherwise (all older than
    // the running kernel, or the newer ones without a known package) GRUB's
    // menu is the way to an older one.
    bool boots = !k.newer_package.empty();
    std::string boot = boots ? "reboot into it"
                             : "reboot and choose it under \"Advanced options\" in GRUB's menu (GRUB boots the newest "
                               "kernel installed, and " + ctx.kernel + " is newer than it)";
    advice = " To follow AMD's table, boot a kernel it lists (" + labels + ") first: `sudo apt-get install " +
             (boots ? k.newer_package : k.packages[0]) + "`, " + boot + ", and run rocmdoc install again.";
  }
  ctx.note(unlisted + "; amdgpu-dkms may fail to build for it." + advice);
}

void note_release(Context& ctx) {
  for (auto& u : ctx.release->unverified) ctx.note(u);
  const Release* r = ctx.matrix.find_release(ctx.release->version);
  if (r && r->unconfirmed) ctx.note("The matrix on ROCm " + ctx.release->version + ": " + std::string(*r->unconfirmed));
  Value k = ctx.matrix.kernel_support(ctx.release->version, ctx.distro->id, ctx.distro->version, ctx.kernel, ctx.gpu_family,
                                      ctx.install_gfx, ctx.gpu_device_id);
  if (k.is_false()) plan_or_note_listed_kernel(ctx);
  for (auto& n : ctx.distro->notes) ctx.note(n);
}

// What the recipe cannot install for this release must be left out by the
// user (--no-driver): a refusal that says why and what to do instead.
std::optional<InstallRefusal> driver_gap(const Context& ctx) {
  if (!ctx.options.driver || !ctx.release->driver_gap) return std::nullopt;
  return InstallRefusal{"driver-not-covered", ctx.release->driver_gap->reason, ctx.release->driver_gap->instead};
}

// AMD's guide for the Core SDK line asks for ROCm 7.2.4 or older to be
// uninstalled first; rocmdoc leaves that to the user (the older-rocm gate).
// Where an older ROCm is there, the plan says so before anything runs.
void note_older_rocm(Context& ctx) {
  if (ctx.release->remove_first.empty()) return;
  const Json& packages = field(field(ctx.facts, "rocm"), "packages");
  if (!packages.is_array()) return;
  for (auto& p : packages) {
    const Json& name = field(p, "name");
    if (!name.is_string() ||
        std::find(ctx.release->remove_first.begin(), ctx.release->remove_first.end(), name.get<std::string>()) ==
            ctx.release->remove_first.end())
      continue;
    std::string instead = keep_older_instead(ctx);
    ctx.note(name.get<std::string>() + " is installed (an earlier ROCm): a run stops at the older-rocm step until it is "
             "uninstalled (" + ctx.release->remove_first_how + ")" + (instead.empty() ? "." : "; " + instead));
    return;
  }
}

std::optional<InstallRefusal> chosen(Context& ctx, const std::string& gfx) {
  ctx.install_gfx = gfx;
  if (auto r = driver_gap(ctx)) return r;
  note_release(ctx);
  note_older_rocm(ctx);
  const RecipeRelease& rel = *ctx.release;
  if (!rel.gfx_package.empty() && rel.package_for_gfx(gfx).empty())
    ctx.note("ROCm " + rel.version + " has no package built for " + gfx + " alone; the plan installs " + rel.rocm_packages.front() +
             " (all GPUs).");
  return choose_key(ctx);
}

}  // namespace

// Where the GPU is supported when no release here is: the newest production
// release whose GPU list has it, the distributions that release lists, which
// of them rocmdoc installs it on, and the distributions whose own ROCm is
// built for it. A refusal names that way out rather than sending the user
// to check, or to the other refusal (an MI50, gfx906, on Ubuntu 26.04).
std::string supported_elsewhere(const Context& ctx, const std::string& gfx) {
  std::string out;
  Json releases = ctx.matrix.releases_for_gfx(gfx);
  const Release* rel = nullptr;
  if (releases.is_array() && !releases.empty() && releases.back().is_string())
    rel = ctx.matrix.find_release(releases.back().get<std::string>());
  if (rel) {
    std::string newest(rel->version);
    const RecipeRelease* recipe = ctx.recipes.release(newest);
    std::vector<std::string> by_rocmdoc, by_guide;
    for (auto& d : rel->distros) {
      // Only rows that list every GPU of the release: a row AMD limits to
      // some GPUs (Debian 12: Instinct only) is left out rather than guessed.
      if (!d.limited_gfx.empty() || !d.limited_families.empty()) continue;
      std::string name = ctx.matrix.distribution_name(d.id) + " " + std::string(d.version);
      bool here = ctx.distro && d.id == ctx.distro->id && d.version == ctx.distro->version;
      if (here) name += " (this one)";
      std::string key = std::string(d.id) + " " + std::string(d.version);
      bool covered = recipe && std::find(recipe->distros.begin(), recipe->distros.end(), key) != recipe->distros.end();
      auto& list = covered ? by_rocmdoc : by_guide;
      if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
    }
    if (!by_rocmdoc.empty() || !by_guide.empty())
      out += " ROCm " + newest + " is the newest production release whose GPU list has " + gfx + ".";
    if (!by_rocmdoc.empty())
      out += " On " + joined(by_rocmdoc, ", ") + " `rocmdoc install --rocm " + newest + "` installs it.";
    if (!by_guide.empty())
      out += std::string(by_rocmdoc.empty() ? " It" : " It also") + " lists " + joined(by_guide, ", ") +
             ", where AMD's install guide for it gives the steps.";
  }
  // A distribution's own packages built for it: often the simpler way for an
  // older GPU (Ubuntu 24.04's ROCm 5.7.1 for gfx906, gfx803), also where no
  // release of AMD's lists the GPU any more.
  std::vector<std::string> own;
  for (auto& d : ctx.matrix.distributions())
    for (auto& p : d.own_packages)
      if (std::find(p.gpu_targets.begin(), p.gpu_targets.end(), gfx) != p.gpu_targets.end() &&
          !(ctx.distro && d.id == ctx.distro->id && p.version == ctx.distro->version))  // here: distro_alternative's to name
        own.push_back(std::string(d.name) + (p.version.empty() ? "" : " " + std::string(p.version)) + "'s own ROCm " +
                      std::string(p.release) + (p.confidence == "high" ? "" : " (" + std::string(p.confidence) + " confidence)"));
  // The first four, in the matrix's order: a way out, not a survey.
  if (own.size() > 4) {
    size_t more = own.size() - 4;
    own.resize(4);
    own.push_back(fmt::format("{} more", more));
  }
  if (!own.empty())
    out += " Other distributions build their own ROCm for " + gfx + ": " + joined(own, ", ") + ".";
  return out;
}

// The release's signing key: its fingerprint from the recipe, or, where no
// source gives one, the one the user confirmed with --trust-key. Without
// either the plan can be shown but not run (plan.blocked).
std::optional<InstallRefusal> choose_key(Context& ctx) {
  ctx.key = ctx.recipes.key_for(*ctx.release);
  const std::string& trusted = ctx.options.trusted_key;
  if (!ctx.key.fingerprint.empty()) {
    if (!trusted.empty() && trusted != ctx.key.fingerprint)
      return InstallRefusal{"trust-key-mismatch", "The recipe gives the fingerprint " + ctx.key.fingerprint + " for " + ctx.key.url +
                                                      "; --trust-key " + trusted + " is another key.",
                            "Leave --trust-key out: it is only for a key whose fingerprint rocmdoc's sources do not give."};
    if (!ctx.key.fingerprint_note.empty()) ctx.note(ctx.key.fingerprint_note);
    return std::nullopt;
  }
  if (!trusted.empty()) {
    ctx.key.fingerprint = trusted;
    ctx.note("The signing key " + ctx.key.url + " is used only if it carries " + trusted +
             ", the fingerprint you confirmed with --trust-key (" + ctx.key.fingerprint_unknown + ").");
    return std::nullopt;
  }
  ctx.plan->blocked = InstallRefusal{
      "key-not-confirmed",
      "The fingerprint of ROCm " + ctx.release->version + "'s signing key " + ctx.key.url + " is not known: " +
          ctx.key.fingerprint_unknown + ". rocmdoc does not trust a key it cannot check.",
      "Fetch the key and read its fingerprint: `curl -fsSL -o amdrocm.gpg " + ctx.key.url +
          "` and `gpg --show-keys amdrocm.gpg`. Compare it with a fingerprint AMD publishes elsewhere (a signed "
          "announcement, AMD support); if they match, run again with --trust-key <40 hex digits>."};
  return std::nullopt;
}

std::optional<InstallRefusal> choose_gpu(Context& ctx) {
  const Json& gpus = field(ctx.facts, "gpus");
  if (!gpus.is_array() || gpus.empty()) {
    const Json& platform = field(ctx.facts, "platform");
    // In a VM a GPU arrives by passthrough from the machine the VM runs on
    // (it must be in that machine), not by putting one in.
    // WSL2's CPU has the hypervisor flag too, but its GPU is Windows' (the
    // wsl2 refusal says what to do): nothing is passed through to it.
    bool in_vm = field(platform, "in_vm") == true && field(platform, "kind") != "wsl2";
    // A container sees its host's PCI bus: no AMD GPU here is none on the
    // host either, which the container refusal's advice must not hide.
    if (field(platform, "kind") == "container" && in_vm)
      return InstallRefusal{"no-amd-gpu",
                            "No AMD GPU was found on the PCI bus, and a container sees its host's: the host is a virtual "
                            "machine with no AMD GPU passed through to it, so installing the AMD driver there would give "
                            "ROCm nothing to run on.",
                            "Pass an AMD GPU from AMD's compatibility matrix through to that virtual machine from the machine "
                            "it runs on (the GPU must be in that machine), check it with `lspci -d 1002:` in the virtual "
                            "machine, then install the driver there."};
    if (field(platform, "kind") == "container")
      return InstallRefusal{"no-amd-gpu",
                            "No AMD GPU was found on the PCI bus, and a container sees its host's: the host has no AMD GPU "
                            "either, so installing the AMD driver there would give ROCm nothing to run on.",
                            "Put an AMD GPU from AMD's compatibility matrix in the host (or run on a host that has one), "
                            "check it with `lspci -d 1002:` there, then install the driver on the host."};
    if (in_vm)
      return InstallRefusal{"no-amd-gpu",
                            "No AMD GPU was found on the PCI bus: this is a virtual machine, and none is passed through to it.",
                            "Pass an AMD GPU from AMD's compatibility matrix through from the host to this virtual machine "
                            "(the GPU must be in the host; in a cloud, choose an instance type that has one), then check "
                            "that it shows in `lspci -d 1002:` here."};
    return InstallRefusal{"no-amd-gpu", "No AMD GPU was found on the PCI bus.",
                          "Check that the card is seated and powered and shows in `lspci -d 1002:`; in a VM, pass the GPU "
                          "through to it first."};
  }
  const Json* chosen = nullptr;
  for (auto& g : gpus)  // a discrete GPU decides: it is what people compute on
    if (field(g, "gfx").is_string() && (!chosen || (field(g, "apu") == false && field(*chosen, "apu") != false))) chosen = &g;
  if (!chosen) {
    // Say why for each GPU: no KFD node, and a device the matrix lacks, or
    // one whose target AMD's sources disagree on (Krackan2: gfx1152 or
    // gfx1153), which the plan must not settle by picking one.
    std::string why;
    for (auto& g : gpus)
      if (std::string r = unknown_reason(field(g, "gfx")); !r.empty() && why.find(r) == std::string::npos)
        why += (why.empty() ? "" : "; ") + r;
    return InstallRefusal{"unsupported-gpu",
                          "The AMD GPU's gfx target is not known (" +
                              (why.empty() ? std::string("not in the KFD topology, not in the matrix") : why) + ").",
                          "Run `rocmdoc check` for what is known about it; ROCm supports the GPUs in AMD's compatibility "
                          "matrix. With the amdgpu driver loaded, the kernel's KFD node names the target."};
  }
  ctx.gfx = field(*chosen, "gfx").get<std::string>();
  ctx.apu = field(*chosen, "apu") == true;  // a discrete GPU would have been chosen
  Json family = gpu_family(chosen);
  ctx.gpu_family = family.is_string() ? family.get<std::string>() : "";
  const Json& device_id = field(*chosen, "device_id");
  ctx.gpu_device_id = device_id.is_string() ? device_id.get<std::string>() : "";
  return std::nullopt;
}

namespace {

// A release installed on request (the Core SDK line, newest first) that
// lists gfx on this distribution, for a GPU the releases picked by default
// do not list there: as `check` names the newest release for it
// (Matrix::newest_release_for), e.g. Strix Halo's gfx1151 on Ubuntu 24.04.
const RecipeRelease* on_request_listing(const Context& ctx, const std::string& gfx) {
  for (auto& rel : ctx.recipes.releases) {
    if (!rel.on_request || !rel.supports(*ctx.distro)) continue;
    Support s = matrix_support(ctx.matrix, rel.version, gfx);
    // As check's newest release: the matrix's own question (Matrix::lists_gpu).
    if (s.ok && s.via.empty() && lists_gpu_here(ctx, rel.version, gfx).is_true())
      return &rel;
  }
  return nullptr;
}

std::optional<InstallRefusal> choose_on_request(Context& ctx, const RecipeRelease& rel, const std::string& gfx) {
  ctx.release = &rel;
  ctx.note("None of the releases rocmdoc installs by default on " + distro_label(ctx) + " (" + covered_releases(ctx.recipes) +
           ") lists " + gfx + "; ROCm " + rel.version + " does, and the plan installs it.");
  return chosen(ctx, gfx);
}

}  // namespace

std::string keep_older_instead(const Context& ctx) {
  const std::string& gfx = ctx.gfx;  // the GPU itself, not a stand-in the chosen release runs it as
  const Override* o = ctx.matrix.hsa_override(gfx);
  std::string value = o && o->value ? std::string(*o->value) : "";
  std::string stand_in = value.empty() || (o->outcome != "works" && o->outcome != "works_with_caveats") ? "" : gfx_of_override(value);
  for (auto& rel : ctx.recipes.releases) {
    if (rel.on_request || !rel.picked_by_default(*ctx.distro) || !rel.remove_first.empty()) continue;
    auto fits = [&](const std::string& target) {
      return matrix_support(ctx.matrix, rel.version, target).ok &&
             !lists_gpu_here(ctx, rel.version, target).is_false();
    };
    std::string command = "`rocmdoc install --rocm " + rel.version + "`";
    if (fits(gfx)) return "or install ROCm " + rel.version + " over it instead: " + command + ".";
    if (!stand_in.empty() && stand_in != gfx && fits(stand_in))
      return "or install ROCm " + rel.version + " over it instead, " + command + ", which gives up AMD's support for this GPU: ROCm " +
             rel.version + " does not list " + gfx + ", so it runs as " + stand_in + " with HSA_OVERRIDE_GFX_VERSION=" + value +
             " (a workaround users report, not AMD's: " + std::string(o->caveats) + ").";
  }
  return "";
}

std::optional<InstallRefusal> choose_release(Context& ctx) {
  std::string gfx = ctx.gfx;
  // A GPU no production release lists: a Core SDK release that lists it
  // comes before running it as another target.
  if (ctx.matrix.releases_for_gfx(gfx).empty() && ctx.options.rocm.empty())
    if (const RecipeRelease* rel = on_request_listing(ctx, gfx)) return choose_on_request(ctx, *rel, gfx);
  // A GPU no release lists may still work as a listed sibling (an RX 6700 XT
  // as gfx1030): only where users report the override working.
  if (ctx.matrix.releases_for_gfx(gfx).empty()) {
    const Override* o = ctx.matrix.hsa_override(gfx);
    std::string outcome = o ? std::string(o->outcome) : "";
    std::string value = o && o->value ? std::string(*o->value) : "";
    std::string stand_in = o ? gfx_of_override(value) : "";
    if (stand_in.empty() || (outcome != "works" && outcome != "works_with_caveats") ||
        ctx.matrix.releases_for_gfx(stand_in).empty())
      return InstallRefusal{"unsupported-gpu", "No ROCm release in the matrix (as of " + ctx.matrix.as_of() + ") supports " + gfx +
                                                   ", and no working HSA_OVERRIDE_GFX_VERSION is reported for it.",
                            "Use a GPU from AMD's compatibility matrix, or build ROCm for " + gfx + " from source (TheRock)." +
                                supported_elsewhere(ctx, gfx) + on_request_hint(ctx, gfx)};
    ctx.note(gfx + " is on no ROCm release's list; the plan installs for " + stand_in +
             ", which users report works with HSA_OVERRIDE_GFX_VERSION=" + value +
             " (set it in the environment that runs ROCm programs; unsupported by AMD).");
    gfx = stand_in;
    ctx.hsa_override = value;
  }
  if (!ctx.options.rocm.empty()) {
    ctx.release = requested_release(ctx.recipes, ctx.options.rocm);
    if (!ctx.release) {
      std::string here = releases_for_distro(ctx.recipes, *ctx.distro);
      return InstallRefusal{"release-not-covered", "rocmdoc has no install recipe for ROCm " + ctx.options.rocm + ".",
                            here.empty() ? "rocmdoc installs no release on " + distro_label(ctx) + "; follow AMD's install guide."
                                         : "Pick one of the releases rocmdoc installs on " + distro_label(ctx) + " (" + here +
                                               ") with --rocm, or follow AMD's install guide."};
    }
    if (!ctx.release->supports(*ctx.distro))
      return InstallRefusal{"release-not-for-distro", "ROCm " + ctx.release->version + " has no packages for " + distro_label(ctx) + ".",
                            "Pick a newer release with --rocm, or leave --rocm out for the newest that fits."};
    Value s = ctx.matrix.gpu_support(ctx.release->version, gfx);
    if (!s.is_unknown() && s.json() == "unsupported")
      return InstallRefusal{"gpu-not-supported-by-release", "The matrix marks " + gfx + " unsupported in ROCm " + ctx.release->version + ".",
                            "Leave --rocm out: rocmdoc picks the newest release that supports it."};
    if (!matrix_support(ctx.matrix, ctx.release->version, gfx).ok)
      ctx.note("The matrix does not list " + gfx + " for ROCm " + ctx.release->version + " (installing as asked with --rocm).");
    std::string left_out = gpu_left_out_here(ctx, ctx.release->version, gfx);
    if (!left_out.empty())
      ctx.note(left_out + ", not for this " + gfx + ": AMD does not support it there (installing as asked with --rocm).");
    return chosen(ctx, gfx);
  }
  // The newest release that lists the GPU but this distribution only for
  // other GPUs: what the refusal names, if nothing else fits.
  std::string left_out, left_out_release;
  for (auto& rel : ctx.recipes.releases) {
    if (!rel.picked_by_default(*ctx.distro)) continue;
    Support s = matrix_support(ctx.matrix, rel.version, gfx);
    if (!s.ok) continue;
    // As check's newest release for the GPU: not where AMD's row for this
    // distribution is limited to other GPUs (Debian 12: Instinct only).
    if (lists_gpu_here(ctx, rel.version, gfx).is_false()) {
      if (left_out.empty()) {
        left_out = gpu_left_out_here(ctx, rel.version, gfx);
        if (!left_out.empty()) left_out_release = rel.version;
      }
      continue;
    }
    ctx.release = &rel;
    if (!s.via.empty())
      ctx.note("The matrix has no GPU list for ROCm " + rel.version + "; " + gfx + " is supported by " + s.via +
               ", the nearest release with one.");
    if (rel.on_request)  // the default only here: say why, and what is newer
      ctx.note("ROCm " + rel.version + " is the default on " + distro_label(ctx) +
               " (elsewhere only where --rocm names it or no other release lists the GPU): none of the releases rocmdoc "
               "picks by default elsewhere supports " + distro_label(ctx) + ".");
    note_newer_unrecipied(ctx, gfx);
    return chosen(ctx, gfx);
  }
  if (const RecipeRelease* rel = on_request_listing(ctx, gfx)) return choose_on_request(ctx, *rel, gfx);
  std::string anyway = left_out_release.empty()
                           ? ""
                           : " To install ROCm " + left_out_release + " all the same, outside what AMD supports for this GPU on " +
                                 distro_label(ctx) + ": `rocmdoc install --rocm " + left_out_release + "`.";
  // Every release rocmdoc installs here, the on-request line's too (Ubuntu
  // 26.04 has only those), so the list is the one the user can pick from.
  std::string here = releases_for_distro(ctx.recipes, *ctx.distro);
  std::string elsewhere = supported_elsewhere(ctx, gfx);
  return InstallRefusal{"unsupported-gpu", "No release rocmdoc installs on " + distro_label(ctx) + " (" +
                                               (here.empty() ? covered_releases(ctx.recipes) : here) + ") supports " + gfx +
                                               " according to the matrix (as of " + ctx.matrix.as_of() + ")." +
                                               (left_out.empty() ? "" : " " + left_out + "."),
                        (elsewhere.empty() ? "Run `rocmdoc check` for the releases that list " + gfx + ", and AMD's install guide for them."
                                           : elsewhere.substr(1)) +
                            on_request_hint(ctx, gfx) + anyway};
}

}  // namespace rocmdoc::plan
