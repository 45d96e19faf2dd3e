// A facts document as --facts FILE gives it: parsed with the bounds of any
// outside JSON, checked against the schema, and when it fits, judged by
// every rule (check), rendered as text and JSON, and planned for (install).
#include "fuzz_support.h"

#include "base/json_input.h"
#include "facts/facts_check.h"
#include "facts/facts_document.h"
#include "install/plan/planner.h"
#include "output/install_output.h"
#include "output/text_report.h"

using namespace rocmdoc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Knowledge& k = fuzz::builtin_knowledge();
  auto doc = parse_json_bounded(fuzz::as_text(data, size), kMaxFactsDepth);
  if (!doc || !doc->is_object() || field(*doc, "schema") != kFactsSchema) return 0;
  if (check_facts_shape(*doc)) return 0;
  CheckReport report = run_check(*doc, k, std::nullopt);
  (void)render_text_report(report, {true, false});
  (void)facts_to_string(render_json_report(report));

  static const InstallRecipes recipes = [] {
    std::vector<LoadError> errors;
    return load_install_recipes_from("", errors);
  }();
  PlanInput input;
  input.facts = *doc;
  input.recipes = &recipes;
  input.matrix = k.matrix.get();
  PlanResult plan = build_install_plan(std::move(input));
  if (auto* p = std::get_if<InstallPlan>(&plan)) (void)render_plan_text(*p);
  else (void)render_refusal_text(std::get<InstallRefusal>(plan));
  return 0;
}
