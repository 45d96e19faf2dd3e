// Where PyTorch may be installed: the distribution's and pip's
// site-packages, each interpreter's prefix, and the user's ~/.local. Looked
// at directly, so that a recording without the interpreters themselves
// still shows its torch installs.
#pragma once

#include <string>
#include <vector>

#include "probe/python/interpreters.h"
#include "probe/probe.h"

namespace rocmdoc {

struct SitePackages {
  std::string path;     // resolved, existing directory
  Json python_version;  // "3.12", or unknown (/usr/lib/python3/dist-packages serves several)
};

struct SitePackagesSearch {
  std::vector<SitePackages> directories;  // sorted by path, each once
  std::vector<std::string> not_searched;  // sentences
};

SitePackagesSearch find_site_packages(ProbeContext& ctx, const InterpreterSearch& interpreters);

// The distribution's site-packages a system Python 3.N (/usr/bin/python3.N)
// imports, for every family rocmdoc knows; on one machine only its own
// family's exist. version: "3.12".
std::vector<std::string> system_site_packages(const std::string& version);

}  // namespace rocmdoc
