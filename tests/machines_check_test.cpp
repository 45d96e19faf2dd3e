// `rocmdoc check` on every fixture machine reports exactly the findings
// that machine has: tests/machines/<m>/check.json lists their rule ids, and
// any other rule firing (or one of these not firing) fails.

#include <fstream>
#include <set>
#include <sstream>

#include "catch.h"
#include "rules/knowledge.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

TEST_CASE("check reports exactly each fixture machine's findings", "[machines][check]") {
  Knowledge k = load_knowledge({"", ""});
  REQUIRE(k.errors.empty());
  size_t machines = 0;
  for (auto& name : fixture_machines()) {
    std::ifstream in(source_path("tests/machines/" + name + "/check.json"));
    if (!in) continue;
    ++machines;
    std::stringstream ss;
    ss << in.rdbuf();
    Json expect = Json::parse(ss.str());
    CheckReport report = run_check(facts_for_root(machine_root(name)), k, std::nullopt);
    std::set<std::string> fired, expected;
    for (auto& o : report.outcomes)
      if (o.verdict == Verdict::fired) fired.insert(o.rule->id);
    for (auto& id : expect["findings"]) expected.insert(id.get<std::string>());
    INFO(name);
    CHECK(fired == expected);
    CHECK(report.has_problems() == expect["problems"].get<bool>());
  }
  CHECK(machines >= 8);
}
