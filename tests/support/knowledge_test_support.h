// Test helper: the shipped catalogue with its patterns compiled, as explain
// loads it. Header-only so the support library stays at the facts stage:
// only tests that link the rules stage include it.
#pragma once

#include "catch.h"
#include "rules/knowledge.h"

namespace rocmdoc::test {

// The built-in rules and matrix, compiled; REQUIREs that they load cleanly.
inline Knowledge shipped_knowledge() {
  RuleSources sources{"", ""};
  sources.compile_patterns = true;
  Knowledge k = load_knowledge(sources);
  REQUIRE(k.errors.empty());
  return k;
}

}  // namespace rocmdoc::test
