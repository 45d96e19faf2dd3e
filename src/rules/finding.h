// What running the rules on a facts document produces: for each rule, did
// it fire (with one finding per matching item, items with the same fix
// merged), pass, or could it not be
// checked (and why).
#pragma once

#include <string>
#include <vector>

#include "rules/rule.h"

namespace rocmdoc {

struct RenderedStep {
  std::string text;
  std::vector<std::string> argv;  // empty: a person must act
  bool sudo = false;
  bool incomplete = false;        // a word of argv is an unknown fact: shown, never run
};

// The same step to a person and to the executor (`incomplete` follows from argv).
inline bool operator==(const RenderedStep& a, const RenderedStep& b) {
  return a.text == b.text && a.argv == b.argv && a.sudo == b.sudo;
}

// Another place a finding applies with the same fix: "alex cannot open
// /dev/kfd" and "... /dev/dri/renderD128" share one usermod, so they are one
// finding (one block, one count, one fix) that lists both.
struct Place {
  std::string title;
  Json evidence = Json::object();
};

struct Finding {
  const Rule* rule = nullptr;
  std::string title;
  std::string why;
  std::vector<RenderedStep> steps;
  std::vector<std::string> verify;
  Json evidence = Json::object();  // fact path -> value the condition read
  std::vector<Place> also;         // the other places with these same steps
};

enum class Verdict { fired, passed, unknown, not_applicable };
const char* verdict_name(Verdict v);

struct RuleOutcome {
  const Rule* rule = nullptr;
  Verdict verdict = Verdict::passed;
  std::string reason;  // for unknown: why it could not be checked; not_applicable: why not
  // judge_problem only: the text's own conditions rule the problem out (its
  // ruled_out_in_text true or its when_in_text false). Where its facts rule
  // it out first, when_in_text is read only for a problem with gives_way_to:
  // explain's give_way reads it rather than judge the text again.
  bool ruled_out_by_text = false;
  std::vector<Finding> findings;
};

}  // namespace rocmdoc
