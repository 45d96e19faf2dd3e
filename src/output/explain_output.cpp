#include "output/explain_output.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/text.h"

namespace rocmdoc {

namespace {

std::string paint(bool color, const char* code, const std::string& s) {
  return color ? fmt::format("\033[{}m{}\033[0m", code, s) : s;
}

// As check marks its lines: ✗ an error, ! a warning, ? one the machine's
// facts could not decide. Without a machine (--no-probe) nothing is decided
// by facts, so the mark is the problem's severity there.
const char* mark(const ExplainedCause& c, const ExplainTextOptions& o) {
  if (c.cause->benign) return "•";
  if (c.verdict == CauseVerdict::undecided && !o.facts_from.empty()) return "?";
  return c.cause->rule.severity == Severity::error ? "✗" : "!";
}

std::string confidence_words(const ExplainedCause& c, const std::string& facts_from) {
  if (!c.shared_words.empty()) {  // a resemblance: no message of it matched
    std::string guess = c.confidence + " confidence: a guess from the words the text shares with it";
    return c.verdict == CauseVerdict::confirmed ? guess + "; the facts of " + facts_from + " show the problem" : guess;
  }
  // With --no-probe there are no machine facts: what decided is the values
  // the text itself captured, judged against the matrix.
  std::string judge = facts_from.empty() ? "what the text shows, with rocmdoc's matrix," : "the facts of " + facts_from;
  switch (c.verdict) {
    case CauseVerdict::confirmed: return "high confidence: " + judge + " confirm it";
    case CauseVerdict::refuted: return "low confidence: " + judge + " speak against it";
    case CauseVerdict::undecided: break;
  }
  std::string how = c.confidence + " confidence: from the text";
  if (c.reason != "decided by the text alone" && !facts_from.empty()) how += "; not checked: " + c.reason;
  return how;
}

std::string evidence_line(const EvidenceLine& l) {
  std::string where = l.source.empty() ? fmt::format("line {}", l.line) : fmt::format("{}:{}", l.source, l.line);
  return fmt::format("{}: {}", printable(where), printable(l.text));
}

std::string full_cause(const ExplainedCause& c, const ExplainTextOptions& o) {
  const Rule& r = c.cause->rule;
  std::string out;
  std::string title = c.cause->benign ? "harmless: " + c.finding.title : c.finding.title;
  out += fmt::format("{} {} {}\n", mark(c, o), paint(o.color, "1", r.id + ":"), title);
  out += paint(o.color, "2", fmt::format("    ({})\n", confidence_words(c, o.facts_from)));
  if (!c.shared_words.empty()) {
    out += fmt::format("    shared words: {}\n", fmt::join(c.shared_words, ", "));
  } else {
    out += fmt::format("    evidence ({} matching line{}):\n", c.matches, c.matches == 1 ? "" : "s");
    for (auto& l : c.evidence) out += fmt::format("      {}\n", evidence_line(l));
  }
  if (!c.confirmed_by.empty()) out += fmt::format("    on this machine: {}\n", printable(c.confirmed_by));
  out += fmt::format("    why: {}\n", c.finding.why);
  if (c.verdict == CauseVerdict::undecided && c.confirm) {
    out += fmt::format("    to confirm: {}\n", c.confirm->text);
    if (!c.confirm->argv.empty()) out += fmt::format("           $ {}\n", shell_words(c.confirm->argv, c.confirm->sudo));
  }
  for (auto& step : c.finding.steps) {
    out += fmt::format("    fix: {}\n", step.text);
    if (!step.argv.empty()) out += fmt::format("         $ {}\n", shell_words(step.argv, step.sudo));
  }
  std::vector<std::string> needs;
  if (r.fix.relogin) needs.push_back("log out and in again");
  if (r.fix.reboot) needs.push_back("reboot");
  if (!needs.empty()) out += fmt::format("    then: {}\n", fmt::join(needs, ", then "));
  if (!c.finding.verify.empty()) out += fmt::format("    check: $ {}\n", shell_words(c.finding.verify, false));
  if (o.verbose) out += paint(o.color, "2", fmt::format("    rule: {}\n", r.where.str()));
  return out;
}

// check's problems on this machine, as the next place to look.
std::string on_this_machine(const Explanation& e) {
  std::string out;
  for (auto& p : e.machine_problems)
    out += fmt::format("  {} {}: {}\n", p.severity == "error" ? "✗" : "!", p.id, printable(p.title));
  return out + "  `rocmdoc check` shows the evidence and the fix of each.\n";
}

// The problems the text's words resemble, when no message matched: a guess,
// said to be one, with the words it rests on.
std::string resemblances(const Explanation& e, const ExplainTextOptions& o) {
  if (e.resembles.empty()) return "";
  std::string out = "  In other words than a known message, it may be about (a guess from shared words):\n";
  for (auto& c : e.resembles) {
    if (o.verbose) {
      out += full_cause(c, o);
      continue;
    }
    out += fmt::format("  {} {}: {} ({} confidence; shares: {}{})\n", mark(c, o), c.cause->rule.id, c.finding.title,
                       c.confidence, fmt::join(c.shared_words.begin(),
                                               c.shared_words.begin() + std::min<std::ptrdiff_t>(3, std::ssize(c.shared_words)), ", "),
                       c.verdict == CauseVerdict::confirmed ? "; this machine has it" : "");
  }
  if (!o.verbose) out += "  `rocmdoc explain -v` shows why and the fix of each.\n";
  return out;
}

std::string nothing_recognised(const Explanation& e, const ExplainTextOptions& o) {
  std::string out = fmt::format("? Nothing in this text ({} line{}) matches a known ROCm failure", e.lines,
                                e.lines == 1 ? "" : "s");
  // What the machine has comes before a guess from the text's words.
  if (!e.machine_problems.empty()) return out + "; on this machine, check finds:\n" + on_this_machine(e) + resemblances(e, o);
  out += ".\n" + resemblances(e, o);
  if (!e.origins.empty()) {
    for (auto* o : e.origins) out += fmt::format("  It looks like output of {}: report it at {}\n", o->name, o->tracker);
  } else {
    out += "  Report it where the program that printed it is developed; for ROCm itself: "
           "https://github.com/ROCm/ROCm/issues\n";
  }
  out += "  Attach the text and this machine's facts: rocmdoc snapshot rocmdoc-snapshot.tar.gz "
         "(user and host names are redacted).\n";
  return out;
}

}  // namespace

std::string render_explain_text(const Explanation& e, const ExplainTextOptions& o) {
  if (!e.recognised()) return nothing_recognised(e, o);
  std::string out;
  for (auto* s : e.symptoms) {
    out += paint(o.color, "2", "The text shows: " + s->title + "\n");
    for (auto& [symptom, says] : e.not_here)
      if (symptom == s)
        out += "  but on " + (o.facts_from.empty() ? std::string("the facts") : o.facts_from) + " now: " + printable(says) + "\n";
  }
  if (!e.symptoms.empty()) out += "\n";
  size_t refuted = e.ruled_out(), open = e.causes.size() - refuted, shown = open > 0 ? 1 : 0;
  // The text's own causes all ruled out: say so first, and list what the
  // symptom leaves open as candidates, none of them headlined as the cause.
  bool own_out = e.own_causes_ruled_out();
  if (own_out) {
    out += fmt::format("{} What the text itself points to does not hold on {}:\n", paint(o.color, "1", "!"),
                       o.facts_from.empty() ? "these facts" : o.facts_from);
    for (auto& c : e.causes) {
      if (c.symptom) continue;
      out += fmt::format("  - {}: {} (ruled out: {})\n", c.cause->rule.id, c.finding.title, c.ruled_out);
      for (auto& l : c.evidence) out += fmt::format("      {}\n", evidence_line(l));  // what the text said
    }
    out += "  The text may come from another boot, an earlier state or another machine.\n";
    shown = 0;
  } else if (open > 0) {
    out += full_cause(e.causes.front(), o);
  }
  // Candidates the facts leave open, then the ones they rule out: a refuted
  // cause is never offered as a candidate.
  if (own_out)
    out += fmt::format("\nOther known causes of {}, which the facts leave open (nothing in the text names them):\n",
                       e.symptoms.empty() ? "these errors" : "\"" + e.symptoms.front()->title + "\"");
  else if (open > 1)
    out += "\nOther candidates:\n";
  for (size_t i = own_out ? 0 : 1; i < open; ++i) {
    if (!o.verbose && shown > o.others) break;
    auto& c = e.causes[i];
    if (o.verbose) out += full_cause(c, o);
    else if (!c.unseen_settings.empty() && c.confirm)
      // The one command that decides it, on its line: most users never set it.
      out += fmt::format("  {} {}: {} ({} confidence; only if {} is set: $ {})\n", mark(c, o), c.cause->rule.id,
                         c.finding.title, c.confidence, fmt::join(c.unseen_settings, " or "),
                         shell_words(c.confirm->argv, false));
    else
      out += fmt::format("  {} {}: {}{} ({} confidence)\n", mark(c, o), c.cause->rule.id,
                         c.cause->benign ? "harmless: " : "", c.finding.title, c.confidence);
    ++shown;
  }
  size_t first_refuted = open;
  // The refuted causes this section lists: all but the text's own when
  // they were said above.
  auto listed_here = [&](const ExplainedCause& d) { return !own_out || d.symptom; };
  auto listed_from = [&](size_t i) {
    return static_cast<size_t>(std::count_if(e.causes.begin() + static_cast<std::ptrdiff_t>(i), e.causes.end(), listed_here));
  };
  if (listed_from(first_refuted) > 0) {
    out += fmt::format("{}Ruled out on {}:\n", open > 0 ? "\n" : "", o.facts_from.empty() ? "the facts" : o.facts_from);
    size_t listed = 0;
    for (size_t i = first_refuted; i < e.causes.size(); ++i) {
      auto& c = e.causes[i];
      if (!listed_here(c)) continue;
      if (!o.verbose && listed == o.others) {
        out += fmt::format("  … and {} more\n", listed_from(i));
        break;
      }
      out += fmt::format("  - {}: {}\n", c.cause->rule.id, c.ruled_out);
      ++listed;
    }
  }
  if (own_out && !e.machine_problems.empty()) out += "\nOn this machine, check finds:\n" + on_this_machine(e);
  if (!e.real_problem() && e.causes.front().cause->benign)
    out += "\nNothing here is a real error; if something failed, its error is not in this text.\n";
  else if (!e.real_problem() && !e.not_here.empty())
    // What the user saw is not what the machine shows now: the likeliest
    // reason is that the text is not from this boot (or user, or machine).
    out += fmt::format("\nThe facts rule out every known cause of these errors, and on {} now {}: the text "
                       "may come from an earlier boot, another user or another machine.\n{}",
                       o.facts_from.empty() ? "the facts" : o.facts_from, printable(e.not_here.front().second),
                       e.machine_problems.empty() ? "" : "On this machine, check finds:\n" + on_this_machine(e));
  else if (!e.real_problem() && !e.machine_problems.empty())
    out += "\nThe facts rule out every known cause of these errors; on this machine, check finds:\n" + on_this_machine(e);
  else if (!e.real_problem())
    out += "\nThe facts rule out every known cause of these errors; report it with `rocmdoc snapshot`.\n";
  out += fmt::format("\nShowing {} of {} cause{}{} ({} line{} read{}).", shown, open, open == 1 ? "" : "s",
                     refuted ? fmt::format(", {} ruled out", refuted) : "", e.lines, e.lines == 1 ? "" : "s",
                     o.facts_from.empty() ? ", no machine facts" : ", facts of " + o.facts_from);
  if (!o.verbose && shown < open) out += " `rocmdoc explain -v` shows all.";
  out += "\n";
  return out;
}

namespace {

// One cause (or resemblance) as JSON; the facts it read go into `used`.
Json cause_json(const ExplainedCause& c, Json& used) {
  const Rule& r = c.cause->rule;
  Json evidence = Json::array();
  for (auto& l : c.evidence) {
    Json line = {{"line", l.line}, {"text", l.text}};
    if (!l.source.empty()) line["source"] = l.source;
    evidence.push_back(line);
  }
  Json steps = Json::array();
  for (auto& s : c.finding.steps) steps.push_back({{"text", s.text}, {"argv", s.argv}, {"sudo", s.sudo}});
  Json cause = {{"id", r.id},
                {"title", c.finding.title},
                {"confidence", c.confidence},
                {"verdict", cause_verdict_name(c.verdict)},
                {"severity", c.cause->benign ? "benign" : severity_name(r.severity)},
                {"area", c.cause->layer},
                {"evidence", evidence},
                {"matches", c.matches},
                {"why", c.finding.why},
                {"fix", {{"steps", steps}, {"reboot", r.fix.reboot}, {"relogin", r.fix.relogin},
                         {"verify", c.finding.verify}}},
                {"facts", c.finding.evidence},
                {"sources", r.sources},
                {"rule_file", r.where.str()}};
  if (c.verdict == CauseVerdict::undecided) cause["reason"] = c.reason;
  if (c.verdict == CauseVerdict::refuted) cause["ruled_out"] = c.ruled_out;
  if (c.verdict == CauseVerdict::confirmed && !c.confirmed_by.empty()) cause["confirmed_by"] = c.confirmed_by;
  if (!c.unseen_settings.empty()) cause["not_shown_set"] = c.unseen_settings;
  if (c.likely) cause["likely_in_text"] = true;
  if (c.symptom) cause["symptom"] = c.symptom->id;
  if (!c.cause->aliases.empty()) cause["aliases"] = c.cause->aliases;
  if (c.confirm) cause["confirm"] = {{"text", c.confirm->text}, {"argv", c.confirm->argv}, {"sudo", c.confirm->sudo}};
  if (!c.shared_words.empty()) {
    cause["resemblance"] = std::round(c.resemblance * 1000) / 1000;
    cause["shared_words"] = c.shared_words;
  }
  for (auto& [path, value] : c.finding.evidence.items()) used[path] = value;
  return cause;
}

}  // namespace

Json render_explain_json(const Explanation& e, const std::string& facts_from) {
  Json causes = Json::array(), resembles = Json::array();
  Json used = Json::object();
  for (auto& c : e.causes) causes.push_back(cause_json(c, used));
  for (auto& c : e.resembles) resembles.push_back(cause_json(c, used));
  Json origins = Json::array();
  for (auto* o : e.origins) origins.push_back({{"id", o->id}, {"name", o->name}, {"tracker", o->tracker}});
  Json problems = Json::array();
  for (auto& p : e.machine_problems)
    problems.push_back({{"id", p.id}, {"severity", p.severity}, {"area", p.area}, {"title", p.title}});
  Json symptoms = Json::array();
  for (auto* s : e.symptoms) {
    Json symptom = {{"id", s->id}, {"title", s->title}};
    for (auto& [which, says] : e.not_here)
      if (which == s) symptom["not_here"] = says;
    symptoms.push_back(symptom);
  }
  return {{"schema", kExplainJsonSchema},
          {"symptoms", symptoms},
          {"recognised", e.recognised()},
          {"real_problem", e.real_problem()},
          {"own_causes_ruled_out", e.own_causes_ruled_out()},
          {"causes", causes},
          {"resembles", resembles},
          {"origins", origins},
          {"input", {{"lines", e.lines}, {"bytes", e.bytes}}},
          {"facts_from", facts_from.empty() ? Json(nullptr) : Json(facts_from)},
          {"text", field(e.facts, "text")},
          {"facts_used", used},
          {"machine_problems", problems}};
}

}  // namespace rocmdoc
