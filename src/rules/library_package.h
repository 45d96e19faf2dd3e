// Which package ships a shared library (rules/matrix/libraries.yaml): for
// ROCm's libraries the package in AMD's repository, for the system
// libraries the ROCm stack links the distribution's package. A pasted
// "libamdhip64.so.6: cannot open shared object file" can then be answered
// with the package to install rather than with a search to run.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocmdoc {

// A package renamed or dropped from one version of a distribution on
// (Debian 13 and Ubuntu 24.04's 64-bit time_t transition: libelf1 ->
// libelf1t64; libtinfo5 no longer built).
struct LibraryRename {
  std::string_view distro;                 // os-release ID
  std::string_view from_version;           // os-release VERSION_ID, compared as a version
  std::optional<std::string_view> package; // null: that version no longer ships it
};

// A distribution's own package of a ROCm library (Ubuntu 26.04's
// libamdhip64-7, ROCm 7.1.0 in universe): what to install where AMD's
// repository is not configured. It ships one soname major only.
struct DistributionLibraryPackage {
  std::string_view distro;      // os-release ID
  std::string_view version;     // os-release VERSION_ID, exactly
  std::string_view package;
  std::string_view soname;      // "libamdhip64.so.7": the major it ships
  std::string_view source;      // an id of the file's sources
};

struct LibraryPackage {
  // A soname stem ("libamdhip64": every version) or a soname with its major
  // version ("libtinfo.so.5": the package differs per major version).
  std::string_view library;
  std::string_view origin;                 // amd (AMD's repository) or distribution
  std::string_view deb;                    // Debian and Ubuntu
  // Fedora, RHEL and their rebuilds; for origin amd also SUSE, whose AMD
  // packages have the RPM names. Left out for amd: the Debian name.
  std::optional<std::string_view> rpm;
  std::vector<LibraryRename> renamed;
  std::vector<DistributionLibraryPackage> distribution_packages;  // origin amd only
  std::string_view confidence;
  std::optional<std::string_view> unconfirmed;
  std::vector<std::string_view> sources;
};

// The names a library is looked up by, most specific first:
// "/opt/rocm/lib/libamdhip64.so.6.4.1" -> libamdhip64.so.6.4.1,
// libamdhip64.so.6.4, libamdhip64.so.6, libamdhip64.so, libamdhip64.
std::vector<std::string> library_lookup_names(std::string_view library);

// The package family of an os-release ID for these names: "deb", "rpm",
// "suse", or "" for one rocmdoc names no package for (Arch: pacman -F).
std::string package_family(std::string_view distro_id);

// The package that ships `library` on that distribution (version_id may be
// empty: no rename applies), or nullopt when the map does not know it.
// `amd_repository`: AMD's repository has packages for this distribution;
// without it (Fedora, Arch) AMD's package names would be advice to install
// what no configured repository has.
std::optional<std::string> package_for_library(const std::vector<LibraryPackage>& map, std::string_view library,
                                               std::string_view family, std::string_view distro_id,
                                               std::string_view version_id, bool amd_repository);

// The distribution's own package that ships `library` on that version,
// where the map lists one whose soname major is the one asked for (a
// "libamdhip64.so.6" is not in Ubuntu 26.04's libamdhip64-7); a library
// named without a major ("libamdhip64.so") takes the package as listed.
const DistributionLibraryPackage* distribution_package_for_library(const std::vector<LibraryPackage>& map,
                                                                   std::string_view library, std::string_view distro_id,
                                                                   std::string_view version_id);

// The map's entry for `library` under its most specific lookup name, or
// null. Its origin says whether the library is ROCm's own ("amd") or the
// distribution's: a missing libamdhip64 is not a system library the stack
// forgot to declare.
const LibraryPackage* library_entry(const std::vector<LibraryPackage>& map, std::string_view library);

}  // namespace rocmdoc
