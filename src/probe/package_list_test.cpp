// rpm's and pacman's databases read into the rocm probe's packages fact.
// The rpm databases are made here with SQLite itself, in the layout rpm
// 4.16+ writes (a Packages table of hnum and header blob, WAL mode).
#include "probe/package_list.h"

#include <sqlite3.h>

#include <cstring>

#include "catch.h"
#include "probe_test_support.h"
#include "probe/rocm/packages.h"
#include "test_support.h"

using namespace rocmdoc;
using rocmdoc::test::MemoryMachine;

namespace {

void put32(std::string& out, std::uint32_t v) {
  for (int shift : {24, 16, 8, 0}) out.push_back(char((v >> shift) & 0xff));
}

// A header blob with string tags only (see formats/rpm_header_test.cpp).
std::string header(const std::vector<std::pair<std::uint32_t, std::string>>& tags) {
  std::string index, data;
  for (auto& [tag, value] : tags) {
    put32(index, tag);
    put32(index, 6);
    put32(index, std::uint32_t(data.size()));
    put32(index, 1);
    data += value;
    data.push_back('\0');
  }
  std::string out;
  put32(out, std::uint32_t(tags.size()));
  put32(out, std::uint32_t(data.size()));
  return out + index + data;
}

std::string package_header(const std::string& name, const std::string& version, const std::string& release,
                           const std::string& vendor, const std::string& packager) {
  return header({{1000, name}, {1001, version}, {1002, release}, {1011, vendor}, {1015, packager},
                 {1022, "x86_64"}, {1044, name + "-" + version + "-" + release + ".src.rpm"}});
}

// An rpmdb.sqlite file's bytes holding these blobs, as rpm leaves it: in
// WAL mode, checkpointed.
std::string rpmdb(const std::vector<std::string>& blobs) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "CREATE TABLE Packages (hnum INTEGER PRIMARY KEY AUTOINCREMENT, blob BLOB NOT NULL)",
                       nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "INSERT INTO Packages (blob) VALUES (?)", -1, &st, nullptr) == SQLITE_OK);
  for (auto& b : blobs) {
    sqlite3_bind_blob(st, 1, b.data(), int(b.size()), SQLITE_TRANSIENT);
    REQUIRE(sqlite3_step(st) == SQLITE_DONE);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  sqlite3_int64 size = 0;
  unsigned char* bytes = sqlite3_serialize(db, "main", &size, 0);
  REQUIRE(bytes);
  std::string out(reinterpret_cast<char*>(bytes), size_t(size));
  sqlite3_free(bytes);
  sqlite3_close(db);
  out[18] = out[19] = 2;  // the file format bytes of a WAL-mode database
  return out;
}

const char* kFedora = "Fedora Project";

}  // namespace

TEST_CASE("rpm database: Fedora's ROCm from rpmdb.sqlite, in the packages fact", "[rpm][rocm]") {
  MemoryMachine m;
  m.fs->file("/var/lib/rpm/rpmdb.sqlite",
             rpmdb({package_header("bash", "5.2.37", "1.fc43", kFedora, kFedora),
                    package_header("rocm-hip", "6.4.2", "1.fc43", kFedora, kFedora),
                    package_header("rocm-runtime", "6.4.2", "2.fc43", kFedora, kFedora),
                    package_header("gpg-pubkey", "a15b79cc", "63d04c2c", "", ""),
                    package_header("rocminfo", "6.4.2", "1.fc43", kFedora, kFedora)}));
  Json r = m.run(probe_rocm);
  CHECK(r["package_manager"] == "rpm");
  REQUIRE(r["packages"].is_array());
  REQUIRE(r["packages"].size() == 3);
  CHECK(r["packages"][0]["name"] == "rocm-hip");
  CHECK(r["packages"][0]["version"] == "6.4.2-1.fc43");
  CHECK(r["packages"][0]["architecture"] == "x86_64");
  CHECK(r["packages"][0]["source"] == "rocm-hip");
  CHECK(r["packages"][0]["origin"] == "distro");
  CHECK(r["packages"][1]["name"] == "rocm-runtime");
  CHECK(r["packages"][2]["name"] == "rocminfo");
  CHECK(r["packages_incomplete"] == Json::array());
  CHECK(r["packages_unreadable"]["count"] == 0);
  CHECK(r["distro_release"] == Json{{"release", "6.4.2"}, {"package", "rocm-hip"}, {"version", "6.4.2-1.fc43"}});
}

TEST_CASE("rpm database: AMD's packages on Rocky Linux, SUSE's path", "[rpm][rocm]") {
  MemoryMachine m;
  m.fs->file("/usr/lib/sysimage/rpm/rpmdb.sqlite",
             rpmdb({package_header("rocm-core", "6.4.1.60401", "83.el9", "Advanced Micro Devices, Inc.",
                                   "ROCm Dev Support <rocm-dev.support@amd.com>"),
                    package_header("glibc", "2.34", "168.el9_6.14", "Rocky Enterprise Software Foundation",
                                   "Rocky Linux Build System (Peridot) <releng@rockylinux.org>")}));
  Json r = m.run(probe_rocm);
  REQUIRE(r["packages"].size() == 1);
  CHECK(r["packages"][0]["origin"] == "amd");
  CHECK(r["packages"][0]["origin_evidence"].size() == 3);
  CHECK(r["distro_release"] == nullptr);
}

TEST_CASE("rpm database: what cannot be read is unknown or counted, never a crash", "[rpm][rocm][malformed]") {
  SECTION("not an SQLite file") {
    MemoryMachine m;
    m.fs->file("/var/lib/rpm/rpmdb.sqlite", std::string(4096, 'x'));
    CHECK(unknown_reason(m.run(probe_rocm)["packages"]) == "/var/lib/rpm/rpmdb.sqlite: not an SQLite database");
  }
  SECTION("an SQLite file without rpm's table") {
    MemoryMachine m;
    std::string db = rpmdb({});
    // Rename the table in the file's schema text: "Packages" -> "Packagez".
    auto at = db.find("TABLE Packages");
    REQUIRE(at != std::string::npos);
    db[at + 13] = 'z';
    m.fs->file("/var/lib/rpm/rpmdb.sqlite", db);
    std::string why = unknown_reason(m.run(probe_rocm)["packages"]);
    INFO(why);
    CHECK(why.find("/var/lib/rpm/rpmdb.sqlite: SQLite: ") == 0);
  }
  SECTION("a truncated file") {
    MemoryMachine m;
    std::string db = rpmdb({package_header("rocm-hip", "6.4.2", "1.fc43", kFedora, kFedora)});
    m.fs->file("/var/lib/rpm/rpmdb.sqlite", db.substr(0, 150));
    CHECK(is_unknown(m.run(probe_rocm)["packages"]));
  }
  SECTION("a bad header among good ones is counted with its reason") {
    MemoryMachine m;
    m.fs->file("/var/lib/rpm/rpmdb.sqlite",
               rpmdb({std::string("\x00\x00\x00\x05", 4), package_header("rocm-hip", "6.4.2", "1.fc43", kFedora, kFedora)}));
    Json r = m.run(probe_rocm);
    REQUIRE(r["packages"].size() == 1);
    CHECK(r["packages_unreadable"]["count"] == 1);
    CHECK(r["packages_unreadable"]["first"][0] == "package 1: header of 4 bytes, shorter than its 8-byte start");
  }
  SECTION("permission denied") {
    MemoryMachine m;
    m.fs->file("/var/lib/rpm/rpmdb.sqlite", "x").fail("/var/lib/rpm/rpmdb.sqlite", "permission denied");
    Json r = m.run(probe_rocm);
    INFO(r.dump());
    CHECK(r["package_manager"] == "rpm");
    CHECK(unknown_reason(r["packages"]).find("permission denied") != std::string::npos);
  }
}

TEST_CASE("rpm database: a Berkeley DB system is read with rpm -qa", "[rpm][rocm]") {
  ProcessResult ok;
  ok.started = true;
  ok.exit_code = 0;
  ok.out = "rocm-hip\t(none)\t6.4.2\t1.el8\tx86_64\tAdvanced Micro Devices, Inc.\t(none)\trocm-hip-6.4.2-1.el8.src.rpm\n"
           "hipcc\t1\t1.1.1.60402\t120.el8\tx86_64\tAdvanced Micro Devices, Inc.\t(none)\t(none)\n"
           "gpg-pubkey\t(none)\tabc\tdef\t(none)\t(none)\t(none)\t(none)\n"
           "garbage line\n";
  MemoryMachine m({}, {{RecordedProcessRunner::key(rpm_query_argv()), ok}});
  m.fs->file("/var/lib/rpm/Packages", "berkeley db bytes");
  Json r = m.run(probe_rocm);
  CHECK(r["package_manager"] == "rpm");
  REQUIRE(r["packages"].size() == 2);
  CHECK(r["packages"][0]["name"] == "hipcc");
  CHECK(r["packages"][0]["version"] == "1:1.1.1.60402-120.el8");
  CHECK(r["packages"][0]["origin"] == "amd");
  CHECK(r["packages"][1]["source"] == "rocm-hip");
  CHECK(r["packages_unreadable"]["count"] == 1);

  MemoryMachine unrecorded;
  unrecorded.fs->file("/var/lib/rpm/Packages", "berkeley db bytes");
  CHECK(unknown_reason(unrecorded.run(probe_rocm)["packages"]) == "rpm -qa was not recorded on this machine");
}

TEST_CASE("pacman database: Arch's rocm-hip-sdk from the local database", "[pacman][rocm]") {
  MemoryMachine m;
  auto desc = [](const std::string& name, const std::string& version) {
    return "%NAME%\n" + name + "\n\n%VERSION%\n" + version + "\n\n%BASE%\n" + name + "\n\n%ARCH%\nx86_64\n\n" +
           "%PACKAGER%\nTorsten Keßler <tpkessler@archlinux.org>\n\n";
  };
  m.fs->file("/var/lib/pacman/local/ALPM_DB_VERSION", "9\n")
      .file("/var/lib/pacman/local/hip-runtime-amd-7.2.0-1/desc", desc("hip-runtime-amd", "7.2.0-1"))
      .file("/var/lib/pacman/local/rocminfo-7.2.0-1/desc", desc("rocminfo", "7.2.0-1"))
      .file("/var/lib/pacman/local/bash-5.3.3-2/desc", desc("bash", "5.3.3-2"))
      .file("/var/lib/pacman/local/broken-1-1/desc", "not a desc file\n");
  Json r = m.run(probe_rocm);
  CHECK(r["package_manager"] == "pacman");
  REQUIRE(r["packages"].size() == 2);
  CHECK(r["packages"][0]["name"] == "hip-runtime-amd");
  CHECK(r["packages"][0]["origin"] == "distro");
  CHECK(r["distro_release"]["release"] == "7.2.0");
  CHECK(r["packages_unreadable"]["count"] == 1);
  CHECK(r["packages_unreadable"]["first"][0] ==
        "/var/lib/pacman/local/broken-1-1/desc: line 1: expected a %FIELD% line, found \"not a desc file\"");
}

TEST_CASE("rocm: no package database at all", "[rocm]") {
  MemoryMachine m;
  Json r = m.run(probe_rocm);
  CHECK(unknown_reason(r["package_manager"]).find("no package database") != std::string::npos);
  CHECK(unknown_reason(r["packages"]).find("/var/lib/dpkg/status") != std::string::npos);
}

TEST_CASE("rocm: the release of the distribution's ROCm from its versions", "[rocm]") {
  CHECK(upstream_release("5.7.1-3build1") == "5.7.1");
  CHECK(upstream_release("1:6.4.2-1.fc43") == "6.4.2");
  CHECK(upstream_release("5.2.3+dfsg-1") == "5.2.3");
  CHECK(upstream_release("7.1.0-0ubuntu2") == "7.1.0");
  CHECK(upstream_release("10.0-1") == "10.0");
  CHECK(upstream_release("6.4.1.60401-83") == "6.4.1");
  CHECK(upstream_release("5-1") == "");
  CHECK(upstream_release("") == "");
  CHECK(upstream_release("git20231212-1") == "");
  Json packages = Json::array({Json{{"name", "rocminfo"}, {"version", "5.7.1-3"}, {"origin", "distro"}},
                               Json{{"name", "libamdhip64-5"}, {"version", "5.7.1-6"}, {"origin", "distro"}},
                               Json{{"name", "libamdhip64-dev"}, {"version", "5.7.1-6"}, {"origin", "distro"}}});
  CHECK(distro_rocm_release_fact(packages) ==
        Json{{"release", "5.7.1"}, {"package", "libamdhip64-5"}, {"version", "5.7.1-6"}});
  packages[1]["origin"] = "amd";
  packages[2]["origin"] = "amd";
  CHECK(distro_rocm_release_fact(packages)["package"] == "rocminfo");
}
