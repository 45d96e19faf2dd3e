// The fact names rules may use (src/facts/facts_schema.cpp) must cover what
// the probes write, and each must be documented in docs/facts.md.
#include <fstream>
#include <set>
#include <sstream>

#include "catch.h"
#include "rules/knowledge.h"
#include "facts/facts_schema.h"
#include "base/text.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

TEST_CASE("every fact a probe writes on a fixture machine is in the schema", "[schema]") {
  Knowledge k = load_knowledge({"", ""});
  REQUIRE(k.errors.empty());
  for (const char* m : {"debian12-vm-distro-rocm", "ubuntu2404-rx7900xtx", "ubuntu2204-rx6700xt", "laptop-780m-dgpu",
                        "mi300x-container", "desktop-amdgpu-not-loaded", "user-not-in-render",
                        "chipset-bridge-no-atomics"}) {
    CheckReport report = run_check(facts_for_root(machine_root(m)), k, std::nullopt);
    for (auto& path : schema_paths_of(report.facts)) {
      // Metadata, not facts a rule may test.
      if (starts_with(path, "source") || starts_with(path, "commands_run") || path == "generator" || path == "schema")
        continue;
      INFO(m << ": " << path);
      CHECK(is_fact_path(path));
    }
  }
}

TEST_CASE("every fact name is documented in docs/facts.md", "[schema]") {
  std::ifstream in(source_path("docs/facts.md"));
  std::stringstream ss;
  ss << in.rdbuf();
  std::string doc = ss.str();
  // Every identifier inside `code spans` of the doc ("`module.loaded`"
  // gives module and loaded): a field name nobody described is not among them.
  std::set<std::string> documented;
  for (size_t open = doc.find('`'); open != std::string::npos; open = doc.find('`', open + 1)) {
    size_t close = doc.find('`', open + 1);
    if (close == std::string::npos) break;
    std::string span = doc.substr(open + 1, close - open - 1);
    std::string word;
    for (char c : span + " ") {
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') word += c;
      else if (!word.empty()) documented.insert(word), word.clear();
    }
    open = close;
  }
  for (auto view : fact_schema()) {
    std::string name(view);
    while (ends_with(name, "[]")) name.resize(name.size() - 2);  // a list of values: its own name
    std::string last = name.substr(name.find_last_of(".]") == std::string::npos ? 0 : name.find_last_of(".]") + 1);
    if (last == "*") continue;
    INFO(name);
    CHECK(documented.count(last));
  }
}

TEST_CASE("is_fact_path: a name, a prefix that ends before a dot or an index, or one key under an open object", "[schema]") {
  CHECK(is_fact_path("kernel.release"));
  CHECK(is_fact_path("access.nodes[].can_open_rw"));
  CHECK(is_fact_path("kernel"));       // a prefix of kernel.release
  CHECK(is_fact_path("access.nodes"));  // a prefix ending before "[]"
  CHECK_FALSE(is_fact_path("kern"));   // not at a boundary
  CHECK_FALSE(is_fact_path("kernel.releases"));
  CHECK_FALSE(is_fact_path(""));
  CHECK(is_fact_path("kernel.cmdline.amdgpu.ppfeaturemask"));  // any key under kernel.cmdline.amdgpu.*
  CHECK_FALSE(is_fact_path("kernel.cmdline.amdgpu.a.b"));      // one level only
  CHECK(is_fact_path("env.hsa_override_per_device.0"));
  auto names = fact_schema();
  CHECK(std::is_sorted(names.begin(), names.end()));
  for (auto name : names) CHECK(is_fact_path(std::string(name)));
}

namespace {

// The fact names docs/schemas/facts.schema.json describes, in the notation
// of facts_schema.cpp: its leaves ("kernel.release"), a list's values as
// "[]", an open object's keys as ".*". The unknown marker is no fact, and an
// alternative (anyOf, oneOf) names what is inside it but is no leaf of its
// own: the node it belongs to is, when no alternative names anything.
void schema_names(const Json& root, const Json& node, const std::string& path, std::set<std::string>& out,
                  bool alternative = false) {
  if (!node.is_object()) return;
  if (node.contains("$ref")) {
    std::string ref = node["$ref"].get<std::string>();
    if (ref == "#/$defs/unknown") return;
    REQUIRE(starts_with(ref, "#/$defs/"));
    schema_names(root, root["$defs"][ref.substr(8)], path, out, alternative);
    return;
  }
  size_t before = out.size();
  for (const char* alternatives : {"anyOf", "oneOf"})
    if (node.contains(alternatives))
      for (auto& alt : node[alternatives]) schema_names(root, alt, path, out, true);
  if (node.contains("properties"))
    for (auto& [key, sub] : node["properties"].items())
      schema_names(root, sub, path.empty() ? key : path + "." + key, out);
  if (node.contains("additionalProperties") && node["additionalProperties"].is_object())
    schema_names(root, node["additionalProperties"], path + ".*", out);
  if (node.contains("items")) schema_names(root, node["items"], path + "[]", out);
  if (out.size() == before && !path.empty() && !alternative) out.insert(path);
}

}  // namespace

// The facts schema is written twice: as the names rules may use
// (facts_schema.cpp) and as the JSON Schema a reader validates a document
// against (docs/schemas/facts.schema.json). They must name the same facts.
TEST_CASE("docs/schemas/facts.schema.json and facts_schema.cpp name the same facts", "[schema]") {
  std::ifstream in(source_path("docs/schemas/facts.schema.json"));
  REQUIRE(in);
  Json schema = Json::parse(in);
  std::set<std::string> in_json;
  schema_names(schema, schema, "", in_json);
  std::set<std::string> in_code;
  for (auto name : fact_schema()) in_code.insert(std::string(name));
  for (auto& name : in_json) {
    // The document's own metadata, not facts a rule may test.
    if (starts_with(name, "source.") || starts_with(name, "commands_run[]") || name == "generator" || name == "schema")
      continue;
    INFO("in facts.schema.json, not in facts_schema.cpp: " << name);
    CHECK(in_code.count(name));
  }
  for (auto& name : in_code) {
    INFO("in facts_schema.cpp, not in facts.schema.json: " << name);
    CHECK(in_json.count(name));
  }
}

TEST_CASE("a fact's blank in a command is named by its last name, or by what a reader types there", "[schema]") {
  CHECK(fact_blank_word("it.gfx") == "gfx");
  CHECK(fact_blank_word("target.installed[0]") == "installed");
  CHECK(fact_blank_word("torch_index") == "torch_index");
  // "usermod -aG render <target>" would ask for no user name.
  CHECK(fact_blank_word("access.user.target") == "user");
  CHECK(fact_blank_word("access.user.name") == "name");
}
