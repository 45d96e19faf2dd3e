// What the step builders share: the decisions made for this machine, and
// small constructors for declarative checks and actions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "install/plan/planner.h"
#include "base/text.h"  // replace_all

namespace rocmdoc::plan {

struct Context {
  Context(const InstallRecipes& r, const Matrix& m, InstallOptions& o, const Json& f)
      : recipes(r), matrix(m), options(o), facts(f) {}
  const InstallRecipes& recipes;
  const Matrix& matrix;
  // The planner's copy: what the machine rules out is turned off here (an
  // APU's driver, a PyTorch without code for the GPU).
  InstallOptions& options;
  const Json& facts;
  const RecipeDistro* distro = nullptr;
  const RecipeRelease* release = nullptr;
  // --from distro: the distribution's packages as a release the shared step
  // builders read (its version, packages, rocminfo and PyTorch line);
  // `release` points here then.
  RecipeRelease own_release;
  std::string kernel;                     // uname -r
  std::string gfx;                        // the GPU's target, as the KFD or the matrix names it
  bool apu = false;                       // that GPU is an APU's, and no discrete one was found
  std::string gpu_family;                 // its family for AMD's kernel rows (gpu_family()), or ""
  std::string gpu_device_id;              // its PCI device id, for rows limited to some products ("0x74a5"), or ""
  std::string install_gfx;                // the target installed for: gfx, or its override stand-in
  // Installed for a stand-in: the HSA_OVERRIDE_GFX_VERSION the GPU runs as
  // it with ("10.3.0"), which verify-torch sets (a program without it finds
  // no code for the GPU in a wheel built for the stand-in); "" otherwise.
  std::string hsa_override;
  // The running kernel is not one the release lists: the package that
  // installs a listed one (the plan boots it before building the driver),
  // the series that count as booted, and how the matrix names them; empty:
  // the plan builds for the running kernel.
  std::string listed_kernel_package;
  std::string listed_kernel_package_series;  // "6.8": the package's version starts with it once it installs that series
  std::vector<std::string> listed_kernel_series;
  std::string listed_kernel_labels;
  RecipeKey key;                          // the release's signing key, fingerprint confirmed
  std::string user, home, venv;
  std::string torch_version, torch_index;  // from the matrix's wheels
  std::vector<std::string> shadowing;      // the distribution's ROCm packages installed
  std::vector<std::string> leftovers;      // AMD source and pin files rocmdoc will not write itself
  bool secure_boot = false;
  bool efi = true;
  InstallPlan* plan = nullptr;
  void note(const std::string& text) const { plan->notes.push_back(text); }
  // Whether the plan installs a listed kernel and boots it (kernel-reboot)
  // before the driver: the steps after that reboot are planned again by the
  // run after it, for the kernel it booted, not the running one.
  bool behind_kernel_reboot() const { return !listed_kernel_package.empty(); }
  // The kernel the driver is built for, as titles name it: behind a
  // kernel-reboot, the run after it plans those steps again for the kernel
  // it boots.
  std::string driver_kernel() const {
    return behind_kernel_reboot() ? "the kernel booted at kernel-reboot" : kernel;
  }
  // Whether the install has a user to add to the groups and own the venv.
  bool user_known() const { return !user.empty(); }
  // Whether the groups step is planned: root opens the device nodes without
  // render and video (and a container may have no render group at all, so
  // usermod would fail on it).
  bool needs_groups() const { return user_known() && user != "root"; }
};

inline PlanStep step(std::string id, std::string title) {
  PlanStep s;
  s.id = std::move(id);
  s.title = std::move(title);
  return s;
}

// Checks
StepCheck packages_installed(std::vector<std::string> names);
StepCheck packages_absent(std::vector<std::string> names, std::string except_version_containing = "");
StepCheck package_version(const std::string& name, const std::string& prefix);
StepCheck file_equals(const std::string& path, const std::string& content, unsigned mode = 0);
StepCheck path_exists(const std::string& path);
StepCheck command_succeeds(std::vector<std::string> argv, bool as_user = false);
StepCheck output_contains(std::vector<std::string> argv, const std::string& text, bool as_user = false);
StepCheck user_in_groups(const std::string& user, std::vector<std::string> groups);
StepCheck key_fingerprint(const std::string& keyring, const std::string& fingerprint);
StepCheck free_space(const std::string& path, uint64_t bytes);
StepCheck lock_free(std::vector<std::string> files);
StepCheck apt_simulation(std::vector<std::string> argv, std::vector<std::string> allowed_removals);
StepCheck boot_changed();
StepCheck file_has_line(const std::string& path, const std::string& pattern);  // RE2, the whole line
StepCheck file_byte_equals(const std::string& path, uint64_t offset, unsigned byte);
StepCheck path_absent(const std::string& path);
StepCheck dpkg_settled();

// Actions
StepAction run(std::vector<std::string> argv, bool as_user = false);
StepAction write_file(const std::string& path, const std::string& content, unsigned mode = 0644);
StepAction download_key(const std::string& url, const std::string& path, const std::string& fingerprint);
StepAction dearmor_key(const std::string& source, const std::string& path);
StepAction reboot();
// apt-get install -y --no-install-recommends --reinstall PACKAGES. A step
// runs only when its check says it is not done; plain `install` is then a
// no-op for a package that is present but broken: half-installed after a kill
// during its unpack (which `dpkg --configure -a` cannot repair), or installed
// without its result (the DKMS module not built for the running kernel).
// --reinstall repairs both and installs what is missing as usual.
// No Recommends: apt adds them only for the packages it installs new in that
// run, so after a kill in the middle of an install (the dependencies then
// finished by `dpkg --configure -a`) the resumed install would end with fewer
// packages than one never interrupted. The plan names every package it wants;
// what lands is those and their dependencies, however often it was cut.
StepAction apt_install(const std::vector<std::string>& packages);
// `apt-get -s install -y --no-install-recommends PACKAGES`: what apt_install
// would do, simulated.
std::vector<std::string> apt_simulate_install(const std::vector<std::string>& packages);

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b);
// "a, b, c" for a title.
std::string joined(const std::vector<std::string>& items, const std::string& sep);

std::vector<std::string> plan_header_packages(const Context& ctx);  // linux-headers-K ...
std::vector<std::string> plan_packages_to_install(const Context& ctx);  // amdgpu-dkms rocm
const RecipeKey& plan_driver_key(const Context& ctx);                    // the key amdgpu.list is signed with
std::vector<std::string> plan_rocm_packages(const Context& ctx);        // rocm, or amdrocm10.0-gfx1100
// Steps the --from distro plan shares with AMD's.
PlanStep plan_lock_step(const Context& ctx);
PlanStep plan_disk_step(const std::vector<DiskNeed>& needs);  // the recipe's disk or own_disk
PlanStep plan_dpkg_step();
PlanStep plan_leftovers_step(const Context& ctx);
PlanStep plan_groups_step(const Context& ctx);
PlanStep plan_verify_rocm_step(const Context& ctx);

// The machine's distribution as the plan names it: check's
// distro_support.label ("Rocky Linux 9.6", not PRETTY_NAME's "(Blue Onyx)"),
// else the matrix's name and VERSION_ID, else os-release's ID; "" when none
// is known.
std::string distro_label(const Context& ctx);

// Decisions, in order; each refuses or fills ctx (and may add notes).
// platform, architecture, distribution, kernel: every reason that applies, most fundamental first
void choose_platform(Context& ctx, std::vector<InstallRefusal>& refusals);
std::optional<InstallRefusal> platform_refusal(const Json& facts, const InstallOptions& options);  // WSL2, a container's driver
std::optional<InstallRefusal> choose_gpu(Context& ctx);       // the GPU that decides, and its gfx
std::optional<InstallRefusal> choose_release(Context& ctx);   // --rocm, or the newest the matrix allows
// Where no release fits here: " ROCm X is the newest release whose GPU list
// has GFX; it lists ...: on one of those, ..." ("" where the matrix knows none).
std::string supported_elsewhere(const Context& ctx, const std::string& gfx);
std::optional<InstallRefusal> choose_key(Context& ctx);       // the signing key, by the recipe or --trust-key
// Where the chosen release asks an older ROCm to go first (remove_first):
// the other way forward, a release picked by default here that installs
// over it, with what it gives up for this GPU; "" where none fits.
std::string keep_older_instead(const Context& ctx);
void choose_user(Context& ctx, const std::string& user_home);  // user, home, venv
std::optional<InstallRefusal> choose_torch(Context& ctx);     // the wheel index for the release
void find_leftovers(Context& ctx);                             // old AMD lists and pins, shadowing packages

// The distribution's own ROCm packages (--from distro, from_distro.cpp): the
// whole plan, or why not (no packages of its own, a package manager rocmdoc
// does not drive, a GPU they are not built for).
PlanResult plan_from_distro(Context& ctx, const std::string& user_home, bool chosen_by_default);
// Without --from: whether the recipe documents the distribution's packages
// as the simpler path here and they are built for this GPU.
bool distro_preferred(Context& ctx);
// Where the distribution's own packages are built for this GPU, the
// sentence that names them: a note beside AMD's plan, or part of the advice
// where no AMD release fits. "" otherwise.
std::string distro_alternative(const Context& ctx, bool beside_amd_plan);

// Step builders, in plan order (each appends what applies to ctx).
void add_preflight_steps(const Context& ctx, std::vector<PlanStep>& steps);
void add_repository_steps(const Context& ctx, std::vector<PlanStep>& steps);
void add_driver_steps(const Context& ctx, std::vector<PlanStep>& steps);
// Install a kernel the release lists and reboot into it (listed_kernel_package).
void add_listed_kernel_steps(const Context& ctx, std::vector<PlanStep>& steps);
void add_userspace_steps(const Context& ctx, std::vector<PlanStep>& steps);
void add_torch_steps(const Context& ctx, std::vector<PlanStep>& steps);

}  // namespace rocmdoc::plan
