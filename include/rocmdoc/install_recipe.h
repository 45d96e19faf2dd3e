// The install recipes (rules/install/*.yaml): repository URLs, the signing
// key and its fingerprint, the pin, list-line formats, package names and the
// distributions and releases rocmdoc installs, as data with sources. Loaded
// strictly: an unknown key or a wrong type is an error with file:line:column.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rocmdoc/rule_set.h"

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

struct RecipeRelease {
  std::string version;        // "7.2.4"
  std::string rocm_repo;      // https://repo.radeon.com/rocm/apt/7.2.4
  std::string graphics_repo;  // empty where the release has no graphics line
  std::string driver;         // "30.30.4"
  std::string driver_repo;
  std::string driver_package_marker;  // in amdgpu-dkms's version ("30300400")
  std::string torch_rocm;     // the download.pytorch.org variant ("7.2")
  std::vector<std::string> distros;     // "ubuntu 24.04"
  std::vector<std::string> unverified;  // shown in the plan's notes
  bool supports(const RecipeDistro& d) const;
};

struct DiskNeed {
  std::string path;
  uint64_t min_bytes = 0;
};

struct InstallRecipes {
  std::string as_of;
  std::string key_url, key_fingerprint, keyring, key_download;
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

  const RecipeDistro* distro(const std::string& id, const std::string& version) const;
  const RecipeRelease* release(const std::string& version) const;
  // "deb [arch=A signed-by=K] URI C main"
  std::string list_line_for(const std::string& arch, const std::string& uri, const std::string& codename) const;
};

// files: the rules/install/*.yaml files (files_under(files, "install")).
InstallRecipes load_install_recipes(const std::vector<RuleFile>& files, std::vector<LoadError>& errors);

// The built-in recipes, or those under rules_dir/install when rules_dir is set.
InstallRecipes load_install_recipes_from(const std::string& rules_dir, std::vector<LoadError>& errors);

}  // namespace rocmdoc
