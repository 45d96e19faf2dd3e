// The install recipes (rules/install/*.yaml): repository URLs, the signing
// key and its fingerprint, the pin, list-line formats, package names and the
// distributions and releases rocmdoc installs, as data with sources. Loaded
// strictly: an unknown key or a wrong type is an error with file:line:column.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rules/matrix.h"
#include "rules/rule_loader.h"

namespace rocmdoc {

struct RecipeDistro {
  std::string id;             // os-release ID: "ubuntu", "debian"
  std::string version;        // os-release VERSION_ID: "24.04", "12"
  std::string codename;       // its own codename: "noble", "bookworm"
  std::string repo_codename;  // the suite of AMD's repositories it uses (Debian 12: "jammy")
  std::string driver_arch;    // arch= of the driver list line ("amd64,i386" on Ubuntu)
  std::vector<std::string> headers;      // with {kernel}
  std::string mok_key;                   // the DKMS signing certificate to enrol under Secure Boot
  std::vector<std::string> mok_new_key;  // argv that creates it when missing
  std::vector<std::string> notes;        // shown in the plan (unverified values)
  std::string name() const { return id + " " + version; }
};

// A repository signing key: downloaded to a file, checked by fingerprint,
// only then converted into the keyring apt uses.
struct RecipeKey {
  std::string url, fingerprint, keyring, download;
  // Set where no source gives the fingerprint (then `fingerprint` is empty):
  // the user must confirm one (--trust-key); rocmdoc never trusts it silently.
  std::string fingerprint_unknown;
  // Where the fingerprint comes from when that is not an install guide:
  // shown in the plan's notes, so the user can judge it.
  std::string fingerprint_note;
};

// A deb822 .sources file (the Core SDK line's form), written whole in place
// of the one-line .list files and the pin.
struct RecipeSourceFile {
  std::string path;     // /etc/apt/sources.list.d/amdrocm-stable.sources
  std::string uri;      // with {dist}
  std::string suite;    // "stable"
  std::string content;  // with {uri} and {keyring}
  std::vector<std::pair<std::string, std::string>> dists;  // "ubuntu 24.04" -> "ubuntu2404"
  std::string uri_for(const RecipeDistro& d) const;        // empty: no repository for d
  std::string content_for(const RecipeDistro& d, const std::string& keyring) const;
};

// Something rocmdoc cannot install for a release, and what to do instead.
struct RecipeGap {
  std::string reason, instead;
};

struct RecipeRelease {
  std::string version;        // "7.2.4"
  std::string rocm_repo;      // https://repo.radeon.com/rocm/apt/7.2.4 (empty with source_file)
  std::string graphics_repo;  // empty where the release has no graphics line
  std::string driver;         // "30.30.4" (empty with driver_gap)
  std::string driver_repo;
  std::string driver_package_marker;  // in amdgpu-dkms's version ("30300400")
  std::string torch_rocm;     // the download.pytorch.org variant ("7.2") (empty with torch_gap)
  std::vector<std::string> distros;     // "ubuntu 24.04"
  std::vector<SourceLocation> distros_where;  // where each of distros is written
  std::vector<std::string> unverified;  // shown in the plan's notes
  // Per-release differences (the Core SDK line); unset: the shared recipe.
  // Not picked by default: installed when --rocm names it, on the
  // distributions of default_for, and where no other covered release lists
  // the GPU there but this one does (planner, on_request_listing).
  bool on_request = false;
  std::vector<std::string> default_for;    // where it is the default all the same ("ubuntu 26.04")
  std::optional<RecipeKey> key;            // its own signing key
  std::optional<RecipeSourceFile> source_file;  // a deb822 file instead of the lists and the pin
  std::vector<std::string> prerequisites;  // distribution packages it needs besides the base ones
  std::vector<std::string> rocm_packages;  // instead of the shared `rocm` packages
  std::string gfx_package;                 // "amdrocm10.0-{gfx}": a package built for one target ...
  std::vector<std::string> gfx_packages;   // ... that exists for these targets
  std::vector<std::string> remove_first;   // packages of an older install to uninstall first (a gate: rocmdoc
  std::string remove_first_how;            // does not remove them), and how the guide says to
  bool ld_so_conf = true;                  // false: no loader file and no alternatives check (the packages do it)
  std::vector<std::string> rocminfo;       // the verification's rocminfo argv (default /opt/rocm/bin/rocminfo)
  std::vector<std::string> version_argv;   // a command whose output must contain version_text
  std::string version_text;
  std::optional<RecipeGap> driver_gap;     // no driver recipe: --no-driver is required
  std::optional<RecipeGap> torch_gap;      // no PyTorch recipe: --no-torch is required
  bool supports(const RecipeDistro& d) const;
  bool picked_by_default(const RecipeDistro& d) const;  // supports d, and not on request there
  std::string package_for_gfx(const std::string& gfx) const;  // gfx_package for gfx, or "" when none is built for it
};

struct DiskNeed {
  std::string path;
  uint64_t min_bytes = 0;
};

// A distribution's own ROCm packages (distro-packages.yaml), for `install
// --from distro`. Their release and GPU targets are the matrix's
// (own_packages in distributions.yaml); here is how to install them.
struct RecipeOwnPackages {
  std::string id;                        // os-release ID
  std::vector<std::string> versions;     // VERSION_IDs; empty: every version (Arch, a rolling release)
  std::string manager;                   // apt, dnf, pacman: only apt is planned (the steps read dpkg)
  std::vector<std::string> packages;
  std::vector<std::string> rocminfo;     // the verification's rocminfo argv
  std::string torch_rocm;                // download.pytorch.org variant for the venv ("7.2")
  std::vector<std::string> notes;        // shown in the plan
  // Set where a source documents the distribution's packages as the simpler
  // path: then --auto without --from plans them when the GPU is in their
  // list. Why, shown in the plan.
  std::string auto_prefer;
  bool matches(const std::string& distro_id, const std::string& version_id) const;
  // The one command that installs them ("dnf install -y rocm-hip ..."), for
  // a plan rocmdoc does not run itself.
  std::vector<std::string> install_argv() const;
};

struct InstallRecipes {
  std::string as_of;
  RecipeKey key;  // the shared signing key (always with a fingerprint)
  std::string pin_path, pin_content;
  std::string driver_list, rocm_list, list_line, rocm_arch, leftovers_to;
  std::vector<std::string> base_packages, python_packages, driver_packages, rocm_packages, venv_packages,
      secure_boot_packages, shadowing_packages;
  std::vector<std::string> groups;
  std::string ld_conf_path, ld_conf_content;
  std::vector<DiskNeed> disk;
  std::vector<std::string> apt_locks;
  std::string venv_dir;
  std::vector<RecipeDistro> distros;
  std::vector<RecipeRelease> releases;  // newest first
  std::vector<RecipeOwnPackages> own_packages;  // the distributions' own ROCm (--from distro)
  std::vector<std::string> own_gives_up;        // what a --from distro plan gives up, in every such plan
  // In place of the own_gives_up lines that name {amd_release}, where AMD's
  // plan has no release for the GPU on this distribution ({amd_why} says why).
  std::vector<std::string> own_gives_up_amd_none;
  std::vector<DiskNeed> own_disk;               // free space a --from distro plan needs

  const RecipeDistro* distro(const std::string& id, const std::string& version) const;
  const RecipeRelease* release(const std::string& version) const;
  const RecipeOwnPackages* own_packages_for(const std::string& id, const std::string& version) const;
  RecipeKey key_for(const RecipeRelease& r) const;  // the release's own key, else the shared one
  // "deb [arch=A signed-by=KEYRING] URI C main"
  std::string list_line_for(const std::string& arch, const std::string& keyring, const std::string& uri,
                            const std::string& codename) const;
};

// files: the rules/install/*.yaml files (files_under(files, "install")).
InstallRecipes load_install_recipes(const std::vector<RuleFile>& files, std::vector<LoadError>& errors);

// The built-in recipes, or those under rules_dir/install when rules_dir is set.
InstallRecipes load_install_recipes_from(const std::string& rules_dir, std::vector<LoadError>& errors);

// Lint: every (distribution, release) pair a recipe installs should be one
// the matrix lists for that release (check decides "supported" from the
// matrix, install from the recipe). One warning per pair that is not, at
// the recipe's position; warnings, since the matrix may just not know yet.
std::vector<LoadError> recipe_pairs_missing_from_matrix(const InstallRecipes& recipes, const Matrix& matrix);

}  // namespace rocmdoc
