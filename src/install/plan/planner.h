// From facts to an install plan: which release, which steps, and why
// rocmdoc refuses where it must. Pure: reads the facts document (with the
// derived sections), the recipes and the matrix; touches nothing.
#pragma once

#include <string>
#include <variant>

#include "install/plan/plan.h"
#include "install/plan/recipe.h"
#include "rules/matrix.h"

namespace rocmdoc {

struct PlanInput {
  Json facts;                   // derived sections are added when missing
  const InstallRecipes* recipes = nullptr;
  const Matrix* matrix = nullptr;
  InstallOptions options;
  // The target user's home from /etc/passwd, when the caller could read it;
  // empty: /home/<user> (/root for root), with a note that it was inferred.
  std::string user_home;
};

using PlanResult = std::variant<InstallPlan, InstallRefusal>;

PlanResult build_install_plan(PlanInput input);

// The step ids of the reference's step model (install.md §8.1), in order;
// a plan is these (less those its options or the machine make irrelevant)
// plus the pre-flight gates named by preflight_step_ids().
const std::vector<std::string>& reference_step_ids();
const std::vector<std::string>& preflight_step_ids();

// "install ubuntu-24.04 rocm-7.2.4 driver-30.30.4 torch": the journal's plan_key.
std::string plan_key(const InstallPlan& plan);

}  // namespace rocmdoc
