// Catch2 v2 needs one translation unit that defines main; v3 has its own
// session API with the same shape, so both are driven the same way here.
#if defined(ROCMDOC_CATCH3)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

int main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
