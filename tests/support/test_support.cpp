#include "test_support.h"

#include <fstream>
#include <sstream>

#include <algorithm>
#include <filesystem>

#include <stdlib.h>

#include "catch.h"
#include "facts/facts_document.h"
#include "machine/machine.h"
#include "platform/process_runner.h"

namespace rocmdoc::test {

ScratchDir::ScratchDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "rocmdoc-test-XXXXXX").string();
  REQUIRE(::mkdtemp(tmpl.data()));
  path = tmpl;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

std::string source_path(const std::string& relative) { return std::string(ROCMDOC_SOURCE_DIR) + "/" + relative; }

std::vector<std::string> fixture_machines() {
  std::vector<std::string> names;
  for (auto& e : std::filesystem::directory_iterator(source_path("tests/machines")))
    if (std::filesystem::is_directory(e.path() / "root")) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string machine_root(const std::string& name) { return source_path("tests/machines/" + name + "/root"); }

std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Json facts_for_root(const std::string& root, const std::vector<std::string>& python_paths) {
  auto machine = open_recorded_machine(root);
  INFO(machine.error());
  REQUIRE(machine.ok());
  ProbeOptions options;
  options.python_paths = python_paths;
  return collect_facts(**machine, options);
}

CliRun run_rocmdoc(const std::vector<std::string>& args) {
  std::vector<std::string> argv{ROCMDOC_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  SystemProcessRunner runner;
  auto r = runner.run(argv, std::chrono::seconds(120));
  INFO(r.error);
  REQUIRE(r.started);
  REQUIRE_FALSE(r.timed_out);
  return {r.exit_code, r.out, r.err};
}

}  // namespace rocmdoc::test
