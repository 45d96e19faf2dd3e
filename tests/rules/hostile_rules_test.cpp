// Hostile rule files (../shared/reviews/hostile-input.md, D5, D8, D13, D14,
// D15): each is built here, and each must end in a file:line error or load
// and run quickly, never in a crash, a hang or gigabytes of memory.
#include <chrono>
#include <fstream>
#include <string>

#include "catch.h"
#include "facts/facts_schema.h"
#include "formats/yaml_parse.h"
#include "rules/knowledge.h"
#include "rules/rule_engine.h"
#include "rules/rule_loader.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;
namespace fs = std::filesystem;

namespace {

struct Loaded {
  std::map<std::string, Function> functions = builtin_functions();
  RuleSet set;
  explicit Loaded(const std::string& text) {
    Vocabulary v;
    v.functions = &functions;
    v.is_fact = is_fact_path;
    set = load_rule_set({{"rules.d/hostile.yaml", text}}, {}, v);
  }
  std::string errors() const {
    std::string all;
    for (auto& e : set.errors) all += e.str() + "\n";
    return all;
  }
};

// A problem with examples that fire and pass on kernel.release, whose
// condition is `when`.
std::string problem_with(const std::string& when) {
  return "problems:\n  - id: hostile\n    area: system\n    severity: warning\n    when: '" + when +
         "'\n    title: t\n    why: w\n    fix: {steps: [{text: x}]}\n    sources: [https://example.com]\n"
         "    examples:\n"
         "      - {name: a, facts: {kernel: {release: \"6.8.0\"}}, expect: fire}\n"
         "      - {name: b, facts: {kernel: {release: \"5.0.0\"}}, expect: pass}\n";
}

// 9 levels of 9 aliases each: 9^9 (387 million) strings once expanded.
std::string billion_laughs() {
  std::string s = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i < 9; ++i) {
    std::string prev = "*a" + std::to_string(i - 1);
    s += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int j = 0; j < 9; ++j) s += (j ? ", " : "") + prev;
    s += "]\n";
  }
  return s;
}

}  // namespace

TEST_CASE("an alias bomb is refused at the node where it passes the limit", "[rules][yaml][hostile]") {
  auto start = std::chrono::steady_clock::now();
  YamlParsedTree parsed = parse_yaml_tree(billion_laughs());
  CHECK_FALSE(parsed.tree);
  CHECK(parsed.error.over_limit);
  CHECK(parsed.error.message.find("more than 1000000 YAML nodes once aliases are expanded") != std::string::npos);
  CHECK(parsed.error.line >= 1);  // an expanded alias has its anchor's position
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
  // Under unknown top-level keys as well: the tree is bounded before any key is read.
  Loaded loaded(billion_laughs());
  REQUIRE(loaded.set.errors.size() == 1);
  CHECK(loaded.errors().find("rules.d/hostile.yaml:") == 0);
  CHECK(loaded.errors().find(": refused: more than 1000000 YAML nodes") != std::string::npos);
}

TEST_CASE("a long scalar aliased many times is bounded by its text", "[rules][yaml][hostile]") {
  std::string s = "a: &a \"" + std::string(1 << 20, 'x') + "\"\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n";
  s += "c: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n";
  YamlParsedTree parsed = parse_yaml_tree(s);
  CHECK_FALSE(parsed.tree);
  CHECK(parsed.error.message.find("bytes of text once aliases are expanded") != std::string::npos);
}

TEST_CASE("an alias inside its own anchor is an error, not a stack overflow", "[rules][yaml][hostile]") {
  YamlParsedTree parsed = parse_yaml_tree("a: &a [*a]\n");
  CHECK_FALSE(parsed.tree);
  CHECK(parsed.error.message.find("nested deeper than 100 levels") != std::string::npos);
  Loaded loaded("a: &a [*a]\n");
  CHECK(loaded.errors().find("rules.d/hostile.yaml:1:") == 0);
  // Deep but legitimate nesting well under the limit still loads.
  std::string deep = std::string(90, '[') + std::string(90, ']') + "\n";
  CHECK(parse_yaml_tree(deep).tree);
}

TEST_CASE("macros that use each other twice over are refused at load, where the limit is passed", "[rules][hostile]") {
  // m_i = (m_{i-1} and m_{i-1}): 2^39 leaves for m39, which evaluated forever.
  std::string s = "macros:\n  - macro: m0\n    condition: 'kernel.release >= \"6.0\"'\n";
  for (int i = 1; i < 40; ++i)
    s += "  - macro: m" + std::to_string(i) + "\n    condition: '(m" + std::to_string(i - 1) + " and m" +
         std::to_string(i - 1) + ")'\n";
  s += problem_with("m39");
  auto start = std::chrono::steady_clock::now();
  Loaded loaded(s);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
  INFO(loaded.errors());
  REQUIRE_FALSE(loaded.set.ok());
  // m0 is 3 nodes, m_i 2 * m_{i-1} + 1: m15 (131,071) is the first over
  // 100,000, and its condition is on line 3 + 2 * 15.
  CHECK(loaded.errors().find("rules.d/hostile.yaml:33:") == 0);
  CHECK(loaded.errors().find("with its macros written out (macros that use each other more than once?)") !=
        std::string::npos);
}

TEST_CASE("a chain of macros nested deeper than the limit is refused", "[rules][hostile]") {
  std::string s = "macros:\n  - macro: m0\n    condition: 'kernel.release >= \"6.0\"'\n";
  for (int i = 1; i < 300; ++i)
    s += "  - macro: m" + std::to_string(i) + "\n    condition: 'not m" + std::to_string(i - 1) + "'\n";
  Loaded loaded(s);
  INFO(loaded.errors());
  CHECK(loaded.errors().find("nested more than 256 levels deep with its macros written out") != std::string::npos);
}

TEST_CASE("a 20,000-term and-chain loads and evaluates without recursing per term", "[rules][hostile]") {
  std::string when = "kernel.release >= \"6.0\"";
  for (int i = 1; i < 20000; ++i) when += " and kernel.release >= \"6.0\"";
  Loaded loaded(problem_with(when));
  INFO(loaded.errors());
  REQUIRE(loaded.set.ok());
  ExamplesRun run;
  auto failures = run_examples(loaded.set, loaded.functions, &run);
  CHECK(run.problem == 2);
  CHECK(failures.empty());
  // The same as an or-chain, and the two mixed, keep Kleene logic and order.
  std::string mixed = "kernel.release < \"1.0\"";
  for (int i = 1; i < 20000; ++i) mixed += (i % 2 ? " or " : " and ") + std::string("kernel.release < \"1.0\"");
  Loaded mixed_loaded(problem_with(mixed + " or kernel.release >= \"6.8\""));
  REQUIRE(mixed_loaded.set.ok());
  CHECK(run_examples(mixed_loaded.set, mixed_loaded.functions).empty());
}

TEST_CASE("rules lint fails on a rules directory without a usable matrix", "[cli][rules][hostile]") {
  ScratchDir scratch;
  fs::path empty = scratch.path / "empty";
  fs::create_directories(empty);
  auto lint = run_rocmdoc({"rules", "lint", empty.string()});
  CHECK(lint.exit_code == 2);
  CHECK(lint.err.find(empty.string() + ": no matrix") != std::string::npos);
  fs::path no_matrix = scratch.path / "nomatrix";
  fs::create_directories(no_matrix);
  fs::copy(source_path("rules/catalogue"), no_matrix / "catalogue");
  lint = run_rocmdoc({"rules", "lint", no_matrix.string()});
  CHECK(lint.exit_code == 2);
  CHECK(lint.err.find(": no matrix") != std::string::npos);
  auto check = run_rocmdoc({"check", "--rules", no_matrix.string(), "--root", machine_root("ubuntu2404-rx7900xtx")});
  CHECK(check.exit_code == 2);
  CHECK(check.err.find(": no matrix") != std::string::npos);
  auto explain = run_rocmdoc({"explain", "--no-probe", "--rules", empty.string(), "hipErrorNoBinaryForGpu"});
  CHECK(explain.exit_code == 2);
}

TEST_CASE("the built-in conditions stay far below the condition limits", "[rules][hostile]") {
  RuleSources sources;
  sources.local_rules_dir = "";
  Knowledge k = load_knowledge(sources);
  REQUIRE(k.errors.empty());
  const RuleSet& set = k.catalogue;
  ExpandedSize largest;
  for (auto& p : set.problems)
    for (const ExprPtr& e : {p.rule.when, p.when_in_text})
      if (e) {
        largest.nodes = std::max(largest.nodes, expanded_size(*e).nodes);
        largest.depth = std::max(largest.depth, expanded_size(*e).depth);
      }
  INFO("largest: " << largest.nodes << " nodes, " << largest.depth << " deep");
  CHECK(largest.nodes * 100 < kMaxConditionNodes);
  CHECK(largest.depth * 10 < kMaxConditionDepth);
}
