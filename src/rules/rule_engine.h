// Runs rules on a facts document. A rule fires only where its condition is
// true; unknown is reported as "could not check", never as healthy.
#pragma once

#include <map>
#include <optional>
#include <vector>

#include "rules/finding.h"
#include "rules/rule_loader.h"

namespace rocmdoc {

RuleOutcome run_rule(const Rule& rule, const Json& facts, const std::map<std::string, Function>& functions);
// The rule's texts and fix rendered on these facts whatever its verdict
// (explain shows candidates that did not fire); an unknown placeholder
// prints as what is missing, "(gfx not known)", in a sentence, and as a blank
// to fill in, "<gfx>", in a command (argv, verify, or right after "=").
Finding describe_rule(const Rule& rule, const Json& facts, const std::map<std::string, Function>& functions);
// A fact's value as a reason shows it after "path is": "empty" for an empty
// list, a short value (60 bytes or fewer) as written; "" for anything else
// (an object, a longer list or text), which a one-line reason leaves out.
std::string fact_value_in_brief(const Json& value);
// The first of the steps whose `when` holds on the facts, or that has none,
// rendered; nullopt where none does.
std::optional<RenderedStep> describe_first_step(const std::vector<FixStep>& steps, const Json& facts,
                                                const std::map<std::string, Function>& functions);

// check: every problem that has a facts condition.
std::vector<RuleOutcome> run_rules(const RuleSet& rules, const Json& facts,
                                   const std::map<std::string, Function>& functions);

// The key, in the facts' `text` object, of the list of values explain filled
// in from the machine where the text names none (the GPU's gfx, the running
// kernel): explain writes it, and judge_problem's reasons read it to name
// those values as the machine's rather than the text's.
inline constexpr const char* kTextFromMachine = "from_machine";

// explain's verdict on a problem a text points to: its ruled_out_in_text
// true refutes it first; then its facts condition and its when_in_text must
// both hold to confirm it; either false refutes it; with neither, the text
// alone decides (unknown, "decided by the text alone").
RuleOutcome judge_problem(const Problem& problem, const Json& facts, const std::map<std::string, Function>& functions);

// Whether what a problem needs set (`needs_set`) is visible: set in the
// facts, or shown by a matched line of the text (a signature that
// `shows_set` it, or one of the problem's own signals of weight 2 or 3,
// which name it); not set by the facts (known null or empty: then its conditions
// decide, as for any problem); or neither, when the facts do not record it
// and the text does not show it.
enum class SettingSeen { not_needed, shown, not_set, unseen };
SettingSeen needed_setting_seen(const Problem& problem, const Json& facts,
                                const std::map<std::string, Function>& functions);

// Whether a problem's likely_in_text holds on these facts (true, not
// unknown): explain ranks such an open problem one text-score step higher.
bool likely_in_text(const Problem& problem, const Json& facts, const std::map<std::string, Function>& functions);

struct ExampleFailure {
  const Rule* rule;
  const RuleExample* example;
  std::string got;     // fire, pass or unknown
  std::string detail;  // the unknown reason, when there is one
  // A symptom's not_here example (rule is the symptom's not_here, whose id
  // is the symptom's), not a problem's: rules test names it as such.
  bool not_here = false;
};
// How many examples ran, by what they belong to: a problem's judge a
// problem, a symptom's not_here says where a machine does not show it.
struct ExamplesRun {
  size_t problem = 0;
  size_t not_here = 0;
};
// Runs every rule's examples; returns the ones whose verdict differs.
std::vector<ExampleFailure> run_examples(const RuleSet& rules, const std::map<std::string, Function>& functions,
                                         ExamplesRun* examples_run = nullptr);

}  // namespace rocmdoc
