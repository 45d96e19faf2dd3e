// Rule files as --rules DIR and /etc/rocmdoc/rules.d give them: the first
// byte picks the loader (catalogue, matrix, install recipes), the rest is
// the YAML. A catalogue that loads also runs its own examples, so the
// conditions it carries are evaluated on the facts it gives.
#include "fuzz_support.h"

#include "facts/facts_schema.h"
#include "install/plan/recipe.h"
#include "rules/rule_engine.h"

using namespace rocmdoc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Knowledge& k = fuzz::builtin_knowledge();
  auto [which, text] = fuzz::select(data, size, 3);
  std::vector<LoadError> errors;
  if (which == 0) {
    Vocabulary v;
    v.functions = &k.functions;
    v.is_fact = is_fact_path;
    RuleSet set = load_rule_set({{"fuzz/catalogue/fuzz.yaml", std::string(text)}}, {}, v);
    if (set.errors.empty()) run_examples(set, k.functions);
    for (auto& e : set.errors) (void)e.str();
  } else if (which == 1) {
    Matrix m = Matrix::load({{"fuzz/matrix/fuzz.yaml", std::string(text)}}, errors);
    (void)m;
  } else {
    InstallRecipes r = load_install_recipes({{"fuzz/install/fuzz.yaml", std::string(text)}}, errors);
    (void)r;
  }
  for (auto& e : errors) (void)e.str();
  return 0;
}
