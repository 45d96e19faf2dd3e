// The positioned YAML tree: parsing user files, packing the built-in ones,
// and refusing packed bytes that were damaged or made up.
#include "catch.h"
#include "rules/rule_loader.h"
#include "formats/yaml_json.h"
#include "formats/yaml_parse.h"
#include "formats/yaml_tree_codec.h"

using namespace rocmdoc;

namespace {

const char* kDoc = R"(schema: 1
name: "24.04"
empty:
items: [a, 'b', 3]
nested:
  - id: x
    when: |
      a == 1
)";

// Same kinds, flags, positions and text, node by node.
void require_same(const YamlNode& a, const YamlNode& b) {
  REQUIRE(a.kind == b.kind);
  CHECK(a.quoted == b.quoted);
  CHECK(a.line == b.line);
  CHECK(a.column == b.column);
  CHECK(a.text == b.text);
  REQUIRE(a.children.size() == b.children.size());
  for (size_t i = 0; i < a.children.size(); ++i) require_same(a.children[i], b.children[i]);
}

std::string packed_doc() {
  YamlParsed parsed = parse_yaml_records(kDoc);
  REQUIRE(parsed.records);
  return encode_yaml_tree(*parsed.records);
}

}  // namespace

TEST_CASE("yaml tree: kinds, quoting and 1-based positions", "[yaml]") {
  YamlParsedTree parsed = parse_yaml_tree(kDoc);
  REQUIRE(parsed.tree);
  const YamlNode& root = parsed.tree->root();
  REQUIRE(root.is_map());
  CHECK(root.pair_count() == 5);
  CHECK(root.key(0).text == "schema");
  CHECK((root.key(0).line == 1 && root.key(0).column == 1));
  const YamlNode* name = root.find("name");
  REQUIRE(name);
  CHECK((name->is_scalar() && name->quoted && name->text == "24.04"));
  CHECK((name->line == 2 && name->column == 7));
  CHECK(root.find("empty")->is_null());
  CHECK(root.find("missing") == nullptr);
  const YamlNode& items = *root.find("items");
  REQUIRE(items.is_sequence());
  CHECK((!items.children[0].quoted && items.children[1].quoted));
  CHECK((items.children[2].line == 4 && items.children[2].column == 17));
  const YamlNode& rule = root.find("nested")->children[0];
  CHECK((rule.line == 6 && rule.column == 5));
  CHECK(rule.find("when")->text == "a == 1\n");
  CHECK(rule.find("when")->quoted);  // a block scalar is not plain
  CHECK(items.find("a") == nullptr);  // find on a sequence finds nothing
  // yaml-cpp's spelling: a missing key is a false, null node.
  CHECK(root["name"].text == "24.04");
  CHECK_FALSE(root["missing"]);
  CHECK(root["missing"].is_null());
  CHECK(root["empty"]);  // present, with a null value
  CHECK_FALSE(items["a"]);
}

TEST_CASE("yaml tree: JSON keeps quoted scalars as text", "[yaml]") {
  YamlParsedTree parsed = parse_yaml_tree(kDoc);
  REQUIRE(parsed.tree);
  Json j = yaml_to_json(parsed.tree->root());
  CHECK(j["schema"] == 1);
  CHECK(j["name"] == "24.04");
  CHECK(j["empty"].is_null());
  CHECK(j["items"] == Json::parse(R"(["a", "b", 3])"));
}

TEST_CASE("yaml tree: empty text and syntax errors", "[yaml][malformed]") {
  YamlParsedTree empty = parse_yaml_tree("");
  REQUIRE(empty.tree);
  CHECK(empty.tree->root().is_null());
  YamlParsedTree bad = parse_yaml_tree("rules: [\n  - id: x\n    area: [");
  CHECK_FALSE(bad.tree);
  CHECK((bad.error.line == 2 && bad.error.column == 3));
  CHECK(bad.error.message == "illegal block entry");
  YamlParsedTree binary = parse_yaml_tree(std::string("a: \"\x01\xff\0", 7));
  CHECK_FALSE(binary.tree);
  CHECK(binary.error.line >= 1);
}

// yaml-cpp 0.7's LoadAll never returned on these (a null document after
// another, each without consuming the ','), taking gigabytes; fuzz_rules
// found it in a mutated kernel-log.yaml.
TEST_CASE("yaml tree: a stray ',' is an error at its place, not an endless parse", "[yaml][malformed]") {
  for (std::string text : {",", ",#", ",,,,,,,,#\n", "# a comment\n, #\n", ",a"}) {
    INFO(text);
    YamlParsedTree parsed = parse_yaml_tree(text);
    CHECK_FALSE(parsed.tree);
    CHECK(parsed.error.line >= 1);
    CHECK(parsed.error.message.find("cannot read past") != std::string::npos);
  }
  // What the bound must not break: one document, and a real second one.
  CHECK(parse_yaml_tree("a: [1, 2]\nb: {c: 3}\n").tree);
  YamlParsedTree two = parse_yaml_tree("a: 1\n---\nb: 2\n");
  CHECK_FALSE(two.tree);
  CHECK(two.error.line == 2);
  CHECK(two.error.message.find("a second YAML document") != std::string::npos);
}

TEST_CASE("yaml tree: a user file's syntax error is file:line:column", "[yaml][malformed]") {
  std::vector<LoadError> errors;
  CHECK_FALSE(rule_file_tree({"my/checks/x.yaml", "a: 1\nb: [\n"}, errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].str().rfind("my/checks/x.yaml:3:1: YAML syntax error: ", 0) == 0);
}

TEST_CASE("yaml tree: packing round-trips every node", "[yaml]") {
  std::string packed = packed_doc();
  auto decoded = decode_yaml_tree(packed);
  REQUIRE(decoded);
  YamlParsedTree parsed = parse_yaml_tree(kDoc);
  REQUIRE(parsed.tree);
  require_same(decoded->root(), parsed.tree->root());
  // Scalars are views into the packed bytes, not copies.
  std::string_view name = decoded->root().find("name")->text;
  CHECK((name.data() >= packed.data() && name.data() + name.size() <= packed.data() + packed.size()));
  // And through the loader's door, as the built-in rules go.
  std::vector<LoadError> errors;
  auto tree = rule_file_tree({"rules/matrix/t.yaml", "", packed}, errors);
  CHECK(errors.empty());
  REQUIRE(tree);
  CHECK(tree->root().find("schema")->text == "1");
}

TEST_CASE("yaml tree: damaged or hostile packed bytes are refused", "[yaml][malformed]") {
  std::string good = packed_doc();
  auto refused = [](const std::string& bytes) { return !decode_yaml_tree(bytes).ok(); };
  SECTION("empty, truncated, extra bytes, wrong magic or version") {
    CHECK(refused(""));
    CHECK(refused(good.substr(0, 15)));
    for (size_t cut : {good.size() - 1, good.size() / 2, size_t{16}}) CHECK(refused(good.substr(0, cut)));
    CHECK(refused(good + "x"));
    std::string magic = good;
    magic[0] = 'X';
    CHECK(refused(magic));
    std::string version = good;
    version[4] = 2;
    CHECK(refused(version));
  }
  // Fields of node 0 (the root map): words 4..8 of the blob.
  auto with_word = [&](size_t word, std::uint32_t v) {
    std::string b = good;
    for (int i = 0; i < 4; ++i) b[4 * word + static_cast<size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
    return b;
  };
  SECTION("counts that lie") {
    CHECK(refused(with_word(2, 0)));            // no root
    CHECK(refused(with_word(2, 0xffffffff)));   // more nodes than bytes
    CHECK(refused(with_word(3, 0xffffffff)));   // more text than bytes
  }
  SECTION("nodes that point outside, backwards or nowhere") {
    CHECK(refused(with_word(4, 7)));            // unknown kind
    CHECK(refused(with_word(4, 0x10003)));      // stray flag bits
    CHECK(refused(with_word(7, 0)));            // children before (at) their parent: a cycle
    CHECK(refused(with_word(8, 0xfffffffe)));   // children past the end
    CHECK(refused(with_word(8, 3)));            // half a pair
    CHECK(refused(with_word(8, 0xffffffff)));   // first + count overflows 32 bits
  }
  SECTION("a scalar whose text runs past the end") {
    // Node 1 is the key "schema": words 9..13.
    CHECK(refused(with_word(12, 0xfffffff0)));
    CHECK(refused(with_word(13, 0xfffffff0)));
  }
  SECTION("a damaged built-in file is a load error, not a crash") {
    std::vector<LoadError> errors;
    CHECK_FALSE(rule_file_tree({"rules/matrix/t.yaml", "", std::string_view(good).substr(0, 40)}, errors));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].str().find("rules/matrix/t.yaml: built-in rules are damaged") == 0);
  }
}

TEST_CASE("yaml tree: every built-in rule file decodes", "[yaml]") {
  for (auto& f : embedded_rule_files()) {
    INFO(f.name);
    CHECK(f.text.empty());
    CHECK(decode_yaml_tree(f.packed).ok());
  }
}
