#include "platform/atomic_file.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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
