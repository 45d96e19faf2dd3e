// A cause: what is wrong on the machine when a signature shows up. It is a
// rule (title, why, fix, sources, examples, an optional `when` over facts)
// with the signatures that point to it and how decisive each is.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/rule.h"

namespace rocmdoc {

struct Signal {
  std::string signature;  // a signature id
  int weight = 1;         // 3 names this cause alone, 2 strong but shared, 1 routing
  SourceLocation where;
};

struct Cause {
  Rule rule;                       // id, title, why, fix, sources, examples; `when` may be null
  std::string area;                // triage layer (cause_areas())
  bool benign = false;             // harmless noise: never ranked above a real problem
  std::vector<Signal> signals;
  std::optional<FixStep> confirm;  // what to check by hand when the facts are unknown
};

// The triage layers in order: a problem lower in the stack explains the
// errors above it, so earlier areas win ties.
const std::vector<std::string>& cause_areas();
int cause_area_rank(const std::string& area);

}  // namespace rocmdoc
