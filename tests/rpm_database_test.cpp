// rpm itself against rocmdoc's reading of the fixtures' rpm databases
// (tests/machines/*/root/var/lib/rpm/rpmdb.sqlite, written by
// tests/machines/tools/make_fixture.py): both must list the same packages,
// so the fixtures are databases rpm accepts and the header parser reads
// what rpm reads. rpm is in packaging/build-deps.txt; without it the test
// says so and checks nothing.
#include <algorithm>
#include <filesystem>

#include "catch.h"
#include "platform/host_filesystem.h"
#include "platform/process_runner.h"
#include "probe/package_list.h"
#include "base/text.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

TEST_CASE("rpm lists the fixtures' rpm databases as rocmdoc reads them", "[rpm][machines]") {
  SystemProcessRunner runner;
  if (!runner.run({"rpm", "--version"}, std::chrono::seconds(10)).succeeded()) {
    WARN("rpm is not installed (packaging/build-deps.txt lists it): nothing compared");
    return;
  }
  size_t compared = 0;
  for (auto& m : fixture_machines()) {
    std::filesystem::path db = machine_root(m) + "/var/lib/rpm/rpmdb.sqlite";
    if (!std::filesystem::is_regular_file(db)) continue;
    ++compared;
    DYNAMIC_SECTION(m) {
      // rpm opens its database for writing even to query it (it adds the
      // -shm and -wal files): it gets a copy, never the fixture.
      ScratchDir dir;
      std::filesystem::copy_file(db, dir.path / "rpmdb.sqlite");
      ProcessResult r = runner.run({"rpm", "--dbpath", dir.path.string(), "--define", "_db_backend sqlite", "-qa",
                                    "--qf", "%{NAME} %{EVR} %{ARCH} %{VENDOR}\\n"},
                                   std::chrono::seconds(60));
      INFO(r.err);
      REQUIRE(r.succeeded());
      std::vector<std::string> theirs;
      for (auto& line : split_lines(r.out))
        if (!line.empty() && !starts_with(line, "gpg-pubkey ")) theirs.push_back(line);

      HostFileSystem fs(machine_root(m));
      auto list = read_rpm_sqlite(fs, "/var/lib/rpm/rpmdb.sqlite");
      REQUIRE(list.ok());
      CHECK(list->unreadable == 0);
      std::vector<std::string> ours;
      for (auto& p : list->packages) ours.push_back(p.name + " " + p.version + " " + p.architecture + " " + p.vendor);
      std::sort(theirs.begin(), theirs.end());
      std::sort(ours.begin(), ours.end());
      CHECK(ours.size() >= 3);
      CHECK(ours == theirs);
      // Reading left nothing beside the fixture's database.
      CHECK_FALSE(std::filesystem::exists(db.string() + "-wal"));
      CHECK_FALSE(std::filesystem::exists(db.string() + "-shm"));
    }
  }
  CHECK(compared >= 3);  // Fedora, Rocky, CentOS Stream
}
