// Looking a shared library up in the map of libraries.yaml.
#include "rules/library_package.h"

#include "base/version.h"

namespace rocmdoc {

std::vector<std::string> library_lookup_names(std::string_view library) {
  size_t slash = library.rfind('/');
  std::string name(slash == std::string_view::npos ? library : library.substr(slash + 1));
  std::vector<std::string> out;
  if (name.empty()) return out;
  out.push_back(name);
  // Drop one version part at a time, down to the bare ".so", then the stem:
  // the map is written in stems or stem.so.MAJOR, the log has whatever the
  // program linked.
  size_t so = name.find(".so");
  if (so == std::string::npos) return out;
  std::string cut = name;
  while (cut.size() > so + 3) {
    size_t dot = cut.rfind('.');
    if (dot == std::string::npos || dot < so + 3) break;
    cut.resize(dot);
    out.push_back(cut);
  }
  out.push_back(name.substr(0, so));
  return out;
}

std::string package_family(std::string_view id) {
  if (id == "debian" || id == "ubuntu") return "deb";
  for (std::string_view rpm : {"rhel", "fedora", "centos", "rocky", "almalinux", "ol", "azurelinux"})
    if (id == rpm) return "rpm";
  if (id == "sles" || id == "opensuse-leap" || id == "opensuse-tumbleweed") return "suse";
  return "";
}

// The map's entry for a library, by its most specific name, or null.
const LibraryPackage* library_entry(const std::vector<LibraryPackage>& map, std::string_view library) {
  for (auto& name : library_lookup_names(library))
    for (auto& e : map)
      if (e.library == name) return &e;
  return nullptr;
}

std::optional<std::string> package_for_library(const std::vector<LibraryPackage>& map, std::string_view library,
                                               std::string_view family, std::string_view distro_id,
                                               std::string_view version_id, bool amd_repository) {
  if (family.empty()) return std::nullopt;
  const LibraryPackage* e = library_entry(map, library);
  if (!e) return std::nullopt;
  bool amd = e->origin == "amd";
  if (amd && !amd_repository) return std::nullopt;
  if (family == "deb") {
    std::optional<std::string_view> package = e->deb;
    // The newest rename that applies to this version wins.
    std::string_view since;
    for (auto& r : e->renamed)
      if (r.distro == distro_id && !version_id.empty() && compare_versions(version_id, r.from_version) >= 0 &&
          (since.empty() || compare_versions(r.from_version, since) > 0))
        package = r.package, since = r.from_version;
    return package ? std::optional<std::string>(std::string(*package)) : std::nullopt;
  }
  if (family == "suse" && !amd) return std::nullopt;  // SUSE names its system libraries otherwise
  if (e->rpm) return std::string(*e->rpm);
  return amd ? std::optional<std::string>(std::string(e->deb)) : std::nullopt;
}

const DistributionLibraryPackage* distribution_package_for_library(const std::vector<LibraryPackage>& map,
                                                                   std::string_view library, std::string_view distro_id,
                                                                   std::string_view version_id) {
  const LibraryPackage* e = library_entry(map, library);
  if (!e || distro_id.empty() || version_id.empty()) return nullptr;
  // The name as far as its major: "libamdhip64.so.7" of ".so.7.1.0" or a
  // path; none where the text names no major.
  std::vector<std::string> names = library_lookup_names(library);
  std::string with_major;
  for (auto& n : names) {
    size_t so = n.find(".so.");
    if (so != std::string::npos && n.find('.', so + 4) == std::string::npos) with_major = n;
  }
  for (auto& p : e->distribution_packages)
    if (p.distro == distro_id && p.version == version_id && (with_major.empty() || p.soname == with_major)) return &p;
  return nullptr;
}

}  // namespace rocmdoc
