// rocm: what of ROCm is installed and where it comes from — the installs
// under /opt, the dpkg, rpm or pacman packages, AMD's apt repositories and
// pins, the dnf, zypper and pacman repositories, and the dynamic linker's
// configuration naming ROCm's libraries, and the OpenCL runtimes registered
// with the ICD loader.
#include "formats/dpkg_status.h"
#include "formats/pacman_desc.h"
#include "probe/rocm/apt.h"
#include "probe/rocm/etc_recorded.h"
#include "probe/rocm/installs.h"
#include "probe/rocm/opencl_icds.h"
#include "probe/rocm/packages.h"
#include "probe/rocm/pacman_repos.h"
#include "probe/rocm/rocblas_kernels.h"
#include "probe/rocm/rpm_repos.h"
#include "probe/package_list.h"
#include "probe/probe.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

// An RPM or pacman system's packages, in the shape of dpkg's.
void probe_other_packages(Json& section, const Result<PackageList>& list) {
  Json why;
  if (!list) {
    why = unknown(list.error());
  } else if (list->packages.empty()) {
    // A system always has packages: an empty database cannot tell that
    // ROCm is absent.
    why = unknown(list->source + ": no packages" +
                  (list->unreadable_why.empty() ? "" : " (" + list->unreadable_why.front() + ")"));
  }
  if (!why.is_null()) {
    section["packages"] = why;
    section["packages_incomplete"] = why;
    section["distro_release"] = why;
    return;
  }
  DpkgStatus status;
  status.packages = list->packages;
  section["packages"] = rocm_packages_fact(status);
  section["distro_release"] = distro_rocm_release_fact(section["packages"]);
  // rpm and pacman record a package once its transaction is done: there is
  // no half-configured state to list.
  section["packages_incomplete"] = Json::array();
  section["packages_unreadable"] = Json{{"count", list->unreadable}, {"first", list->unreadable_why}};
}

// dpkg's status file where there is one, else rpm's database, else
// pacman's; with none, dpkg's absence is the reason given.
void probe_packages(ProbeContext& ctx, Json& section) {
  FileStat dpkg_status = ctx.fs().stat(kDpkgStatusPath);
  if (dpkg_status.absent()) {
    std::string sqlite = rpm_sqlite_path(ctx.fs());
    if (!sqlite.empty()) {
      section["package_manager"] = "rpm";
      return probe_other_packages(section, read_rpm_sqlite(ctx.fs(), sqlite));
    }
    if (rpm_legacy_database_present(ctx.fs())) {
      section["package_manager"] = "rpm";
      return probe_other_packages(section, read_rpm_query(ctx));
    }
    if (pacman_database_present(ctx.fs())) {
      section["package_manager"] = "pacman";
      return probe_other_packages(section, read_pacman_local(ctx.fs()));
    }
    section["package_manager"] = unknown(std::string("no package database: none of ") + kDpkgStatusPath +
                                         ", rpm's in /var/lib/rpm or /usr/lib/sysimage/rpm, " + kPacmanLocalDir);
  } else {
    section["package_manager"] = "dpkg";
  }
  auto& bytes = ctx.dpkg().text();
  Json why;
  if (!bytes) {
    why = unknown(bytes.error());
  } else if (looks_binary(*bytes)) {
    why = unknown(std::string(kDpkgStatusPath) + ": binary content, not a dpkg status file");
  }
  if (!why.is_null()) {
    section["packages"] = why;
    section["packages_incomplete"] = why;
    section["distro_release"] = why;
    return;
  }
  const DpkgStatus& status = ctx.dpkg().status();
  if (status.packages.empty()) {
    // A dpkg system always has packages: an empty or unparsable file
    // cannot tell that ROCm is absent.
    why = unknown(std::string(kDpkgStatusPath) + ": no package stanzas");
    section["packages"] = why;
    section["packages_incomplete"] = why;
    section["distro_release"] = why;
    return;
  }
  section["packages"] = rocm_packages_fact(status);
  section["distro_release"] = distro_rocm_release_fact(section["packages"]);
  section["packages_incomplete"] = rocm_packages_incomplete_fact(status);
}

// The paths a ld.so.conf file names that lie under a ROCm install.
Json rocm_paths_in_ld_conf(std::string_view text) {
  Json paths = Json::array();
  for (auto& raw : split_lines(text)) {
    std::string line = trim(std::string_view(raw).substr(0, raw.find('#')));
    if (starts_with(line, "/opt/rocm")) paths.push_back(line);
  }
  return paths;
}

void probe_ld_so_conf(ProbeContext& ctx, Json& section) {
  const std::string dir = "/etc/ld.so.conf.d";
  auto names = ctx.fs().list_dir(dir);
  if (!names) {
    FileStat st = ctx.fs().stat(dir);
    bool absent = st.absent();
    // Without the directory, /etc/ld.so.conf alone is a configuration; with
    // neither, the tree did not record /etc (etc_recorded.h).
    if (!absent || !etc_recorded(ctx)) {
      section["ld_so_conf"] = unknown(absent ? names.error() + ", and no /etc/ld.so.conf" : names.error());
      return;
    }
    names = Result<std::vector<std::string>>::ok({});
  }
  Json out = Json::array();
  std::vector<std::string> files = {"/etc/ld.so.conf"};
  for (auto& name : *names)
    if (ends_with(name, ".conf")) files.push_back(path_join(dir, name));
  for (auto& file : files) {
    FileStat st = ctx.fs().stat(file);
    if (st.absent()) continue;
    auto text = ctx.fs().read_file(file, 1024 * 1024);
    if (!text || looks_binary(*text)) {
      section["ld_so_conf"] = unknown(text ? file + ": binary content, not a ld.so.conf file" : text.error());
      return;
    }
    Json paths = rocm_paths_in_ld_conf(*text);
    if (!paths.empty()) out.push_back(Json{{"file", file}, {"paths", paths}});
  }
  section["ld_so_conf"] = out;
}

}  // namespace

Json probe_rocm(ProbeContext& ctx, const Json&) {
  Json section = Json::object();
  probe_rocm_installs(ctx, section);
  probe_rocm_bundles(ctx, section);
  probe_packages(ctx, section);
  probe_rocm_apt(ctx, section);
  probe_rocm_rpm_repos(ctx, section);
  probe_rocm_pacman_repos(ctx, section);
  probe_ld_so_conf(ctx, section);
  probe_opencl_icds(ctx, section);
  return section;
}

}  // namespace rocmdoc
