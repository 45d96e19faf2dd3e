// What users see, byte for byte, on every fixture machine: `check` (text and
// --json), `explain --json` for a few pasted errors and `install --auto
// --dry-run --json`, as the built binary prints them, compared with
// tests/golden/<machine>/. Only the collection time, the source tree's
// path and the line:column of a cause's rule_file are masked. After an
// intended change of output, regenerate and review the diff:
//   ROCMDOC_REGENERATE_GOLDEN=1 build/rocmdoc_tests "[golden]"
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "catch.h"
#include "test_support.h"

using namespace rocmdoc::test;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The values that change from run to run or from clone to clone: the
// collection time and where the source tree is. And where in its file a
// cause's rule sits: every rule added above it moves it, which rewrote about
// 40 goldens per catalogue edit and hid the changes that matter among them;
// the file stays (a rule moved to another file is a change to review), and
// tests/explain/explain_cli_test.cpp checks the line points at the rule.
std::string masked(const std::string& out) {
  std::string s = out;
  // Each JSON string value of `key`, as mask(value) returns it.
  auto mask_values = [&s](const std::string& key, const std::function<std::string(const std::string&)>& mask) {
    const std::string quoted = "\"" + key + "\": \"";
    for (size_t at = s.find(quoted); at != std::string::npos; at = s.find(quoted, at + 1)) {
      size_t value = at + quoted.size(), end = s.find('"', value);
      if (end == std::string::npos) break;
      s.replace(value, end - value, mask(s.substr(value, end - value)));
    }
  };
  mask_values("collected_at", [](const std::string&) { return std::string("<time>"); });
  mask_values("rule_file", [](const std::string& where) {
    size_t yaml = where.find(".yaml:");
    return yaml == std::string::npos ? where : where.substr(0, yaml + 5) + ":<line>";
  });
  std::string src = std::filesystem::path(source_path("tests")).parent_path().string();
  for (size_t at = s.find(src); at != std::string::npos; at = s.find(src, at)) s.replace(at, src.size(), "<src>");
  return s;
}

void compare(const std::string& machine, const std::string& name, const CliRun& run) {
  std::string path = source_path("tests/golden/" + machine + "/" + name);
  std::string actual = "exit " + std::to_string(run.exit_code) + "\n" + masked(run.out);
  if (std::getenv("ROCMDOC_REGENERATE_GOLDEN")) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  INFO("golden " << path << " (regenerate: ROCMDOC_REGENERATE_GOLDEN=1)");
  REQUIRE(std::filesystem::exists(path));
  CHECK(read(path) == actual);
}

// Pasted errors of different kinds: a symptom, a missing code object, a
// permission error, and a whole log from the corpus.
const std::vector<std::pair<std::string, std::vector<std::string>>> kExplainInputs = {
    {"explain-no-hip-gpus.json", {"RuntimeError: No HIP GPUs are available"}},
    {"explain-no-binary.json", {"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"}},
    {"explain-kfd-permission.json", {"Unable to open /dev/kfd read-write: Permission denied"}},
    {"explain-corpus-log.json", {"-f", "tests/explain/corpus/010-llamacpp-release-libamdhip64-missing.log"}},
};

}  // namespace

TEST_CASE("check, explain and install print exactly their golden output on every fixture machine", "[golden]") {
  auto machines = fixture_machines();
  REQUIRE(machines.size() >= 8);
  for (size_t i = 0; i < machines.size(); ++i) {
    if (!in_sweep_sample(i, 0)) continue;  // all in the plain build (test_support.h)
    const std::string& m = machines[i];
    std::string root = machine_root(m);
    DYNAMIC_SECTION(m) {
      compare(m, "check.txt", run_rocmdoc({"check", "--root", root}));
      compare(m, "check.json", run_rocmdoc({"check", "--root", root, "--json"}));
      compare(m, "install-dry-run.json", run_rocmdoc({"install", "--auto", "--dry-run", "--json", "--root", root}));
      for (auto& [name, text] : kExplainInputs) {
        std::vector<std::string> args = {"explain", "--root", root, "--json"};
        for (auto& t : text) args.push_back(t == "-f" ? t : (t.rfind("tests/", 0) == 0 ? source_path(t) : t));
        compare(m, name, run_rocmdoc(args));
      }
    }
  }
}
