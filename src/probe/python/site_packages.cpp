#include "probe/python/site_packages.h"

#include <algorithm>
#include <set>

#include "probe/python/torch.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

// Debian and Ubuntu's shared directory for every Python 3 they ship.
constexpr const char* kDebianDistPackages = "/usr/lib/python3/dist-packages";

// <lib>/python3.N/<leaf> for every python3.N under a lib directory:
// Debian's pip uses /usr/local/lib/python3.N/dist-packages, Fedora and
// Arch /usr/lib{,64}/python3.N/site-packages, venvs <prefix>/lib/...
struct VersionedLib {
  const char* lib;
  const char* leaf;
};
constexpr VersionedLib kSystemLibs[] = {
    {"/usr/lib", "site-packages"},        {"/usr/lib64", "site-packages"},       {"/usr/local/lib", "dist-packages"},
    {"/usr/local/lib", "site-packages"},  {"/usr/local/lib64", "site-packages"},
};

class Collector {
 public:
  explicit Collector(ProbeContext& ctx) : ctx_(ctx) {}

  void add(const std::string& path, Json python_version) {
    auto real = ctx_.fs().resolve(path);
    if (!real || ctx_.fs().stat(*real).type != FileType::directory) return;
    if (!seen_.insert(*real).second) return;
    result_.directories.push_back(SitePackages{*real, std::move(python_version)});
  }

  void add_versioned(const std::string& lib, const std::string& leaf) {
    // Every pyenv shim may run every pyenv version, so the same prefixes
    // come once per shim: list each directory once.
    if (!listed_.insert(lib + '\n' + leaf).second) return;
    auto names = ctx_.fs().list_dir_starting_with(lib, "python3.");
    if (!names) return;  // most of these do not exist on any one machine
    for (auto& name : *names)
      if (auto v = python_version_of_name(name); !v.empty()) add(lib + "/" + name + "/" + leaf, v);
  }

  SitePackagesSearch& result() { return result_; }

 private:
  ProbeContext& ctx_;
  SitePackagesSearch result_;
  std::set<std::string> seen_;
  std::set<std::string> listed_;
};

// /usr/lib/python3/dist-packages is read by whichever Python 3 the system
// has; /usr/bin/python3 names the default one.
Json debian_dist_packages_version(const InterpreterSearch& found) {
  for (auto& py : found.interpreters)
    if (py.path == "/usr/bin/python3" && py.version.is_string()) return py.version;
  return unknown(std::string(kDebianDistPackages) +
                 " serves every system Python 3, and no /usr/bin/python3 tells which one is the default");
}

// The target user's ~/.local (user_home.h); when the home is unknown the
// interpreter search has said why already.
void add_user_site(const InterpreterSearch& found, Collector& c) {
  if (found.home.is_string()) c.add_versioned(found.home.get<std::string>() + "/.local/lib", "site-packages");
}

}  // namespace

SitePackagesSearch find_site_packages(ProbeContext& ctx, const InterpreterSearch& interpreters) {
  Collector c(ctx);
  c.add(kDebianDistPackages, debian_dist_packages_version(interpreters));
  for (auto& lib : kSystemLibs) c.add_versioned(lib.lib, lib.leaf);
  for (auto& py : interpreters.interpreters)
    for (auto& prefix : py.prefixes)
      for (const char* lib : {"/lib", "/lib64"}) c.add_versioned(prefix + lib, "site-packages");
  add_user_site(interpreters, c);
  auto& dirs = c.result().directories;
  std::sort(dirs.begin(), dirs.end(), [](auto& a, auto& b) { return a.path < b.path; });
  return std::move(c.result());
}

std::vector<std::string> system_site_packages(const std::string& version) {
  std::vector<std::string> out = {kDebianDistPackages};
  for (auto& lib : kSystemLibs) out.push_back(std::string(lib.lib) + "/python" + version + "/" + lib.leaf);
  return out;
}

}  // namespace rocmdoc
