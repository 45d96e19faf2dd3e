#include "explain/explanation.h"
#include "base/json_text.h"

#include <algorithm>
#include <map>
#include <set>

#include "rules/problem_words.h"
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
  // A capture seen in several signatures: the one on the earliest line wins,
  // and a failure's own message wins over a line that merely mentions a
  // value (a context signature): "gfx1030" in an override note must not
  // replace the gfx1031 the runtime names.
  for (auto& name : capture_names())
    for (bool context : {false, true}) {
      if (text.contains(name)) break;
      size_t best = SIZE_MAX;
      for (auto& [id, hits] : scan.hits)
        if (hits.context == context && hits.captures.count(name) && !hits.ambiguous.count(name) && !hits.evidence.empty() &&
            hits.evidence.front().line < best) {
          best = hits.evidence.front().line;
          text[name] = hits.captures.at(name);
        }
    }
  text["matched"] = matched;
  // Which programs the text seems to come from (origins.yaml): an ollama log
  // is not about a PyTorch wheel, whatever symptom it shows.
  Json origins = Json::array();
  for (auto& id : scan.origins) origins.push_back(id);
  text["origins"] = origins;
  return text;
}

namespace {

// What the text does not say, this machine's facts do: a pasted "no kernel
// image" without its gfx is about this machine's GPU (the first discrete one,
// the one ROCm runs on when nothing picks another), and a DKMS error without
// its kernel about the running kernel. Named in text.from_machine, so the
// JSON says which values the text did not carry.
void fill_from_machine(Json& text, const Json& facts) {
  Json filled = Json::array();
  auto known_string = [](const Json& j) { return j.is_string() && !j.get<std::string>().empty(); };
  if (!text.contains("gfx") && facts.contains("gpus") && facts["gpus"].is_array()) {
    const Json *discrete = nullptr, *any = nullptr;
    for (auto& gpu : facts["gpus"]) {
      if (!gpu.is_object() || !known_string(gpu.value("gfx", Json()))) continue;
      if (!any) any = &gpu;
      if (!discrete && gpu.value("apu", Json()) == false) discrete = &gpu;
    }
    if (const Json* pick = discrete ? discrete : any) {
      text["gfx"] = (*pick)["gfx"];
      filled.push_back("gfx");
    }
  }
  if (!text.contains("kernel_release") && facts.contains("kernel") && facts["kernel"].is_object() &&
      known_string(facts["kernel"].value("release", Json())))
    text["kernel_release"] = facts["kernel"]["release"], filled.push_back("kernel_release");
  if (!filled.empty()) text[kTextFromMachine] = filled;
}

CauseVerdict judge(ExplainedCause& e, const Json& facts, const Knowledge& k) {
  RuleOutcome o = judge_problem(*e.cause, facts, k.functions);
  e.ruled_out_by_text = o.ruled_out_by_text;
  switch (o.verdict) {
    case Verdict::fired:
      // What check itself says about it, with the machine's values.
      if (!o.findings.empty()) e.finding = o.findings.front();
      return CauseVerdict::confirmed;
    case Verdict::passed: e.ruled_out = o.reason; return CauseVerdict::refuted;
    case Verdict::not_applicable: {
      std::string kinds;
      for (auto& p : e.cause->rule.platforms) kinds += (kinds.empty() ? "" : " or ") + p;
      e.ruled_out = "it happens only on " + kinds + ", and this is not one";
      return CauseVerdict::refuted;
    }
    case Verdict::unknown: e.reason = o.reason; return CauseVerdict::undecided;
  }
  return CauseVerdict::undecided;
}

// The known facts a condition read, as "path is value": what the user can
// check for themselves. Only short values, at most three, to stay one line;
// a for_each rule's list first ("python.torch is empty"). Empty when none
// is short enough.
std::string facts_in_brief(const ExplainedCause& e, const Json& facts, const Knowledge& k) {
  std::vector<std::pair<std::string, Json>> read;
  const Rule& rule = e.cause->rule;
  if (!rule.for_each.empty() && e.verdict != CauseVerdict::confirmed) {
    EvalContext ctx(facts, k.functions);
    Value list = evaluate_path(rule.for_each, ctx);
    if (!list.is_unknown()) read.emplace_back(rule.for_each, list.json());
  }
  for (auto& [path, value] : e.finding.evidence.items())
    if (path != rule.for_each) read.emplace_back(path, value);
  std::string out;
  int n = 0;
  for (auto& [path, value] : read) {
    std::string shown = fact_value_in_brief(value);
    if (shown.empty()) continue;  // an unknown, or too long to read in one line
    out += (out.empty() ? "" : ", ") + path + " is " + shown;
    if (++n == 3) break;
  }
  return out;
}

std::string confidence(CauseVerdict v, int score) {
  if (v == CauseVerdict::confirmed) return "high";
  if (v == CauseVerdict::undecided && score >= 2) return "medium";
  return "low";
}

// Evidence lines in input order, each once, at most five.
void tidy_evidence(std::vector<EvidenceLine>& evidence) {
  std::sort(evidence.begin(), evidence.end(), [](const EvidenceLine& a, const EvidenceLine& b) { return a.line < b.line; });
  evidence.erase(std::unique(evidence.begin(), evidence.end(),
                             [](const EvidenceLine& a, const EvidenceLine& b) {
                               return a.line == b.line && a.source == b.source;
                             }),
                 evidence.end());
  if (evidence.size() > 5) evidence.resize(5);
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
  tidy_evidence(e.evidence);
}

// Real problems the facts do not rule out, then harmless noise, then what
// the facts rule out: a refuted error explains less than a benign line.
// Among the open real ones, a problem that exists only when the user set a
// variable comes after those that need nothing set, while nothing shows the
// variable set: most users never set a device mask or LD_LIBRARY_PATH, so a
// symptom's list must not put "your HIP_VISIBLE_DEVICES hides the GPU"
// before what happens on every machine. It stays a candidate (undecided).
// The HSA_OVERRIDE_GFX_VERSION problems have no needs_set: pastes often
// leave out an override that is set, and demoting them cost validation.
int tier(const ExplainedCause& c) {
  if (c.verdict == CauseVerdict::refuted) return c.cause->benign ? 4 : 3;
  if (c.cause->benign) return 2;
  return c.unseen_settings.empty() ? 0 : 1;
}

// The variables nothing shows set, and the one command that shows whether
// they are: printenv prints the value of each that is set, nothing for the
// others.
void mark_unseen_settings(ExplainedCause& e, const Json& facts, const Knowledge& k) {
  if (e.verdict != CauseVerdict::undecided ||
      needed_setting_seen(*e.cause, facts, k.functions) != SettingSeen::unseen)
    return;
  RenderedStep step;
  step.argv = {"printenv"};
  std::string names;
  for (auto& need : e.cause->needs_set) {
    if (std::find(e.unseen_settings.begin(), e.unseen_settings.end(), need.variable) != e.unseen_settings.end()) continue;
    e.unseen_settings.push_back(need.variable);
    step.argv.push_back(need.variable);
    names += (names.empty() ? "" : " or ") + need.variable;
  }
  e.reason = "it needs " + names + " set, and neither the text nor the facts show it";
  step.text = "It happens only with " + names +
              " set: print it in the environment the program runs in (its shell, service unit or container); "
              "nothing printed rules it out";
  e.confirm = step;
}

bool ranks_before(const ExplainedCause& a, const ExplainedCause& b) {
  if (tier(a) != tier(b)) return tier(a) < tier(b);
  // A message only one problem prints (its own weight-3 signal) says what
  // happened; a problem the text reached only through a symptom does not
  // outrank it by being confirmed ("PCI rejects atomics" beside an RX 580
  // that is also too old for ROCm names the atomics first).
  auto decisive = [](const ExplainedCause& c) { return c.symptom == nullptr && c.text_score >= 2; };
  if (decisive(a) && b.symptom && !decisive(b)) return true;
  if (decisive(b) && a.symptom && !decisive(a)) return false;
  if (a.verdict != b.verdict) return a.verdict < b.verdict;
  // likely_in_text is one step here, in the order, and nowhere else.
  int sa = a.text_score + (a.likely ? 1 : 0), sb = b.text_score + (b.likely ? 1 : 0);
  if (sa != sb) return sa > sb;
  // Two problems the facts confirm, at the same text score: the error is
  // what failed, a warning the setting around it ("the override never
  // reached the program" before "no release supports gfx1031").
  if (a.verdict == CauseVerdict::confirmed && a.cause->rule.severity != b.cause->rule.severity)
    return a.cause->rule.severity < b.cause->rule.severity;
  int ra = cause_area_rank(a.cause->layer), rb = cause_area_rank(b.cause->layer);
  // A cause found only through a symptom ranks by the symptom's order.
  if ((a.symptom != nullptr) != (b.symptom != nullptr)) return a.symptom == nullptr;
  if (a.symptom && b.symptom && a.symptom_rank != b.symptom_rank) return a.symptom_rank < b.symptom_rank;
  if (ra != rb) return ra < rb;
  size_t la = a.evidence.empty() ? SIZE_MAX : a.evidence.front().line;
  size_t lb = b.evidence.empty() ? SIZE_MAX : b.evidence.front().line;
  return la < lb;
}

// A problem that leads to another one (`leads_to`) goes right before it when
// the text shows both by their own signals and the facts judge both alike:
// the root first ("no ROCm wheel for Python 3.13" before "pip installed the
// CUDA torch"). A pass after the sort, since "leads to" orders only pairs.
void roots_first(std::vector<ExplainedCause>& causes) {
  for (size_t i = 1; i < causes.size(); ++i) {
    const ExplainedCause& root = causes[i];
    if (root.cause->leads_to.empty() || root.text_score == 0 || root.symptom) continue;
    for (size_t j = 0; j < i; ++j) {
      const ExplainedCause& led = causes[j];
      bool is_led = std::any_of(root.cause->leads_to.begin(), root.cause->leads_to.end(),
                                [&](const std::string& id) { return led.cause->has_id(id); });
      if (!is_led || led.text_score == 0 || led.symptom || led.verdict != root.verdict || tier(led) != tier(root))
        continue;
      std::rotate(causes.begin() + static_cast<std::ptrdiff_t>(j), causes.begin() + static_cast<std::ptrdiff_t>(i),
                  causes.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      break;
    }
  }
}

// A candidate judged on the facts as check judges it, for a cause and a
// resemblance alike: check's finding with this machine's values, the
// verdict, what confirmed or ruled it out, and the step that decides it.
void judge_on_facts(ExplainedCause& e, const Json& facts, const Knowledge& k) {
  const Problem& problem = *e.cause;
  e.finding = describe_rule(problem.rule, facts, k.functions);
  e.verdict = judge(e, facts, k);
  if (e.verdict == CauseVerdict::refuted && e.ruled_out.empty()) {
    e.ruled_out = facts_in_brief(e, facts, k);
    if (e.ruled_out.empty()) e.ruled_out = "its condition does not hold on these facts";
  }
  if (e.verdict == CauseVerdict::confirmed) e.confirmed_by = facts_in_brief(e, facts, k);
  // A refuted problem's title, filled from the facts, would assert the very
  // thing the facts refute ("torch 2.8.0+rocm6.4 ... is a CUDA build"):
  // the title without facts says what was looked for.
  if (e.verdict == CauseVerdict::refuted && !problem.rule.summary.empty()) e.finding.title = problem.rule.summary;
  // Nor does an undecided one's title carry why it is undecided: describe_rule
  // already gave the summary where the title reads an unknown fact's reason
  // (title_reads_undecided_reason); the reason line says it.
  e.confirm = describe_first_step(problem.confirm, facts, k.functions);
}

// A problem the facts refute only because its `when` leaves the case to a
// more specific one (`gives_way_to`: amdgpu-not-loaded where amdgpu is
// blacklisted) is not ruled out when the facts confirm that one: the text's
// message is its case. The specific problem takes the message's evidence
// and score, as a cause of the text's own (not a symptom's guess), and the
// general one says whose case it is. Not where the text itself rules the
// general one out (its when_in_text false, its ruled_out_in_text true).
void give_way(std::vector<ExplainedCause>& causes, const Json& facts, const Knowledge& k) {
  std::vector<ExplainedCause> added;
  for (size_t g = 0; g < causes.size(); ++g) {
    if (causes[g].verdict != CauseVerdict::refuted || causes[g].cause->gives_way_to.empty() || causes[g].symptom)
      continue;
    if (causes[g].ruled_out_by_text) continue;
    const Problem& general = *causes[g].cause;
    for (auto& id : general.gives_way_to) {
      const Problem* specific = k.catalogue.find(id);
      if (!specific) continue;
      auto same = [&](const ExplainedCause& c) { return c.cause == specific; };
      ExplainedCause* s = nullptr;
      if (auto it = std::find_if(causes.begin(), causes.end(), same); it != causes.end()) s = &*it;
      else if (auto at = std::find_if(added.begin(), added.end(), same); at != added.end()) s = &*at;
      else {
        ExplainedCause e;
        e.cause = specific;
        judge_on_facts(e, facts, k);
        if (e.verdict != CauseVerdict::confirmed) continue;
        added.push_back(std::move(e));
        s = &added.back();
      }
      if (s->verdict != CauseVerdict::confirmed) continue;
      const ExplainedCause& from = causes[g];
      if (s->symptom || s->text_score < from.text_score) {
        s->symptom = nullptr;
        s->text_score = std::max(s->text_score, from.text_score);
        s->evidence.insert(s->evidence.end(), from.evidence.begin(), from.evidence.end());
        tidy_evidence(s->evidence);
        s->matches = std::max(s->matches, from.matches);
        s->confidence = confidence(s->verdict, s->text_score);
      }
      causes[g].ruled_out = "it is the case of " + specific->rule.id + ", which the facts confirm";
      break;
    }
  }
  for (auto& e : added) causes.push_back(std::move(e));
}

// A text no message of the catalogue matched may still be about a known
// problem in other words: the three it resembles most (ProblemWords), judged
// on the facts like causes. The facts' verdict orders them; the guess never
// becomes a cause.
constexpr size_t kResemblances = 3;
// The words are indexed here, only for such a text: building the index
// costs about 10 ms, and most texts name a cause.
std::vector<ExplainedCause> resembling(const std::string& text, const Json& facts, const Knowledge& knowledge) {
  std::vector<ExplainedCause> out;
  if (text.empty()) return out;
  ProblemWords words(knowledge.catalogue.problems, knowledge.catalogue.signatures);
  for (auto& r : words.closest(text, kResemblances)) {
    ExplainedCause e;
    e.cause = r.problem;
    e.resemblance = r.score;
    e.shared_words = r.shared;
    judge_on_facts(e, facts, knowledge);
    if (e.verdict == CauseVerdict::refuted) continue;
    e.confidence = e.verdict == CauseVerdict::confirmed ? "medium" : "low";
    out.push_back(std::move(e));
  }
  std::stable_sort(out.begin(), out.end(), [](const ExplainedCause& a, const ExplainedCause& b) {
    return a.verdict == CauseVerdict::confirmed && b.verdict != CauseVerdict::confirmed;
  });
  return out;
}

}  // namespace

Explanation explain(const ScanResult& scan, Json facts, const Knowledge& knowledge) {
  Explanation out;
  out.lines = scan.lines;
  out.bytes = scan.bytes;
  if (!facts.is_object()) facts = Json::object();
  // The same derived facts check judges on, the kernel log's signatures too.
  derive_facts(facts, knowledge, std::nullopt);
  facts["text"] = text_facts(scan);
  // "RX 470" in the text names its GPU as surely as "gfx803" does.
  Json& text = facts["text"];
  // Not when the text lists several targets: then a name is no better.
  bool several_gfx = std::any_of(scan.hits.begin(), scan.hits.end(),
                                 [](auto& h) { return h.second.context && h.second.ambiguous.count("gfx"); });
  if (!text.contains("gfx") && !several_gfx && text.contains("gpu_name") && text["gpu_name"].is_string())
    if (auto gfx = knowledge.matrix->gfx_for_product_name(text["gpu_name"].get<std::string>())) text["gfx"] = *gfx;
  fill_from_machine(text, facts);
  // The symptoms the text shows, and through them every problem that
  // produces one: the facts choose among them.
  struct Via {
    const Symptom* symptom;
    size_t rank;
    int weight;
    std::vector<EvidenceLine> evidence;
    size_t matches;
  };
  std::map<const Problem*, Via> via;
  for (auto& symptom : knowledge.catalogue.symptoms) {
    int weight = 0;
    std::vector<EvidenceLine> evidence;
    size_t matches = 0;
    for (auto& sig : symptom.signals) {
      auto it = scan.hits.find(sig.signature);
      if (it == scan.hits.end()) continue;
      weight = std::max(weight, sig.weight);
      matches += it->second.count;
      evidence.insert(evidence.end(), it->second.evidence.begin(), it->second.evidence.end());
    }
    if (weight == 0) continue;
    tidy_evidence(evidence);  // once per symptom, not once per problem it lists
    out.symptoms.push_back(&symptom);
    if (symptom.not_here.when) {
      RuleOutcome here = run_rule(symptom.not_here, facts, knowledge.functions);
      if (here.verdict == Verdict::fired && !here.findings.empty())
        out.not_here.emplace_back(&symptom, here.findings.front().title);
    }
    for (size_t i = 0; i < symptom.problems.size(); ++i) {
      const Problem* p = knowledge.catalogue.find(symptom.problems[i]);
      if (p && !via.count(p)) via[p] = {&symptom, i, weight, evidence, matches};
    }
  }
  for (auto& cause : knowledge.catalogue.problems) {
    ExplainedCause e;
    e.cause = &cause;
    gather_evidence(e, scan);
    auto v = via.find(&cause);
    if (e.text_score == 0 && v == via.end()) continue;
    if (e.text_score == 0) {
      e.symptom = v->second.symptom;
      e.symptom_rank = v->second.rank;
      e.text_score = v->second.weight;
      e.evidence = v->second.evidence;
      e.matches = v->second.matches;
    }
    judge_on_facts(e, facts, knowledge);
    e.confidence = confidence(e.verdict, e.text_score);
    // What the text shows around the failure (a container's command line, a
    // GPU that needs PCIe atomics) makes an open problem likelier than its
    // place in a symptom's list: one step of text score in the order
    // (ranks_before), never a verdict, a confidence or a decisive message.
    e.likely = e.verdict == CauseVerdict::undecided && likely_in_text(cause, facts, knowledge.functions);
    mark_unseen_settings(e, facts, knowledge);
    out.causes.push_back(std::move(e));
  }
  give_way(out.causes, facts, knowledge);
  std::stable_sort(out.causes.begin(), out.causes.end(), ranks_before);
  roots_first(out.causes);
  if (out.causes.empty()) out.resembles = resembling(scan.head, facts, knowledge);
  for (auto& id : scan.origins)
    for (auto& o : knowledge.catalogue.origins)
      if (o.id == id) out.origins.push_back(&o);
  out.facts = std::move(facts);
  return out;
}

size_t Explanation::ruled_out() const {
  return static_cast<size_t>(std::count_if(causes.begin(), causes.end(),
                                           [](const ExplainedCause& c) { return c.verdict == CauseVerdict::refuted; }));
}

bool Explanation::own_causes_ruled_out() const {
  bool own_refuted = false, symptom_open = false;
  for (auto& c : causes) {
    if (c.symptom) {
      symptom_open = symptom_open || c.verdict != CauseVerdict::refuted;
      continue;
    }
    if (c.verdict != CauseVerdict::refuted) return false;
    own_refuted = true;
  }
  return own_refuted && symptom_open;
}

std::vector<MachineProblem> machine_problems(const Explanation& e, const Knowledge& knowledge) {
  std::vector<MachineProblem> problems;
  // e.facts is already derived; the text section beside it is never read
  // by a check condition (the loader keeps text.* out of `when`).
  auto outcomes = run_rules(knowledge.catalogue, e.facts, knowledge.functions);
  for (Severity wanted : {Severity::error, Severity::warning})
    for (auto& o : outcomes)
      if (o.verdict == Verdict::fired && o.rule->severity == wanted && !o.findings.empty())
        problems.push_back({o.rule->id, severity_name(wanted), o.rule->area, o.findings.front().title});
  return problems;
}

}  // namespace rocmdoc
