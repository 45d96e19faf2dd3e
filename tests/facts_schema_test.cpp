// The fact names rules may use (src/facts/facts_schema.cpp) must cover what
// the probes write, and each must be documented in docs/facts.md.
#include <fstream>
#include <set>
#include <sstream>

#include "catch.h"
#include "rocmdoc/check_report.h"
#include "rocmdoc/facts_schema.h"
#include "rocmdoc/text.h"
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
  for (auto name : fact_schema()) {
    while (ends_with(name, "[]")) name.resize(name.size() - 2);  // a list of values: its own name
    std::string last = name.substr(name.find_last_of(".]") == std::string::npos ? 0 : name.find_last_of(".]") + 1);
    if (last == "*") continue;
    INFO(name);
    CHECK(documented.count(last));
  }
}
