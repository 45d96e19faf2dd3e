// `rocmdoc install` output: the plan (text for people, JSON for scripts,
// docs/install.md) and a refusal. Nothing here evaluates or changes anything.
#pragma once

#include <string>

#include "base/fact.h"
#include "install/plan/plan.h"

namespace rocmdoc {

struct InstallTextOptions {
  bool color = false;
  bool dry_run = true;  // "would" (dry run) or "will" (before a run)
};

std::string render_plan_text(const InstallPlan& plan, const InstallTextOptions& options = {});
std::string render_refusal_text(const InstallRefusal& refusal);

constexpr int kInstallJsonSchema = 1;
Json render_plan_json(const InstallPlan& plan);
Json render_refusal_json(const InstallRefusal& refusal);

const char* check_kind_name(StepCheck::Kind kind);
const char* action_kind_name(StepAction::Kind kind);

}  // namespace rocmdoc
