// Every fixture machine under tests/machines/ is probed, and the facts its
// files show (expect.json: JSON pointer -> expected value) are asserted.
// Adding a machine needs no code: a root/ tree, its sidecar, and expect.json.

#include <filesystem>
#include <fstream>
#include <sstream>

#include "catch.h"
#include "facts/facts_document.h"
#include "machine/machine.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {

Json read_json(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return Json::parse(ss.str());
}

}  // namespace

TEST_CASE("every fixture machine gives the facts its files show", "[machines]") {
  auto machines = fixture_machines();
  REQUIRE(machines.size() >= 1);
  for (auto& name : machines) {
    DYNAMIC_SECTION(name) {
      Json expect = read_json(source_path("tests/machines/" + name + "/expect.json"));
      std::vector<std::string> python_paths;
      if (expect.contains("python_paths")) python_paths = expect["python_paths"].get<std::vector<std::string>>();
      Json facts = facts_for_root(machine_root(name), python_paths);
      REQUIRE(expect.contains("facts"));
      for (auto& [pointer, expected] : expect["facts"].items()) {
        Json::json_pointer ptr(pointer);
        INFO(name << " " << pointer);
        REQUIRE(facts.contains(ptr));
        const Json& actual = facts[ptr];
        // "<unknown>" asserts that the fact is unknown, whatever the reason;
        // "<unknown: TEXT>" that it is unknown for a reason naming TEXT.
        std::string marker = expected.is_string() ? expected.get<std::string>() : "";
        if (marker == "<unknown>") {
          INFO("actual: " << actual.dump());
          CHECK(is_unknown(actual));
        } else if (marker.starts_with("<unknown: ") && marker.ends_with(">")) {
          INFO("actual: " << actual.dump());
          REQUIRE(is_unknown(actual));
          CHECK(unknown_reason(actual).find(marker.substr(10, marker.size() - 11)) != std::string::npos);
        } else {
          CHECK(actual.dump() == expected.dump());
        }
      }
    }
  }
}

TEST_CASE("the sections stay in the catalogue's order", "[machines]") {
  for (auto& name : fixture_machines()) {
    DYNAMIC_SECTION(name) {
      auto machine = open_recorded_machine(machine_root(name));
      REQUIRE(machine.ok());
      Json facts = collect_facts(**machine, ProbeOptions{});
      std::vector<std::string> keys;
      for (auto& [key, value] : facts.items()) keys.push_back(key);
      std::vector<std::string> expected = {"schema", "generator", "source"};
      for (auto& probe : probe_catalogue()) expected.push_back(probe.name);
      expected.push_back("commands_run");
      CHECK(keys == expected);
    }
  }
}

namespace {

// Counts how often dpkg's status file is read.
class StatusReadCounter : public FileSystem {
 public:
  explicit StatusReadCounter(std::unique_ptr<FileSystem> inner) : inner_(std::move(inner)) {}
  Result<std::string> read_file(const std::string& p, size_t max) override {
    if (p == "/var/lib/dpkg/status") ++reads;
    return inner_->read_file(p, max);
  }
  Result<std::vector<std::string>> list_dir(const std::string& p) override { return inner_->list_dir(p); }
  Result<std::string> read_link(const std::string& p) override { return inner_->read_link(p); }
  FileStat stat(const std::string& p) override { return inner_->stat(p); }
  Result<bool> try_open_read_write(const std::string& p) override { return inner_->try_open_read_write(p); }
  Result<std::string> read_records(const std::string& p, size_t max) override { return inner_->read_records(p, max); }
  int reads = 0;

 private:
  std::unique_ptr<FileSystem> inner_;
};

}  // namespace

TEST_CASE("one collection reads dpkg's status once, for the kernel and rocm probes both", "[machines]") {
  auto machine = open_recorded_machine(machine_root("ubuntu2404-rx7900xtx"));
  REQUIRE(machine.ok());
  Machine& m = **machine;
  auto counter = std::make_unique<StatusReadCounter>(std::move(m.fs));
  StatusReadCounter* reads = counter.get();
  m.fs = std::move(counter);
  Json facts = collect_facts(m, ProbeOptions{});
  CHECK(facts["kernel"]["hwe"].is_boolean());
  CHECK(facts["rocm"]["packages"].is_array());
  CHECK(reads->reads == 1);
}

TEST_CASE("the copies of the shared captures are unchanged", "[machines]") {
  // tests/machines/<capture> are copies of ../shared/fixtures/machines so a
  // clone runs alone; when the shared folder is beside the clone, they must
  // not have drifted apart.
  namespace fs = std::filesystem;
  fs::path shared = source_path("../shared/fixtures/machines");
  if (!fs::is_directory(shared)) {
    WARN("../shared is not beside this clone; drift check skipped");
    return;
  }
  auto slurp = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  for (auto& machine : fs::directory_iterator(shared)) {
    fs::path copy = source_path("tests/machines") / machine.path().filename();
    INFO("capture " << machine.path().filename().string() << " must be copied to " << copy.string());
    REQUIRE(fs::is_directory(copy));
    size_t files = 0;
    for (auto& entry : fs::recursive_directory_iterator(machine.path())) {
      if (!entry.is_regular_file()) continue;
      fs::path rel = fs::relative(entry.path(), machine.path());
      INFO(rel.string());
      CHECK(slurp(entry.path()) == slurp(copy / rel));
      ++files;
    }
    CHECK(files > 0);
  }
}

TEST_CASE("a recorded machine's folder given for its root/ is an error that names root/", "[machines]") {
  namespace fs = std::filesystem;
  std::string folder = fs::path(machine_root("ubuntu2404-rx7900xtx")).parent_path().string();
  auto opened = open_recorded_machine(folder);
  REQUIRE_FALSE(opened.ok());
  CHECK(opened.error() == folder + ": not a machine's root (no etc/, sys/, proc/ or usr/ in it); the tree is in its root/ folder: --root " +
                              folder + "/root");
  // The same with a trailing slash: one '/' before root.
  auto slash = open_recorded_machine(folder + "/");
  REQUIRE_FALSE(slash.ok());
  CHECK(slash.error().find("--root " + folder + "/root") != std::string::npos);
  // An empty tree without a root/ folder is still a machine with nothing to read.
  ScratchDir empty;
  CHECK(open_recorded_machine(empty.path.string()).ok());
  // And a root/ folder that is itself no machine's root does not count.
  fs::create_directories(empty.path / "root" / "data");
  CHECK(open_recorded_machine(empty.path.string()).ok());
}
