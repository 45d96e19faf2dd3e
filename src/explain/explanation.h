// What `rocmdoc explain` concludes from a scanned text and the facts of a
// machine: the causes its signatures point to, each confirmed, undecided or
// refuted by the facts through the rules engine, ranked best first
// (docs/explain.md, "Ranking"). Renderers read it; nothing here prints.
#pragma once

#include <string>
#include <vector>

#include "rules/knowledge.h"
#include "explain/log_scanner.h"

namespace rocmdoc {

enum class CauseVerdict { confirmed, undecided, refuted };
const char* cause_verdict_name(CauseVerdict v);

struct ExplainedCause {
  const Problem* cause = nullptr;
  CauseVerdict verdict = CauseVerdict::undecided;
  std::string reason;        // undecided: which fact is unknown; or "decided by the text alone"
  int text_score = 0;        // highest signal weight + 1 per further signature matched
  std::string confidence;    // high, medium, low
  std::vector<EvidenceLine> evidence;  // matched lines of its signals, in input order
  size_t matches = 0;        // matched lines in all (evidence keeps a few)
  Finding finding;           // confirmed: check's own finding; otherwise rendered on the facts
  std::optional<RenderedStep> confirm;
  const Symptom* symptom = nullptr;  // found through this symptom, not a signal of its own
  size_t symptom_rank = 0;           // its place in the symptom's list (most common first)
  std::string ruled_out;             // refuted: the facts that rule it out ("amdgpu.module.loaded is true")
  bool ruled_out_by_text = false;    // the text's own conditions rule it out (RuleOutcome::ruled_out_by_text)
  std::string confirmed_by;          // confirmed: the facts check's finding read, in brief
  // Undecided only: the variables it needs set (`needs_set`) when neither
  // the text nor the facts show one set. Such a cause ranks after every
  // open cause that needs nothing set, and its confirm is the command that
  // shows whether they are set.
  std::vector<std::string> unseen_settings;
  // Undecided only: its likely_in_text holds on the text (it shows where the
  // problem happens, not that it did): one text-score step in the order.
  bool likely = false;
  // Explanation::resembles only: how much the text's words are the
  // problem's (ProblemWords, 0..1), and the words that weigh most.
  double resemblance = 0;
  std::vector<std::string> shared_words;
};

// A problem `check` finds on the same facts (a fired error or warning).
struct MachineProblem {
  std::string id, severity, area, title;
};

struct Explanation {
  std::vector<ExplainedCause> causes;       // best first; refuted ones last
  std::vector<const Symptom*> symptoms;     // the symptoms the text shows
  // What the facts say of a symptom the text shows, where its not_here holds
  // ("amdgpu is loaded on this boot"): the symptom and the sentence.
  std::vector<std::pair<const Symptom*, std::string>> not_here;
  // What check finds on these facts: said when the text names nothing this
  // machine has, instead of sending the user upstream. Empty without facts.
  std::vector<MachineProblem> machine_problems;
  std::vector<const Origin*> origins;       // where the text seems to come from
  // When no cause was found: the problems whose words the text shares most
  // (a guess, never a cause), those the facts do not rule out, the ones the
  // facts confirm first. Empty when a cause was found.
  std::vector<ExplainedCause> resembles;
  Json facts;                               // the facts used, with `text` and the derived sections
  size_t lines = 0, bytes = 0;
  // True when some cause was found; `real_problem` when the best one is an
  // error or warning the facts do not rule out.
  bool recognised() const { return !causes.empty(); }
  size_t ruled_out() const;  // how many causes the facts refute
  // True when every cause a signal of the text itself points to is refuted
  // and some cause found through a symptom is left open ("Key was rejected by
  // service" on a machine whose Secure Boot is off and amdgpu loaded): what
  // is left is not what the text says, and is not offered as its cause.
  bool own_causes_ruled_out() const;
  bool real_problem() const {
    return !causes.empty() && !causes.front().cause->benign && causes.front().verdict != CauseVerdict::refuted;
  }
};

// The `text` facts section: captured values (first one seen) and the ids of
// the signatures that matched.
Json text_facts(const ScanResult& scan);

Explanation explain(const ScanResult& scan, Json facts, const Knowledge& knowledge);

// check's errors and warnings on the facts an explanation judged by (already
// derived), most severe first, one per
// problem.
std::vector<MachineProblem> machine_problems(const Explanation& e, const Knowledge& knowledge);

}  // namespace rocmdoc
