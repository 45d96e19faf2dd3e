#include "probe/package_list.h"

#include <sqlite3.h>

#include <cstring>
#include <memory>

#include "base/text.h"
#include "formats/pacman_desc.h"
#include "formats/rpm_header.h"

namespace rocmdoc {

namespace {

constexpr const char* kRpmSqlitePaths[] = {"/var/lib/rpm/rpmdb.sqlite", "/usr/lib/sysimage/rpm/rpmdb.sqlite"};
constexpr const char* kRpmLegacyPaths[] = {"/var/lib/rpm/Packages", "/var/lib/rpm/Packages.db",
                                           "/usr/lib/sysimage/rpm/Packages", "/usr/lib/sysimage/rpm/Packages.db"};

// A file, or a link to one (stat does not follow links), or a path that
// could not be looked at: reading it then says why.
bool is_regular(FileSystem& fs, const std::string& path) {
  FileStat st = fs.stat(path);
  return st.type == FileType::regular || st.type == FileType::symlink || !st.error.empty();
}

void note_unreadable(PackageList& list, std::string why) {
  if (list.unreadable++ < PackageList::kWhyKept) list.unreadable_why.push_back(std::move(why));
}

DpkgPackage installed(std::string name, std::string arch, std::string version, std::string packager,
                      std::string vendor, std::string source) {
  DpkgPackage p;
  p.name = std::move(name);
  p.architecture = std::move(arch);
  p.version = std::move(version);
  p.status = "install ok installed";
  p.maintainer = std::move(packager);
  p.vendor = std::move(vendor);
  p.source = std::move(source);
  return p;
}

// "rocm-runtime-6.4.2-1.fc43.src.rpm" -> "rocm-runtime": the source package's
// name is everything before its version and release.
std::string source_name(const std::string& sourcerpm) {
  std::string s = sourcerpm;
  for (int dashes = 0; dashes < 2; ++dashes) {
    auto dash = s.rfind('-');
    if (dash == std::string::npos) return "";
    s.resize(dash);
  }
  return s;
}

struct SqliteClose {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct SqliteFinalize {
  void operator()(sqlite3_stmt* st) const { sqlite3_finalize(st); }
};

}  // namespace

std::string rpm_sqlite_path(FileSystem& fs) {
  for (auto* p : kRpmSqlitePaths)
    if (is_regular(fs, p)) return p;
  return "";
}

bool rpm_legacy_database_present(FileSystem& fs) {
  for (auto* p : kRpmLegacyPaths)
    if (is_regular(fs, p)) return true;
  return false;
}

bool pacman_database_present(FileSystem& fs) { return fs.stat(kPacmanLocalDir).type == FileType::directory; }

Result<PackageList> read_rpm_sqlite(FileSystem& fs, const std::string& path) {
  using R = Result<PackageList>;
  auto bytes = fs.read_file(path, kRpmSqliteMaxBytes);
  if (!bytes) return R::fail(bytes.error());
  static constexpr char kMagic[] = "SQLite format 3";  // with its NUL: the file's first 16 bytes
  if (bytes->size() < 100 || std::memcmp(bytes->data(), kMagic, sizeof kMagic) != 0)
    return R::fail(path + ": not an SQLite database");
  sqlite3* raw = nullptr;
  if (sqlite3_open_v2(":memory:", &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_PRIVATECACHE, nullptr) != SQLITE_OK) {
    std::string why = raw ? sqlite3_errmsg(raw) : "out of memory";
    sqlite3_close(raw);
    return R::fail(path + ": SQLite: " + why);
  }
  std::unique_ptr<sqlite3, SqliteClose> db(raw);
  auto size = static_cast<sqlite3_int64>(bytes->size());
  auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(bytes->size()));
  if (!copy) return R::fail(path + ": SQLite: out of memory for " + std::to_string(bytes->size()) + " bytes");
  std::memcpy(copy, bytes->data(), bytes->size());
  // rpm keeps the database in WAL mode (file format bytes 18 and 19 are 2);
  // an in-memory copy has no -wal file to read, so it is read as a
  // rollback-journal database. rpm checkpoints the WAL when it closes, so
  // only a transaction still running is missed.
  if (copy[18] == 2 && copy[19] == 2) copy[18] = copy[19] = 1;
  int rc = sqlite3_deserialize(db.get(), "main", copy, size, size,
                               SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
  if (rc != SQLITE_OK) return R::fail(path + ": SQLite: " + sqlite3_errmsg(db.get()));
  sqlite3_stmt* st_raw = nullptr;
  if (sqlite3_prepare_v2(db.get(), "SELECT hnum, blob FROM Packages ORDER BY hnum", -1, &st_raw, nullptr) != SQLITE_OK)
    return R::fail(path + ": SQLite: " + sqlite3_errmsg(db.get()));
  std::unique_ptr<sqlite3_stmt, SqliteFinalize> st(st_raw);
  PackageList list;
  list.manager = "rpm";
  list.source = path;
  while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) {
    auto hnum = sqlite3_column_int64(st.get(), 0);
    const void* blob = sqlite3_column_blob(st.get(), 1);
    int length = sqlite3_column_bytes(st.get(), 1);
    std::string_view view(static_cast<const char*>(blob), blob ? static_cast<size_t>(length) : 0);
    auto h = parse_rpm_header(view);
    if (!h) {
      note_unreadable(list, "package " + std::to_string(hnum) + ": " + h.error());
      continue;
    }
    // rpm's pseudo-package for imported signing keys is no software.
    if (h->name == "gpg-pubkey") continue;
    list.packages.push_back(installed(h->name, h->arch, h->evr(), h->packager, h->vendor, source_name(h->sourcerpm)));
  }
  if (rc != SQLITE_DONE) return R::fail(path + ": SQLite: " + sqlite3_errmsg(db.get()));
  return R::ok(std::move(list));
}

std::vector<std::string> rpm_query_argv() {
  // rpm's query format expands \t and \n itself; "(none)" marks a tag the
  // package does not have.
  return {"rpm", "-qa", "--qf",
          "%{NAME}\\t%{EPOCH}\\t%{VERSION}\\t%{RELEASE}\\t%{ARCH}\\t%{VENDOR}\\t%{PACKAGER}\\t%{SOURCERPM}\\n"};
}

Result<PackageList> read_rpm_query(ProbeContext& ctx) {
  using R = Result<PackageList>;
  auto argv = rpm_query_argv();
  ProcessResult r = ctx.run_tool(argv, std::chrono::seconds(60));
  std::string what = "rpm -qa";
  if (r.not_recorded) return R::fail(what + " was not recorded on this machine");
  if (!r.started) return R::fail(what + ": " + (r.error.empty() ? "did not start" : r.error));
  if (r.timed_out) return R::fail(what + ": timed out after 60 s");
  if (r.exit_code != 0)
    return R::fail(what + ": exit " + std::to_string(r.exit_code) + (r.err.empty() ? "" : ": " + trim(r.err)));
  PackageList list;
  list.manager = "rpm";
  list.source = what;
  size_t number = 0;
  auto none = [](const std::string& v) { return v == "(none)" ? std::string() : v; };
  for (auto& line : split_lines(r.out)) {
    ++number;
    if (trim(line).empty()) continue;
    auto f = split(line, '\t');
    if (f.size() != 8 || f[0].empty() || f[2].empty()) {
      note_unreadable(list, "line " + std::to_string(number) + ": not 8 tab-separated fields");
      continue;
    }
    if (f[0] == "gpg-pubkey") continue;
    std::string epoch = none(f[1]);
    std::string evr = (epoch.empty() ? "" : epoch + ":") + f[2] + "-" + f[3];
    list.packages.push_back(installed(f[0], none(f[4]), evr, none(f[6]), none(f[5]), source_name(none(f[7]))));
  }
  return R::ok(std::move(list));
}

Result<PackageList> read_pacman_local(FileSystem& fs) {
  using R = Result<PackageList>;
  auto names = fs.list_dir(kPacmanLocalDir);
  if (!names) return R::fail(names.error());
  PackageList list;
  list.manager = "pacman";
  list.source = kPacmanLocalDir;
  for (auto& name : *names) {
    // ALPM_DB_VERSION is a file beside the package folders.
    std::string dir = path_join(kPacmanLocalDir, name);
    if (fs.stat(dir).type != FileType::directory) continue;
    std::string path = path_join(dir, "desc");
    auto text = fs.read_file(path, kPacmanDescMaxBytes);
    if (!text) {
      note_unreadable(list, text.error());
      continue;
    }
    auto p = parse_pacman_desc(*text);
    if (!p) {
      note_unreadable(list, path + ": " + p.error());
      continue;
    }
    list.packages.push_back(installed(p->name, p->arch, p->version, p->packager, "", p->base));
  }
  return R::ok(std::move(list));
}

}  // namespace rocmdoc
