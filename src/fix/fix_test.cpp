#include "catch.h"
#include "facts/facts_schema.h"
#include "fix/fix.h"
#include "rules/rule_engine.h"

using namespace rocmdoc;

// A command whose word is an unknown fact is shown, never run: fix must
// not execute "usermod -aG render ?".
TEST_CASE("a fix step with an unknown word is for a person, not for fix to run", "[fix]") {
  std::map<std::string, Function> functions = builtin_functions();
  Vocabulary v;
  v.functions = &functions;
  v.is_fact = is_fact_path;
  const char* text = R"(problems:
  - id: add-to-render
    area: access
    severity: error
    when: access.render_group.exists == true
    title: "add the user"
    why: "w"
    fix:
      steps:
        - text: "Add {access.user.target} to render"
          run: [usermod, -aG, render, "{access.user.target}"]
          sudo: true
    sources: [https://example.invalid]
    examples:
      - {name: f, facts: {access: {render_group: {exists: true}}}, expect: fire}
      - {name: p, facts: {access: {render_group: {exists: false}}}, expect: pass}
)";
  RuleSet set = load_rule_set({{"rules/catalogue/t.yaml", text}}, {}, v);
  REQUIRE(set.errors.empty());
  auto fixes_for = [&](const Json& facts) {
    CheckReport report;
    report.outcomes = run_rules(set, facts, functions);
    return fixes_from_report(report);
  };
  Json known = {{"access", {{"render_group", {{"exists", true}}}, {"user", {{"target", "alex"}}}}}};
  auto with_user = fixes_for(known);
  REQUIRE(with_user.size() == 1);
  CHECK(with_user[0].automatic);
  CHECK(with_user[0].steps[0].argv == std::vector<std::string>{"usermod", "-aG", "render", "alex"});

  Json unknown_user = known;
  unknown_user["access"]["user"]["target"] = {{"unknown", "SUDO_USER is not set"}};
  auto without = fixes_for(unknown_user);
  REQUIRE(without.size() == 1);
  CHECK(without[0].steps[0].incomplete);
  CHECK_FALSE(without[0].automatic);
}
