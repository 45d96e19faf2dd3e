#include "rules/rule_engine.h"
#include "base/json_text.h"
#include "facts/facts_schema.h"

#include <set>

namespace rocmdoc {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::fired: return "fire";
    case Verdict::passed: return "pass";
    case Verdict::unknown: return "unknown";
    case Verdict::not_applicable: return "not_applicable";
  }
  return "unknown";
}

namespace {

// A fact as text. An unknown one prints as "?" (check's mark; explain names
// it instead, see render), and so does a null one (a variable not set, a
// device pci.ids does not list): a sentence never says "HSA_OVERRIDE_GFX_VERSION=null".
std::string display(const Value& v) {
  if (v.is_unknown() || v.json().is_null()) return "?";
  const Json& j = v.json();
  if (j.is_string()) return j.get<std::string>();
  if (j.is_array()) {
    std::string out;
    for (auto& item : j) out += (out.empty() ? "" : ", ") + (item.is_string() ? item.get<std::string>() : json_text(item));
    return out;
  }
  return json_text(j);
}

// How explain names an unknown fact depends on where it stands. In a
// sentence it is what is missing: "(newest for gpu not known)"; never
// "<newest_for_gpu>", which reads as a blank left unfilled. In a command the
// reader completes it is a blank: "<gfx>", the usual way to say "put yours
// here" ("=(gfx not known)" would paste as a shell syntax error). Commands
// are a step's argv and verify (Blanks::always) and, in a fix step's text,
// a value right after "=" ("-DAMDGPU_TARGETS={gfx}": Blanks::after_equals);
// a title's "HSA_OVERRIDE_GFX_VERSION={...} is set" describes the machine
// and stays a sentence.
enum class Blanks { never, after_equals, always };

std::string render(const Template& t, EvalContext& ctx, bool name_unknowns, bool* unknown_seen = nullptr,
                   Blanks blanks = Blanks::never) {
  std::string out = t.text;
  for (size_t i = 0; i < t.placeholders.size(); ++i) {
    const std::string& path = t.placeholders[i];
    const ExprPtr& call = i < t.calls.size() ? t.calls[i] : nullptr;
    std::string token = "{" + path + "}";
    // A blank is named for what it stands for, read from the parsed call
    // (default(x, ...) by x, another call by its function) or the path:
    // "<gfx>" for "-DAMDGPU_TARGETS={default(text.gfx, target.gpu_gfx)}",
    // "<user>" for access.user.target (facts_schema.h).
    std::string shown = fact_blank_word(call ? blank_subject(*call) : path);
    std::string blank = "<" + shown + ">";
    // "newest_for_gpu" reads as words; a variable's name stays as it is
    // spelt ("HSA_OVERRIDE_GFX_VERSION").
    if (shown.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") == std::string::npos)
      for (char& c : shown)
        if (c == '_') c = ' ';
    std::string words = "(" + shown + " not known)";
    Value v = call ? evaluate(*call, ctx) : evaluate_path(path, ctx);
    bool unknown = v.is_unknown() || v.json().is_null();
    if (unknown_seen && unknown) *unknown_seen = true;
    std::string value = display(v);
    for (size_t pos = out.find(token); pos != std::string::npos;) {
      size_t from = pos, length = token.size();
      std::string with = value;
      if (unknown && name_unknowns) {
        bool after_equals = blanks == Blanks::after_equals && pos > 0 && out[pos - 1] == '=';
        bool in_parentheses = pos > 0 && out[pos - 1] == '(' && pos + length < out.size() && out[pos + length] == ')';
        if (blanks == Blanks::always || after_equals) with = blank;
        // "({it.gfx})" of an unknown gfx is "(gfx not known)", not "((gfx not known))".
        else if (in_parentheses) from -= 1, length += 2, with = words;
        else with = words;
      }
      out.replace(from, length, with);
      pos = out.find(token, from + with.size());
    }
  }
  return out;
}

RenderedStep render_step(const FixStep& step, EvalContext& ctx, bool name_unknowns) {
  RenderedStep s;
  s.text = render(step.text, ctx, name_unknowns, nullptr, Blanks::after_equals);
  // A command with an unknown word must not run: "usermod -aG render ?"
  // is for a person to complete (fix treats it as manual).
  for (auto& a : step.argv) s.argv.push_back(render(a, ctx, name_unknowns, &s.incomplete, Blanks::always));
  s.sudo = step.sudo;
  return s;
}

// On the text alone no GPU list binds `it`: for a rule over the GPUs, the GPU
// the text names stands in ("the GPU at (address not known) (gfx803)", not
// "((gfx not known))").
// Only its identity, gfx and name: its address and other facts are in no
// text. Rules over anything else (packages, device nodes) get no stand-in.
Json gpu_from_text(const Rule& rule, EvalContext& ctx) {
  static const std::set<std::string> kGpuLists = {"gpus", "pci.gpus", "amdgpu.devices", "firmware.gpus", "power.gpus"};
  Json gpu = Json::object();
  if (ctx.item() || !kGpuLists.count(rule.for_each)) return gpu;
  for (auto [from, to] : {std::pair<const char*, const char*>{"text.gfx", "gfx"}, {"text.gpu_name", "name"}}) {
    Value v = evaluate_path(from, ctx);
    if (!v.is_unknown() && v.json().is_string()) gpu[to] = v.json();
  }
  return gpu;
}

// Whether a title would say why its item's condition is undecided rather
// than what the problem is: for a rule whose condition is undecided on this
// item (the caller's verdict), the condition reads a fact that is unknown,
// and the title reads a fact whose value is that unknown's reason. The probe
// records firmware.gpus[].atomics.reason beside routed_to_root for every
// outcome, so with the config space unreadable pcie-atomics-not-routed's
// title read "do not reach the CPU: config space ... is not readable (run
// as root)": a problem the facts did not show, followed by why they could
// not. Decided by the facts the title reads, not by its words: a title whose
// own wording happens to contain the reason keeps its facts.
bool title_reads_undecided_reason(const Rule& rule, EvalContext& ctx) {
  // An unknown fact's Value says "<path as written>: <its reason>".
  std::vector<std::pair<std::string, std::string>> unknowns;  // path, Value::why
  for (auto& path : referenced_paths(*rule.when)) {
    Value v = evaluate_path(path, ctx);
    if (v.is_unknown()) unknowns.emplace_back(path, v.why());
  }
  for (size_t i = 0; i < rule.title.placeholders.size(); ++i) {
    const ExprPtr& call = i < rule.title.calls.size() ? rule.title.calls[i] : nullptr;
    Value shown = call ? evaluate(*call, ctx) : evaluate_path(rule.title.placeholders[i], ctx);
    if (shown.is_unknown() || !shown.json().is_string()) continue;
    for (auto& [path, why] : unknowns)
      if (why == path + ": " + shown.json().get<std::string>()) return true;
  }
  return false;
}

// `judged` is the rule's condition on this item as the caller found it:
// run_rule makes a finding only where it is true. describe_rule has not
// judged it; it is judged here then, once, with the text's stand-in bound as
// the title sees it.
Finding make_finding(const Rule& rule, EvalContext& ctx, bool name_unknowns = false, const Value* judged = nullptr) {
  Finding f;
  f.rule = &rule;
  Json stand_in = name_unknowns ? gpu_from_text(rule, ctx) : Json::object();
  if (!stand_in.empty()) ctx.push_item(&stand_in);
  bool title_unknown = false;
  f.title = render(rule.title, ctx, name_unknowns, &title_unknown);
  // A title that reads an unknown fact, or the reason one its condition
  // reads is unknown, is the summary: what was looked for, not a value
  // nobody knows. (A fired item's condition is known: never so.)
  if (!title_unknown && rule.when && (judged ? *judged : evaluate(*rule.when, ctx)).is_unknown() &&
      title_reads_undecided_reason(rule, ctx))
    title_unknown = true;
  if (title_unknown && !rule.summary.empty()) f.title = rule.summary;
  f.why = render(rule.why, ctx, name_unknowns);
  for (auto& step : rule.fix.steps)
    if (!step.when || evaluate(*step.when, ctx).is_true()) f.steps.push_back(render_step(step, ctx, name_unknowns));
  for (auto& a : rule.fix.verify) f.verify.push_back(render(a, ctx, name_unknowns, nullptr, Blanks::always));
  if (!stand_in.empty()) ctx.pop_item();
  if (!rule.when) return f;
  for (auto& path : referenced_paths(*rule.when)) {
    Value v = evaluate_path(path, ctx);
    f.evidence[path] = v.is_unknown() ? unknown(v.why()) : v.json();
  }
  return f;
}

// Items with the same fix are one finding: a second device node the user
// cannot open adds a place to the first, not a second block with the same
// usermod (steps with no command, such as "reinstall the package", still
// compare by their text, so only truly identical advice merges). The first
// place's why and verify stand for all: they name the place ("/dev/kfd
// lets only ...", "test -w /dev/kfd"), and the one fix serves every place.
void add_finding(std::vector<Finding>& findings, Finding f) {
  for (auto& first : findings)
    if (first.steps == f.steps) {
      first.also.push_back({std::move(f.title), std::move(f.evidence)});
      return;
    }
  findings.push_back(std::move(f));
}

// The platforms scope is itself three-valued: an unknown platform leaves a
// scoped rule unchecked rather than guessed in or out.
Value in_scope(const Rule& rule, EvalContext& ctx) {
  if (rule.platforms.empty()) return Value::of(true);
  Value kind = evaluate_path("platform.kind", ctx);
  if (kind.is_unknown()) return kind;
  for (auto& p : rule.platforms)
    if (kind.json() == p) return Value::of(true);
  return Value::of(false);
}

}  // namespace

RuleOutcome run_rule(const Rule& rule, const Json& facts, const std::map<std::string, Function>& functions) {
  RuleOutcome out;
  out.rule = &rule;
  EvalContext ctx(facts, functions);
  Value scope = in_scope(rule, ctx);
  if (scope.is_unknown()) {
    out.verdict = Verdict::unknown;
    out.reason = "platform: " + scope.why();
    return out;
  }
  if (scope.is_false()) {
    out.verdict = Verdict::not_applicable;
    out.reason = "only on " + json_text(Json(rule.platforms));
    return out;
  }
  auto judge = [&](std::string& first_unknown) {
    Value v = evaluate(*rule.when, ctx);
    if (v.is_true()) add_finding(out.findings, make_finding(rule, ctx, false, &v));
    else if (!v.is_false() && first_unknown.empty())
      first_unknown = v.is_unknown() ? v.why() : "the condition gave " + json_text(v.json()) + ", not true or false";
  };
  std::string first_unknown;
  if (rule.for_each.empty()) {
    judge(first_unknown);
  } else {
    Value list = evaluate_path(rule.for_each, ctx);
    if (list.is_unknown()) first_unknown = list.why();
    else if (list.json().is_array())
      for (auto& item : list.json()) {
        ctx.push_item(&item);
        judge(first_unknown);
        ctx.pop_item();
      }
    else if (!list.json().is_null()) first_unknown = rule.for_each + " is not a list";
  }
  if (!out.findings.empty()) out.verdict = Verdict::fired;
  else if (!first_unknown.empty()) out.verdict = Verdict::unknown, out.reason = first_unknown;
  else out.verdict = Verdict::passed;
  return out;
}

Finding describe_rule(const Rule& rule, const Json& facts, const std::map<std::string, Function>& functions) {
  EvalContext ctx(facts, functions);
  // A for_each rule that did not fire speaks of the list's first item (the
  // first GPU, the first torch): "{it.gfx}" is this machine's, not "(gfx not known)".
  if (!rule.for_each.empty()) {
    Value list = evaluate_path(rule.for_each, ctx);
    if (!list.is_unknown() && list.json().is_array() && !list.json().empty()) {
      ctx.push_item(&list.json()[0]);
      Finding f = make_finding(rule, ctx, true);
      ctx.pop_item();
      return f;
    }
  }
  return make_finding(rule, ctx, true);
}

std::optional<RenderedStep> describe_first_step(const std::vector<FixStep>& steps, const Json& facts,
                                                const std::map<std::string, Function>& functions) {
  EvalContext ctx(facts, functions);
  for (auto& step : steps)
    if (!step.when || evaluate(*step.when, ctx).is_true()) return render_step(step, ctx, true);
  return std::nullopt;
}

std::vector<RuleOutcome> run_rules(const RuleSet& rules, const Json& facts,
                                   const std::map<std::string, Function>& functions) {
  std::vector<RuleOutcome> out;
  for (auto& p : rules.problems)
    if (p.checked()) out.push_back(run_rule(p.rule, facts, functions));
  return out;
}

std::string fact_value_in_brief(const Json& value) {
  std::string shown;
  if (value.is_array() && value.empty()) shown = "empty";
  else if (value.is_primitive()) shown = json_text(value);
  return shown.size() <= 60 ? shown : "";
}

// Why a text condition ruled a problem out: a when_in_text that is false,
// or a ruled_out_in_text that is true (`ruled_out_when`). Judged again on
// the text without the machine's facts (each unknown then): if it decides
// the same, the text alone ruled it out. Where it does not, the machine's
// facts it reads took part (the packages installed, the distribution, the
// registered OpenCL runtimes), and the reason names them, so a user sees
// what to look at rather than "the text". The values explain filled into
// the text from the machine (text.from_machine: the GPU's gfx where the
// paste names none) are the machine's, not the text's: left out of the
// text alone, and named as the machine's.
static std::string text_condition_reason(const Expr& condition, bool ruled_out_when, const Json& facts,
                                         const std::map<std::string, Function>& functions) {
  std::set<std::string> from_machine;
  Json text_only = Json::object();
  if (facts.is_object() && facts.contains("text")) {
    Json text = facts["text"];
    if (text.is_object() && text.contains(kTextFromMachine) && text[kTextFromMachine].is_array()) {
      for (auto& key : text[kTextFromMachine])
        if (key.is_string()) from_machine.insert(key.get<std::string>());
      // Erased after the loop: Json keeps an object's keys in order in a
      // vector, so erasing one moves the array being read.
      text.erase(kTextFromMachine);
      for (auto& key : from_machine) text.erase(key);
    }
    text_only["text"] = text;
  }
  EvalContext alone(text_only, functions);
  Value v = evaluate(condition, alone);
  if (ruled_out_when ? v.is_true() : v.is_false()) return "the text rules it out";
  // Each fact it reads with its short value (fact_value_in_brief), else by
  // its name.
  EvalContext ctx(facts, functions);
  std::string read;
  size_t n = 0;
  for (auto& path : referenced_paths(condition)) {
    bool machine_text = path.starts_with("text.") && from_machine.count(path.substr(5));
    if (!machine_text &&
        (path.starts_with("text.") || path.starts_with("it.") || path == "text" || path == "it"))
      continue;
    if (++n > 3) {
      read += ", ...";
      break;
    }
    Value v = evaluate_path(path, ctx);
    std::string value = v.is_unknown() ? "" : fact_value_in_brief(v.json());
    read += (read.empty() ? "" : ", ") + path + (machine_text ? " (this machine's)" : "") +
            (value.empty() ? "" : " is " + value);
  }
  if (read.empty())
    return ruled_out_when ? "its condition holds on these facts" : "its condition does not hold on these facts";
  return "the facts rule it out for what the text shows (" + read + ")";
}

RuleOutcome judge_problem(const Problem& problem, const Json& facts, const std::map<std::string, Function>& functions) {
  RuleOutcome out;
  out.rule = &problem.rule;
  out.verdict = Verdict::unknown;
  if (problem.ruled_out_in_text) {
    EvalContext ctx(facts, functions);
    if (evaluate(*problem.ruled_out_in_text, ctx).is_true()) {
      out.verdict = Verdict::passed;
      out.reason = text_condition_reason(*problem.ruled_out_in_text, true, facts, functions);
      out.ruled_out_by_text = true;
      return out;
    }
  }
  if (!problem.rule.when && !problem.when_in_text) {
    out.reason = "decided by the text alone";
    return out;
  }
  if (problem.rule.when) {
    out = run_rule(problem.rule, facts, functions);
    // A list the facts found empty refutes nothing about an item the text
    // shows exists: a torch printed "Torch not compiled with CUDA enabled"
    // although rocmdoc found none (a venv it did not search).
    if (out.verdict == Verdict::passed && problem.item_in_text) {
      EvalContext ctx(facts, functions);
      Value list = evaluate_path(problem.rule.for_each, ctx);
      if (!list.is_unknown() && (list.json().is_null() || (list.json().is_array() && list.json().empty())) &&
          evaluate(*problem.item_in_text, ctx).is_true()) {
        out.verdict = Verdict::unknown;
        out.reason = problem.rule.for_each + " is empty, but the text comes from one the facts do not list (rocmdoc did not find it)";
      }
    }
    if (out.verdict != Verdict::fired && out.verdict != Verdict::unknown) {
      // Ruled out by its facts: whether the text rules it out as well still
      // matters to a problem that gives way to another (explain's give_way),
      // and only there: the other problems skip the evaluation.
      if (problem.when_in_text && !problem.gives_way_to.empty()) {
        EvalContext ctx(facts, functions);
        out.ruled_out_by_text = evaluate(*problem.when_in_text, ctx).is_false();
      }
      return out;
    }
  }
  if (problem.when_in_text) {
    EvalContext ctx(facts, functions);
    Value v = evaluate(*problem.when_in_text, ctx);
    if (v.is_false()) {
      out.verdict = Verdict::passed;
      out.ruled_out_by_text = true;
      out.findings.clear();
      out.reason = text_condition_reason(*problem.when_in_text, false, facts, functions);
    } else if (!v.is_true() && out.verdict == Verdict::fired) {
      out.verdict = Verdict::unknown;
      out.reason = v.is_unknown() ? v.why() : "the condition gave " + json_text(v.json()) + ", not true or false";
    } else if (!problem.rule.when) {
      out.verdict = v.is_true() ? Verdict::fired : Verdict::unknown;
      if (!v.is_true()) out.reason = v.is_unknown() ? v.why() : "the condition gave " + json_text(v.json());
    }
  }
  return out;
}

bool likely_in_text(const Problem& problem, const Json& facts, const std::map<std::string, Function>& functions) {
  if (!problem.likely_in_text) return false;
  EvalContext ctx(facts, functions);
  return evaluate(*problem.likely_in_text, ctx).is_true();
}

SettingSeen needed_setting_seen(const Problem& problem, const Json& facts,
                                const std::map<std::string, Function>& functions) {
  if (problem.needs_set.empty()) return SettingSeen::not_needed;
  std::set<std::string> matched;
  if (facts.contains("text") && facts["text"].is_object() && facts["text"].contains("matched") &&
      facts["text"]["matched"].is_array())
    for (auto& id : facts["text"]["matched"])
      if (id.is_string()) matched.insert(id.get<std::string>());
  for (auto& sig : problem.signals)
    if (sig.weight >= 2 && matched.count(sig.signature)) return SettingSeen::shown;
  EvalContext ctx(facts, functions);
  bool all_known = true;
  for (auto& need : problem.needs_set) {
    for (auto& id : need.shown_by)
      if (matched.count(id)) return SettingSeen::shown;
    Value v = evaluate_path(need.fact, ctx);
    if (v.is_unknown()) {
      all_known = false;
      continue;
    }
    const Json& j = v.json();
    bool empty = j.is_null() || ((j.is_array() || j.is_object()) && j.empty());
    if (!empty) return SettingSeen::shown;
  }
  return all_known ? SettingSeen::not_set : SettingSeen::unseen;
}

namespace {

// An example's word for a verdict: a rule whose platforms leave the example
// out does not hold there, which its example says as "pass".
std::string example_word(Verdict v) { return v == Verdict::not_applicable ? "pass" : verdict_name(v); }

}  // namespace

std::vector<ExampleFailure> run_examples(const RuleSet& rules, const std::map<std::string, Function>& functions,
                                         ExamplesRun* examples_run) {
  std::vector<ExampleFailure> failures;
  ExamplesRun n;
  for (auto& problem : rules.problems)
    for (auto& ex : problem.rule.examples) {
      ++n.problem;
      // An example without a text is what check sees: the facts condition
      // alone. With one, it is explain's verdict.
      Json facts = ex.facts();
      RuleOutcome o = facts.contains("text") || !problem.checked() ? judge_problem(problem, facts, functions)
                                                                   : run_rule(problem.rule, facts, functions);
      std::string got = example_word(o.verdict);
      // explain's word for an open problem whose variable nothing shows set.
      if (got == "unknown" && facts.contains("text") &&
          needed_setting_seen(problem, facts, functions) == SettingSeen::unseen)
        got = "unseen";
      // explain's word for an open problem the text makes likelier.
      else if (got == "unknown" && facts.contains("text") && likely_in_text(problem, facts, functions))
        got = "likely";
      if (got != ex.expect) {
        failures.push_back({&problem.rule, &ex, got, o.reason});
      } else if (ex.fix_steps >= 0 && !o.findings.empty() &&
                 o.findings.front().steps.size() != static_cast<size_t>(ex.fix_steps)) {
        failures.push_back({&problem.rule, &ex, got,
                            "the fix shows " + std::to_string(o.findings.front().steps.size()) + " of its steps, fix_steps says " +
                                std::to_string(ex.fix_steps)});
      }
    }
  // A symptom's not_here is a condition on facts, as check's rules are.
  for (auto& symptom : rules.symptoms)
    for (auto& ex : symptom.not_here.examples) {
      ++n.not_here;
      RuleOutcome o = run_rule(symptom.not_here, ex.facts(), functions);
      if (std::string got = example_word(o.verdict); got != ex.expect)
        failures.push_back({&symptom.not_here, &ex, got, o.reason, true});
    }
  if (examples_run) *examples_run = n;
  return failures;
}

}  // namespace rocmdoc
