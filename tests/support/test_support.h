// Helpers for tests: where the fixtures are, facts for a recorded machine,
// and running the built rocmdoc binary.
#pragma once

#include <string>
#include <vector>

#include "rocmdoc/fact.h"

namespace rocmdoc::test {

// A path inside the source tree ("tests/machines/...").
std::string source_path(const std::string& relative);
// The root/ folder of a fixture machine under tests/machines/.
std::string machine_root(const std::string& name);
// Facts collected in-process for a recorded root; REQUIREs that it opens.
Json facts_for_root(const std::string& root, const std::vector<std::string>& python_paths = {});

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// Runs the built rocmdoc with these arguments (no shell), stdin from /dev/null.
CliRun run_rocmdoc(const std::vector<std::string>& args);

}  // namespace rocmdoc::test
