// The strict reader: one wording, file:line:column, every bad item reported.
#include "catch.h"
#include "formats/strict_yaml.h"
#include "formats/yaml_parse.h"

using namespace rocmdoc;

namespace {

YamlTree parsed(const char* text) {
  auto p = parse_yaml_tree(text);
  REQUIRE(p.tree);
  return std::move(*p.tree);
}

// The message of the failure body throws, as the reader records it.
template <class Body>
std::string failure(Body body) {
  std::vector<LoadError> errors;
  StrictYaml y("t.yaml", errors);
  CHECK_FALSE(y.guard([&] { body(y); }));
  REQUIRE(errors.size() == 1);
  return errors[0].str();
}

}  // namespace

TEST_CASE("the strict reader names the key, the type and the place", "[yaml][strict]") {
  YamlTree t = parsed("id: x\nversion: 10\nwhen: \"7.0\"\nlist: [a, 'b']\nflag: yes\nn: 12\nnothing:\nmap: {a: 1}\n");
  const YamlNode& doc = t.root();
  CHECK(failure([&](StrictYaml& y) { y.allow_keys(doc, {"id", "version"}); }) ==
        "t.yaml:3:1: unknown key 'when' (allowed: id, version)");
  CHECK(failure([&](StrictYaml& y) { y.required(doc, "title"); }) == "t.yaml:1:1: missing 'title'");
  CHECK(failure([&](StrictYaml& y) { y.string(doc["version"], "version"); }).find("t.yaml:2:10: 'version' must be text") == 0);
  CHECK(failure([&](StrictYaml& y) { y.flag(doc["flag"], "flag"); }) == "t.yaml:5:7: 'flag' must be true or false");
  CHECK(failure([&](StrictYaml& y) { y.integer(doc["when"], "when"); }) == "t.yaml:3:7: 'when' must be a whole number");
  CHECK(failure([&](StrictYaml& y) { y.texts(doc["map"], "map"); }) == "t.yaml:8:6: 'map' must be a list of text");
  CHECK(failure([&](StrictYaml& y) { y.allow_keys(doc["list"], {"a"}); }) == "t.yaml:4:7: expected a mapping");

  std::vector<LoadError> errors;
  StrictYaml y("t.yaml", errors);
  CHECK(y.text(doc["version"], "version") == "10");  // rule files: any scalar is text
  CHECK(y.string(doc["when"], "when") == "7.0");
  CHECK(y.integer(doc["n"], "n") == 12);
  CHECK_FALSE(y.string_or_null(doc["nothing"], "nothing"));
  CHECK_FALSE(y.string_or_null(doc["absent"], "absent"));
  CHECK(y.strings(doc["list"], "list") == std::vector<std::string_view>{"a", "b"});
  CHECK(errors.empty());
}

TEST_CASE("each() reports every bad item and reads the good ones", "[yaml][strict]") {
  YamlTree t = parsed("items:\n  - {id: a}\n  - {idd: b}\n  - {id: c}\n  - [x]\n");
  std::vector<LoadError> errors;
  StrictYaml y("t.yaml", errors);
  std::vector<std::string> ids;
  y.each(t.root()["items"], "items", [&](const YamlNode& n) {
    y.allow_keys(n, {"id"});
    ids.push_back(y.text(y.required(n, "id"), "id"));
  });
  CHECK(ids == std::vector<std::string>{"a", "c"});
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].str() == "t.yaml:3:6: unknown key 'idd' (allowed: id)");
  CHECK(errors[1].str() == "t.yaml:5:5: expected a mapping");
}
