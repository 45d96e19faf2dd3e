// A problem: one thing that can be wrong on a machine, defined once in the
// catalogue (rules/catalogue/*.yaml, docs/rules.md). `check` reports it when
// its facts condition holds; `explain` finds it through the signatures that
// point to it, or a symptom that lists it, and judges it by the same
// condition; `fix` runs its fix.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/rule.h"

namespace rocmdoc {

struct Signal {
  std::string signature;  // a signature id
  int weight = 1;         // 3 names this problem alone, 2 strong but shared, 1 routing
  SourceLocation where;
};

// A variable the problem needs the user to have set: a device mask, a
// library path. Nobody has them by default, so a problem that needs
// one is less likely than one that needs nothing, until the text or the
// facts show it set (explain's ranking, docs/explain.md).
struct NeededSetting {
  std::string variable;               // as the environment names it: HIP_VISIBLE_DEVICES
  std::string fact;                   // where the facts record it: env.<variable>, or the fact given
  std::vector<std::string> shown_by;  // the signatures whose line shows it set (`shows_set`), filled at load
  SourceLocation where;
};

struct Problem {
  // id, area (check's section), severity, platforms, for_each, title, why,
  // fix, sources, examples. rule.when is the facts condition check fires on;
  // null for a problem only a text can show (a crash, an application's
  // message).
  Rule rule;
  std::vector<std::string> aliases;  // former ids, which `fix` and `explain` accept
  std::string layer;                 // triage layer (cause_areas()), for explain's ranking
  bool benign = false;               // harmless noise: never ranked above a real problem
  std::vector<Signal> signals;
  // Explain only: what else must hold once a text points here, read with the
  // text's own facts (text.matched, text.gfx ...): "rocminfo's output shows
  // the driver working" rules amdgpu-not-loaded out whatever the machine.
  ExprPtr when_in_text;
  // Explain only: what in a text rules this problem out, and nothing more.
  // Unlike when_in_text it never confirms: a problem whose only evidence is
  // a weak sign (a crash frame inside a ROCm library, an application's
  // "no GPU found" after its update) stays undecided unless the facts
  // decide it, and a text that shows another explanation (rocminfo failing
  // too, a memory fault) refutes it.
  ExprPtr ruled_out_in_text;
  // Explain only: what in a text makes this problem likelier than its place
  // in a symptom's list says, without showing that it happened: a GPU that
  // needs PCIe atomics beside "rocminfo shows no GPU", a container's command
  // line beside "No HIP GPUs". It never confirms or refutes; an open problem
  // for which it holds ranks one text-score step higher (`likely_in_text`).
  ExprPtr likely_in_text;
  // Explain only, with for_each: what in a text shows that an item of the
  // list exists whatever the facts found (a message only a torch prints
  // shows a torch). Where it holds and the facts list no item, an empty list
  // refutes nothing: rocmdoc did not find the item the text came from, and
  // the problem stays undecided (`item_in_text`).
  ExprPtr item_in_text;
  // What to check by hand when the facts are unknown: one step, or several
  // with `when` for the machine's kind (dpkg -S on Debian, rpm -qf on
  // Fedora); the first whose `when` holds, or that has none, is shown.
  std::vector<FixStep> confirm;
  // Explain only: it exists only when one of these is set (`needs_set`).
  std::vector<NeededSetting> needs_set;
  // Explain only: problems this one brings about (`leads_to`): no ROCm wheel
  // for this Python, so pip fell back to PyPI's CUDA torch. When a text shows
  // both, the root comes first. Ids of other problems.
  std::vector<std::string> leads_to;
  SourceLocation leads_to_where;
  // Explain only: the more specific problems whose facts this one's `when`
  // leaves to them (`gives_way_to`): amdgpu-not-loaded where amdgpu is
  // blacklisted. Where the facts confirm one, the text's message is that
  // problem's case, not a sign the text came from another boot. Ids of
  // other problems.
  std::vector<std::string> gives_way_to;
  SourceLocation gives_way_to_where;
  // Install only: a plan names this problem where it holds (`install_note`).
  // It is outside what the plan changes (a container's device mapping, the
  // host's GPU), and the plan's own checks of the GPU fail until it is
  // fixed, so the plan says so before it runs rather than at its last step.
  bool install_note = false;

  bool checked() const { return rule.when != nullptr; }  // does check run it
  bool has_id(const std::string& id) const;
};

// What users see (PyTorch sees no GPU, no code for this GPU ...): the
// signatures that show it and the problems that produce it, most common
// first. Explaining a symptom ranks its problems by the machine's facts.
struct Symptom {
  std::string id;
  std::string title;
  std::vector<Signal> signals;
  std::vector<std::string> problems;  // problem ids (or aliases), checked at load
  // Where the machine's facts show that what the user saw does not hold here
  // now (amdgpu is loaded on this boot; the user's torch sees the GPU under
  // check --deep): a condition on facts and the sentence that says so, with
  // its examples, as a check rule has them. Unset (no `when`) for most
  // symptoms. Said beside the symptom, never a verdict on its problems: the
  // text may come from an earlier boot, another user or another machine.
  Rule not_here;
  SourceLocation where;
};

// The triage layers in order: a problem lower in the stack explains the
// errors above it, so earlier layers win ties.
const std::vector<std::string>& cause_areas();
int cause_area_rank(const std::string& area);

}  // namespace rocmdoc
