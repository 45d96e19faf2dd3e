// The installed packages of an RPM or pacman system, in the record dpkg's
// status file is read into (formats/dpkg_status.h), so that the rocm probe
// builds one `packages` fact whatever the package manager: the rules that
// ask "is ROCm installed" read rpm's and pacman's packages as they read
// dpkg's.
//
// rpm: the SQLite database of rpm 4.16+ (/var/lib/rpm/rpmdb.sqlite; SUSE
// keeps it in /usr/lib/sysimage/rpm), read from its bytes, never opened in
// place; older databases (Berkeley DB "Packages", SUSE's ndb "Packages.db")
// through `rpm -qa`. pacman: /var/lib/pacman/local/*/desc.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "formats/dpkg_status.h"
#include "probe/probe.h"

namespace rocmdoc {

struct PackageList {
  std::string manager;                // "rpm" or "pacman"
  std::string source;                 // the path or command read
  std::vector<DpkgPackage> packages;  // status "install ok installed", vendor from rpm's Vendor
  // Entries that could not be read: how many, and why for the first few.
  size_t unreadable = 0;
  std::vector<std::string> unreadable_why;
  static constexpr size_t kWhyKept = 8;
};

// Where rpm's SQLite database is, in the order rpm's own %_dbpath looks;
// "" when neither file exists.
std::string rpm_sqlite_path(FileSystem& fs);
// Whether an older rpm database (Berkeley DB or ndb) is there.
bool rpm_legacy_database_present(FileSystem& fs);
bool pacman_database_present(FileSystem& fs);

// The database's bytes go to an in-memory SQLite copy: nothing on the
// machine or in a recorded tree is opened by SQLite, so nothing there can
// be written (no journal, no -shm file), and a snapshot records the file.
constexpr size_t kRpmSqliteMaxBytes = 1024ull * 1024 * 1024;
Result<PackageList> read_rpm_sqlite(FileSystem& fs, const std::string& path);
// rpm -qa with a tab-separated query format, through the context's runner.
Result<PackageList> read_rpm_query(ProbeContext& ctx);
Result<PackageList> read_pacman_local(FileSystem& fs);

// The argv read_rpm_query runs (a recorded machine keys its output by it).
std::vector<std::string> rpm_query_argv();

}  // namespace rocmdoc
