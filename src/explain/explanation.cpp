#include "explain/explanation.h"

#include <algorithm>
#include <set>

#include "rules/derived_facts.h"
#include "rules/rule_engine.h"

namespace rocmdoc {

const char* cause_verdict_name(CauseVerdict v) {
  switch (v) {
    case CauseVerdict::confirmed: return "confirmed";
    case CauseVerdict::undecided: return "undecided";
    case CauseVerdict::refuted: return "refuted";
  }
  return "undecided";
}

Json text_facts(const ScanResult& scan) {
  Json text = Json::object();
  Json matched = Json::array();
  for (auto& [id, hits] : scan.hits) matched.push_back(id);
  // A capture seen in several signatures: the one on the earliest line wins.
  for (auto& name : capture_names()) {
    size_t best = SIZE_MAX;
    for (auto& [id, hits] : scan.hits)
      if (hits.captures.count(name) && !hits.evidence.empty() && hits.evidence.front().line < best) {
        best = hits.evidence.front().line;
        text[name] = hits.captures.at(name);
      }
  }
  text["matched"] = matched;
  return text;
}

namespace {

CauseVerdict judge(const Cause& cause, const Json& facts, const Knowledge& k, std::string& reason) {
  if (!cause.rule.when) {
    reason = "decided by the text alone";
    return CauseVerdict::undecided;
  }
  RuleOutcome o = run_rule(cause.rule, facts, k.functions);
  switch (o.verdict) {
    case Verdict::fired: return CauseVerdict::confirmed;
    case Verdict::passed:
    case Verdict::not_applicable: return CauseVerdict::refuted;
    case Verdict::unknown: reason = o.reason; return CauseVerdict::undecided;
  }
  return CauseVerdict::undecided;
}

std::string confidence(CauseVerdict v, int score) {
  if (v == CauseVerdict::confirmed) return "high";
  if (v == CauseVerdict::undecided && score >= 2) return "medium";
  return "low";
}

// Evidence of all matched signals in input order, without repeats.
void gather_evidence(ExplainedCause& e, const ScanResult& scan) {
  int best = 0, distinct = 0;
  for (auto& sig : e.cause->signals) {
    auto it = scan.hits.find(sig.signature);
    if (it == scan.hits.end()) continue;
    best = std::max(best, sig.weight);
    ++distinct;
    e.matches += it->second.count;
    for (auto& line : it->second.evidence) e.evidence.push_back(line);
  }
  e.text_score = distinct ? best + distinct - 1 : 0;
  std::sort(e.evidence.begin(), e.evidence.end(),
            [](const EvidenceLine& a, const EvidenceLine& b) { return a.line < b.line; });
  e.evidence.erase(std::unique(e.evidence.begin(), e.evidence.end(),
                               [](const EvidenceLine& a, const EvidenceLine& b) {
                                 return a.line == b.line && a.source == b.source;
                               }),
                   e.evidence.end());
  if (e.evidence.size() > 5) e.evidence.resize(5);
}

// Real problems the facts do not rule out, then harmless noise, then what
// the facts rule out: a refuted error explains less than a benign line.
int tier(const ExplainedCause& c) {
  bool refuted = c.verdict == CauseVerdict::refuted;
  return (refuted ? 2 : 0) + (c.cause->benign ? 1 : 0);
}

bool ranks_before(const ExplainedCause& a, const ExplainedCause& b) {
  if (tier(a) != tier(b)) return tier(a) < tier(b);
  if (a.verdict != b.verdict) return a.verdict < b.verdict;
  if (a.text_score != b.text_score) return a.text_score > b.text_score;
  int ra = cause_area_rank(a.cause->area), rb = cause_area_rank(b.cause->area);
  if (ra != rb) return ra < rb;
  size_t la = a.evidence.empty() ? SIZE_MAX : a.evidence.front().line;
  size_t lb = b.evidence.empty() ? SIZE_MAX : b.evidence.front().line;
  return la < lb;
}

}  // namespace

Explanation explain(const ScanResult& scan, Json facts, const Knowledge& knowledge) {
  Explanation out;
  out.lines = scan.lines;
  out.bytes = scan.bytes;
  if (!facts.is_object()) facts = Json::object();
  add_derived_facts(facts, *knowledge.matrix, std::nullopt);
  facts["text"] = text_facts(scan);
  for (auto& cause : knowledge.error_rules.causes) {
    ExplainedCause e;
    e.cause = &cause;
    gather_evidence(e, scan);
    if (e.text_score == 0) continue;
    e.verdict = judge(cause, facts, knowledge, e.reason);
    e.confidence = confidence(e.verdict, e.text_score);
    e.finding = describe_rule(cause.rule, facts, knowledge.functions);
    if (cause.confirm) e.confirm = describe_step(*cause.confirm, facts, knowledge.functions);
    out.causes.push_back(std::move(e));
  }
  std::stable_sort(out.causes.begin(), out.causes.end(), ranks_before);
  for (auto& id : scan.origins)
    for (auto& o : knowledge.error_rules.origins)
      if (o.id == id) out.origins.push_back(&o);
  out.facts = std::move(facts);
  return out;
}

std::vector<MachineProblem> machine_problems(const Json& facts, const Knowledge& knowledge) {
  std::vector<MachineProblem> problems;
  CheckReport report = run_check(facts, knowledge, std::nullopt);
  for (Severity wanted : {Severity::error, Severity::warning})
    for (auto& o : report.outcomes)
      if (o.verdict == Verdict::fired && o.rule->severity == wanted && !o.findings.empty())
        problems.push_back({o.rule->id, severity_name(wanted), o.rule->area, o.findings.front().title});
  return problems;
}

}  // namespace rocmdoc
