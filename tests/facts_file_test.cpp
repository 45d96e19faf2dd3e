// --facts FILE is other people's input: every command that takes it (check,
// explain, install --dry-run, fix --dry-run) must refuse a bad one with exit
// 2 and the path, never abort (hostile-input D10, D12, D24).
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "catch.h"
#include "facts/facts_document.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {

std::string good_facts() {
  auto r = run_rocmdoc({"facts", "--root", machine_root("ubuntu2404-rx7900xtx")});
  REQUIRE(r.exit_code == 0);
  return r.out;
}

void every_command_refuses(const std::string& path, const std::string& why) {
  const std::vector<std::vector<std::string>> commands = {
      {"check", "--facts", path},
      {"explain", "--facts", path, "hipErrorNoBinaryForGpu"},
      {"install", "--auto", "--dry-run", "--facts", path},
      {"fix", "--dry-run", "--facts", path},
  };
  for (auto& args : commands) {
    auto r = run_rocmdoc(args);
    INFO(args[0] << ": exit " << r.exit_code << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(path) != std::string::npos);
    CHECK(r.err.find(why) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("a facts file with a number out of range is refused, not an abort", "[facts][hostile]") {
  ScratchDir dir;
  std::string path = (dir.path / "huge.json").string();
  std::string facts = good_facts();
  size_t at = facts.find("\"memory_bytes\": ");
  REQUIRE(at != std::string::npos);
  at += std::string("\"memory_bytes\": ").size();
  facts.replace(at, facts.find_first_not_of("0123456789", at) - at, "1e999");
  std::ofstream(path) << facts;
  every_command_refuses(path, "not valid JSON");
}

TEST_CASE("a facts file nested 100,000 levels deep is refused, not a stack overflow", "[facts][hostile]") {
  ScratchDir dir;
  std::string path = (dir.path / "deep.json").string();
  std::string facts = good_facts();
  facts = facts.substr(0, facts.rfind('}')) + ", \"zzz\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  std::ofstream(path) << facts;
  every_command_refuses(path, "nested deeper than");
}

TEST_CASE("a facts file that is not a regular file, or too large, is refused", "[facts][hostile]") {
  ScratchDir dir;
  std::string fifo = (dir.path / "fifo.json").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto r = load_facts_file(fifo);  // would block forever if it were opened
  REQUIRE(!r);
  CHECK(r.error() == fifo + ": not a regular file");

  std::string big = (dir.path / "big.json").string();
  { std::ofstream(big) << "{}"; }
  std::filesystem::resize_file(big, kMaxFactsFileBytes + 1);
  auto b = load_facts_file(big);
  REQUIRE(!b);
  CHECK(b.error().find("more than 64 MiB") != std::string::npos);
}

TEST_CASE("a facts document may nest 256 levels, not 257", "[facts][hostile]") {
  ScratchDir dir;
  auto nested = [&](unsigned levels) {
    // The document itself is level 1; levels - 1 arrays inside it.
    std::string path = (dir.path / ("nest" + std::to_string(levels) + ".json")).string();
    std::ofstream(path) << "{\"schema\": 1, \"x\": " << std::string(levels - 1, '[') << std::string(levels - 1, ']') << "}";
    return load_facts_file(path);
  };
  // 256 levels parse (then "x" is no fact of the schema, which is the next
  // check); 257 are refused while parsing.
  auto at_limit = nested(kMaxFactsDepth);
  REQUIRE(!at_limit);
  CHECK(at_limit.error().find("x: not a fact of schema 1") != std::string::npos);
  auto deeper = nested(kMaxFactsDepth + 1);
  REQUIRE(!deeper);
  CHECK(deeper.error().find("nested deeper than 256") != std::string::npos);
}

TEST_CASE("a saved facts document at the limits' scale still loads", "[facts]") {
  ScratchDir dir;
  std::string path = (dir.path / "good.json").string();
  std::ofstream(path) << good_facts();
  auto r = load_facts_file(path);
  INFO((r ? "" : r.error()));
  CHECK(r);
}
