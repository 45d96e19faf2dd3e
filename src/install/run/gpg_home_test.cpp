#include "install/run/gpg_home.h"

#include <sys/stat.h>

#include <fstream>

#include "catch.h"

using namespace rocmdoc;

TEST_CASE("a temporary GnuPG home is private, used by every gpg call, and removed", "[gpg]") {
  std::string path;
  {
    TemporaryGpgHome home;
    REQUIRE(home.ok());
    path = home.path();
    struct stat st {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    CHECK(S_ISDIR(st.st_mode));
    CHECK((st.st_mode & 0777) == 0700);
    // gpg leaves its files there; they go with the directory.
    std::ofstream(path + "/pubring.kbx") << "x";
    CHECK(home.gpg({"--show-keys", "k.asc"}) ==
          std::vector<std::string>{"gpg", "--homedir", path, "--batch", "--no-options", "--show-keys", "k.asc"});
  }
  struct stat gone {};
  CHECK(::stat(path.c_str(), &gone) != 0);
}
