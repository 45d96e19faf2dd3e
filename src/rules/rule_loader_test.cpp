#include "catch.h"
#include "facts/facts_schema.h"
#include "rules/rule_engine.h"
#include "rules/rule_loader.h"

using namespace rocmdoc;

namespace {

struct Loaded {
  std::map<std::string, Function> functions = builtin_functions();
  RuleSet set;
  explicit Loaded(const std::string& text, const std::string& local = "") {
    Vocabulary v;
    v.functions = &functions;
    v.is_fact = is_fact_path;
    std::vector<RuleFile> locals;
    if (!local.empty()) locals.push_back({"rules.d/local.yaml", local});
    set = load_rule_set({{"rules/catalogue/t.yaml", text}}, locals, v);
  }
  std::string first_error() const { return set.errors.empty() ? "" : set.errors[0].str(); }
};

const char* kGoodRule = R"(problems:
  - id: kfd-missing
    area: driver
    severity: error
    when: kfd.device_node.present == false
    title: "/dev/kfd is missing"
    why: "no driver"
    fix:
      steps:
        - text: "load amdgpu"
          run: [modprobe, amdgpu]
          sudo: true
    sources: [https://example.invalid/doc]
    examples:
      - name: absent
        facts: {kfd: {device_node: {present: false}}}
        expect: fire
      - name: present
        facts: {kfd: {device_node: {present: true}}}
        expect: pass
)";

}  // namespace

TEST_CASE("a valid rule loads and its examples hold", "[rules]") {
  Loaded l(kGoodRule);
  REQUIRE(l.first_error() == "");
  REQUIRE(l.set.problems.size() == 1);
  CHECK(l.set.problems[0].rule.fix.steps[0].sudo);
  size_t run = 0;
  CHECK(run_examples(l.set, l.functions, &run).empty());
  CHECK(run == 2);
}

TEST_CASE("rule errors carry file:line:column", "[rules]") {
  CHECK(Loaded("problems: [\n  - id: x\n    area: [").first_error() == "rules/catalogue/t.yaml:2:3: YAML syntax error: illegal block entry");
  std::string with_colour = kGoodRule;
  with_colour.append("    colour: red\n");
  std::string unknown_key = Loaded(with_colour).first_error();
  CHECK(unknown_key.find("rules/catalogue/t.yaml:21:5: unknown key 'colour'") == 0);

  std::string bad_fact = kGoodRule;
  bad_fact.replace(bad_fact.find("kfd.device_node.present =="), 26, "kfd.device_nod.present ==");
  std::string e = Loaded(bad_fact).first_error();
  CHECK(e.find("rules/catalogue/t.yaml:5:11: in condition: unknown fact 'kfd.device_nod.present'") == 0);

}

TEST_CASE("duplicate ids are errors, but a local rule may replace a built-in one", "[rules]") {
  std::string rules(kGoodRule);
  std::string twice = rules + rules.substr(rules.find("  - id"));
  CHECK(Loaded(twice).first_error().find("duplicate problem id 'kfd-missing'") != std::string::npos);
  Loaded overridden(kGoodRule, kGoodRule);
  REQUIRE(overridden.first_error() == "");
  REQUIRE(overridden.set.problems.size() == 1);
  CHECK(overridden.set.problems[0].rule.local_override);
  CHECK(overridden.set.problems[0].rule.where.file == "rules.d/local.yaml");
}

TEST_CASE("wrong types and bad values are named", "[rules]") {
  std::string r(kGoodRule);
  auto with = [&](const std::string& from, const std::string& to) {
    std::string s = r;
    s.replace(s.find(from), from.size(), to);
    return Loaded(s).first_error();
  };
  CHECK(with("severity: error", "severity: fatal").find("severity is error, warning, info or benign") != std::string::npos);
  CHECK(with("area: driver", "area: drivers").find("unknown area 'drivers'") != std::string::npos);
  CHECK(with("sudo: true", "sudo: yes please").find("'sudo' must be true or false") != std::string::npos);
  CHECK(with("id: kfd-missing", "id: KFD_missing").find("lower-case") != std::string::npos);
  CHECK(with("expect: fire", "expect: maybe").find("'expect' is fire, pass or unknown") != std::string::npos);
  CHECK(with("title: \"/dev/kfd is missing\"", "title: \"{kfd.nope}\"").find("unknown fact {kfd.nope}") !=
        std::string::npos);
  CHECK(with("    sources: [https://example.invalid/doc]\n", "").find("missing 'sources'") != std::string::npos);
}

TEST_CASE("an example with the wrong verdict is reported", "[rules]") {
  std::string r(kGoodRule);
  r.replace(r.find("expect: pass"), 12, "expect: fire");
  Loaded l(r);
  REQUIRE(l.first_error() == "");
  auto failures = run_examples(l.set, l.functions);
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].example->name == "present");
  CHECK(failures[0].got == "pass");
}
