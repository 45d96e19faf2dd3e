// The real-case corpus (tests/explain/real/cases.yaml) is what
// bench/explain-accuracy.py measures explain on, so a broken entry would
// silently skew the figure: every case names a file that exists, a source,
// a split, and a cause that today's catalogue knows (or new:ID); the
// same_problem classes name known ids; each source group is in one part
// only, and each thread is one case.
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "catch.h"
#include "base/fact.h"
#include "rules/knowledge.h"
#include "knowledge_test_support.h"
#include "test_support.h"

using namespace rocmdoc;

TEST_CASE("every real case is complete and names a cause the catalogue knows", "[explain][corpus]") {
  Knowledge k = test::shipped_knowledge();
  std::set<std::string> known;
  for (auto& c : k.catalogue.problems) {
    known.insert(c.rule.id);
    known.insert(c.aliases.begin(), c.aliases.end());
  }

  YAML::Node doc = YAML::LoadFile(test::source_path("tests/explain/real/cases.yaml"));
  for (auto ids : doc["same_problem"])
    for (auto id : ids) {
      INFO("same_problem: " << id.as<std::string>());
      CHECK(known.count(id.as<std::string>()));
    }
  std::map<std::string, std::string> part_of_source;
  std::set<std::string> files, threads;
  size_t validation = 0, n = 0;
  for (auto c : doc["cases"]) {
    ++n;
    std::string file = c["file"].as<std::string>();
    INFO(file);
    CHECK(files.insert(file).second);
    CHECK(std::filesystem::is_regular_file(test::source_path("tests/explain/real/" + file)));
    CHECK(c["source"].as<std::string>().rfind("https://", 0) == 0);
    // One thread, one case: a thread's wording cannot be in both parts.
    CHECK(threads.insert(c["source"].as<std::string>()).second);
    std::string split = c["split"].as<std::string>();
    REQUIRE((split == "development" || split == "validation"));
    validation += split == "validation";
    auto [it, inserted] = part_of_source.emplace(c["source_group"].as<std::string>(), split);
    CHECK(it->second == split);
    std::string cause = c["cause"].as<std::string>();
    CHECK((cause.rfind("new:", 0) == 0 || known.count(cause)));
  }
  CHECK(n >= 150);
  CHECK(validation * 3 >= n);  // a third or more is held out
}

// YAML reads ` #` outside quotes as the start of a comment, so a note such
// as `fixed in PR #2434` written unquoted loses its end without an error. In
// the cases list a comment after a value is therefore taken as that mistake:
// such a value must be quoted. (A line that is only a comment is fine.)
TEST_CASE("no value in the real cases is cut short by an unquoted ' #'", "[explain][corpus]") {
  std::ifstream in(test::source_path("tests/explain/real/cases.yaml"));
  REQUIRE(in);
  std::string line;
  size_t number = 0, checked = 0;
  bool in_cases = false;
  char quote = 0;  // the quote of a scalar that continues on the next line
  while (std::getline(in, line)) {
    ++number;
    if (!in_cases) {
      in_cases = line == "cases:";
      continue;
    }
    ++checked;
    size_t i = 0;
    if (!quote) {
      i = line.find_first_not_of(' ');
      if (i == std::string::npos || line[i] == '#') continue;
    }
    bool value_start = quote == 0;  // the next character may open a quote
    for (; i < line.size(); ++i) {
      char ch = line[i];
      if (quote == '"') {
        if (ch == '\\') ++i;  // an escaped character
        else if (ch == '"') quote = 0;
        continue;
      }
      if (quote == '\'') {
        if (ch != '\'') continue;
        if (i + 1 < line.size() && line[i + 1] == '\'') ++i;  // '' is a quote inside
        else quote = 0;
        continue;
      }
      if (value_start && (ch == '\'' || ch == '"')) {
        quote = ch;
        continue;
      }
      if (ch == '#' && i > 0 && (line[i - 1] == ' ' || line[i - 1] == '\t')) {
        // The line number only: the line may be a validation case's, which
        // nobody working on the catalogue may read.
        INFO("tests/explain/real/cases.yaml:" << number);
        FAIL("an unquoted ' #' starts a comment here and cuts the value short: quote the value");
      }
      // A value begins after "key: " or "- "; anywhere else a quote is a
      // character of a plain scalar ("the reporter's fix").
      value_start = (ch == ' ' && (line[i - 1] == ':' || line[i - 1] == '-')) || (value_start && ch == ' ');
    }
  }
  CHECK(checked > 1000);  // the whole list was read, not a header
}

// Without a machine, the cause explain shows in full reads as sentences: a
// fact no text gives stands as words the rule wrote for it (default()), never
// "(group not known)" (docs/explain.md). Every third development case, in
// file order, to keep the suite's time (every ninth in the sanitizer build,
// test_support.h); the validation part is left alone, as everywhere.
TEST_CASE("without a machine the first cause of a real case names no fact as not known", "[explain][corpus]") {
  YAML::Node doc = YAML::LoadFile(test::source_path("tests/explain/real/cases.yaml"));
  size_t n = 0, shown = 0;
  for (auto c : doc["cases"]) {
    if (c["split"].as<std::string>() != "development" || n++ % (3 * test::kSweepStride) != 0) continue;
    std::string file = c["file"].as<std::string>();
    INFO(file);
    auto r = test::run_rocmdoc({"explain", "--no-probe", "--json", "-f", test::source_path("tests/explain/real/" + file)});
    REQUIRE((r.exit_code == 0 || r.exit_code == 1));
    Json j = Json::parse(r.out);
    if (!j.contains("causes") || j["causes"].empty()) continue;
    const Json& first = j["causes"][0];
    ++shown;
    std::vector<std::string> texts = {first.value("title", ""), first.value("why", "")};
    if (first.contains("fix"))
      for (auto& step : first["fix"]["steps"]) texts.push_back(step.value("text", ""));
    for (auto& text : texts) {
      INFO(text);
      CHECK(text.find(" not known)") == std::string::npos);
    }
  }
  CHECK(shown > 50 / test::kSweepStride);  // the sample is the corpus, not a handful
}
