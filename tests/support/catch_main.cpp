// Catch2 v2 needs one translation unit that defines main; v3 has its own
// session API with the same shape, so both are driven the same way here.
#if defined(ROCMDOC_CATCH3)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include <cstdlib>

int main(int argc, char* argv[]) {
  // The binaries the tests run inherit this environment: a COLUMNS, a
  // NO_COLOR or a CLICOLOR_FORCE of the shell that started the suite would
  // wrap or colour their output and change what the golden files compare.
  // A test that wants one sets it for its own child.
  for (const char* name : {"COLUMNS", "NO_COLOR", "CLICOLOR_FORCE"}) ::unsetenv(name);
  return Catch::Session().run(argc, argv);
}
