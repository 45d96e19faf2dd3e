#include "platform/atomic_file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "base/text.h"
#include "catch.h"
#include "test_support.h"

using namespace rocmdoc;

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST_CASE("a file is written whole, with its mode, replacing the old one", "[atomic]") {
  test::ScratchDir scratch;
  std::string dir = scratch.path.string(), path = dir + "/out.json";
  REQUIRE(write_file_atomically(path, "first\n", 0600).ok());
  CHECK(slurp(path) == "first\n");
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  REQUIRE(write_file_atomically(path, "second\n").ok());
  CHECK(slurp(path) == "second\n");
  // Nothing is left beside it.
  size_t entries = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) (void)e, ++entries;
  CHECK(entries == 1);
  auto into_dir = write_file_atomically(dir, "x");
  REQUIRE_FALSE(into_dir.ok());
  CHECK(into_dir.error() == dir + ": is a directory");
}

TEST_CASE("a device is written to, never replaced (-o /dev/null)", "[atomic]") {
  REQUIRE(write_file_atomically("/dev/null", "facts\n").ok());
  struct stat st {};
  REQUIRE(::stat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
}

namespace {
std::set<std::string> entries_of(const std::string& dir) {
  std::set<std::string> names;
  for (auto& e : std::filesystem::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}
void plant(const std::string& path, const std::string& content = "half a file") {
  std::ofstream(path, std::ios::binary) << content;
}
}  // namespace

TEST_CASE("a temporary a killed writer left is removed by the next write into its directory", "[atomic]") {
  test::ScratchDir scratch;
  std::string dir = scratch.path.string();
  plant(dir + "/rocm.list.tmp-rocmdoc-AbC123");            // killed writing rocm.list
  plant(dir + "/install.json.tmp-rocmdoc-zZ9xY8");         // killed writing another file there
  plant(dir + "/notes.tmp-rocmdoc-AB");                    // not rocmdoc's name: six characters after the tag
  plant(dir + "/.tmp-rocmdoc-AbC123");                     // no target name before the tag
  std::filesystem::create_symlink(dir + "/rocm.list", dir + "/pin.tmp-rocmdoc-LnK000");  // a link is never followed
  // A live writer's temporary: locked by another open file description.
  plant(dir + "/amdgpu.list.tmp-rocmdoc-L1veXX");
  int live = ::open((dir + "/amdgpu.list.tmp-rocmdoc-L1veXX").c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(live >= 0);
  REQUIRE(::flock(live, LOCK_EX) == 0);

  REQUIRE(write_file_atomically(dir + "/rocm.list", "deb ...\n").ok());
  CHECK(entries_of(dir) == std::set<std::string>{"rocm.list", "notes.tmp-rocmdoc-AB", ".tmp-rocmdoc-AbC123",
                                                  "pin.tmp-rocmdoc-LnK000", "amdgpu.list.tmp-rocmdoc-L1veXX"});
  // Once its writer is gone (the lock goes with it), it is abandoned too.
  ::close(live);
  CHECK(remove_abandoned_temporaries(dir) == 1);
  CHECK(entries_of(dir).count("amdgpu.list.tmp-rocmdoc-L1veXX") == 0);
}

TEST_CASE("a temporary beside a file: locked while alive, removed unless committed", "[atomic]") {
  test::ScratchDir scratch;
  std::string dir = scratch.path.string(), path = dir + "/rocm.gpg";
  std::string name;
  {
    TemporaryBeside tmp(path);
    REQUIRE(tmp.ok());
    name = tmp.name();
    CHECK(starts_with(name, path + ".tmp-rocmdoc-"));
    // Held: a cleaner in another run leaves it alone.
    CHECK(remove_abandoned_temporaries(dir) == 0);
    CHECK(std::filesystem::exists(name));
  }
  CHECK_FALSE(std::filesystem::exists(name));
  CHECK(entries_of(dir).empty());

  // Filled by another program that replaces the file by name (as gpg -o
  // may): what is at the name is what lands, with the mode asked for.
  TemporaryBeside tmp(path);
  REQUIRE(tmp.ok());
  REQUIRE(::unlink(tmp.name().c_str()) == 0);
  plant(tmp.name(), "KEYRING\n");
  REQUIRE(tmp.commit(0644).ok());
  CHECK(slurp(path) == "KEYRING\n");
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0644);
  CHECK(entries_of(dir) == std::set<std::string>{"rocm.gpg"});
  // The name gone before the commit: an error naming the target, nothing written.
  TemporaryBeside gone(path);
  REQUIRE(gone.ok());
  REQUIRE(::unlink(gone.name().c_str()) == 0);
  auto r = gone.commit(0644);
  REQUIRE_FALSE(r.ok());
  CHECK(starts_with(r.error(), path + ": the temporary file is gone: "));
  CHECK(slurp(path) == "KEYRING\n");
}
