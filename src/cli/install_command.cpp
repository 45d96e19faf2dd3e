#include "cli/install_command.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "formats/gpg_key_listing.h"
#include "rules/knowledge.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "facts/facts_document.h"
#include "output/install_output.h"
#include "output/terminal_wrap.h"
#include "install/plan/planner.h"
#include "install/run/run.h"
#include "install/run/step_check.h"

namespace rocmdoc {

namespace {

// The home directory /etc/passwd gives the user, or "" when it cannot tell.
std::string home_of(Machine& machine, const std::string& user) {
  auto passwd = machine.fs->read_file("/etc/passwd");
  if (!passwd || user.empty()) return "";
  size_t start = 0;
  const std::string& text = *passwd;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    std::vector<std::string> fields;
    for (size_t at = 0;;) {
      size_t colon = line.find(':', at);
      fields.push_back(line.substr(at, colon == std::string::npos ? std::string::npos : colon - at));
      if (colon == std::string::npos) break;
      at = colon + 1;
    }
    if (fields.size() >= 6 && fields[0] == user && !fields[5].empty() && fields[5][0] == '/') return fields[5];
  }
  return "";
}

// Dry-run states: each step's checks on this machine, with the journal of
// this plan (a reboot already asked for, steps already recorded).
// A journal that cannot be read stops the real run (exit 2, "move it
// aside"), so the plan shown says so in its notes rather than looking like
// a fresh start.
void evaluate_states(InstallPlan& plan, Machine& machine) {
  ExecutorPaths paths;
  auto journal = read_journal(*machine.fs, paths.journal);
  if (!journal) plan.notes.push_back(journal.error() + " (the real run stops here with exit 2)");
  bool same_plan = journal && journal->plan_key == plan_key(plan);
  CheckInputs inputs;
  inputs.journal = same_plan ? &*journal : nullptr;
  inputs.user = plan.user;
  for (auto& step : plan.steps) {
    auto [state, reason] = evaluate_step(step, machine, inputs);
    step.state = state;
    step.state_reason = reason;
  }
}

// The problems marked `install_note` in the catalogue that hold on this
// machine (docs/rules.md): what the plan does not change and its GPU checks
// need, such as a container's device nodes under unmapped ids. check's own
// judgement on the same facts, so the two never disagree; put before the
// plan's other notes, as they decide whether the install can work at all.
std::vector<std::string> outside_notes(const Json& facts, const Knowledge& knowledge, const std::string& rocm) {
  std::vector<const Problem*> marked;
  for (auto& p : knowledge.catalogue.problems)
    if (p.install_note && p.checked()) marked.push_back(&p);
  if (marked.empty()) return {};
  std::optional<std::string> target;
  if (!rocm.empty()) target = rocm;
  CheckReport report = run_check(facts, knowledge, target);
  std::vector<std::string> notes;
  for (auto& o : report.outcomes) {
    if (o.verdict != Verdict::fired || o.findings.empty()) continue;
    bool is_marked = std::any_of(marked.begin(), marked.end(), [&](const Problem* p) { return &p->rule == o.rule; });
    if (!is_marked) continue;
    // One note per problem: the first place with its fix, and how many more
    // places (each node, each GPU) check names.
    const Finding& f = o.findings.front();
    size_t more = f.also.size();
    for (size_t i = 1; i < o.findings.size(); ++i) more += 1 + o.findings[i].also.size();
    std::string note = "Outside this plan (rocmdoc check: " + o.rule->id + "): " + f.title +
                       (more ? " (and " + std::to_string(more) + " more: rocmdoc check lists them)" : "") + ".";
    for (auto& step : f.steps) note += " " + step.text + (step.text.ends_with(".") ? "" : ".");
    notes.push_back(note);
  }
  return notes;
}

struct Planned {
  PlanResult result;
  std::unique_ptr<Machine> machine;  // null with --facts
  int error = 0;
};

Planned make_plan(const MachineOptions& machine_options, const InstallCommandOptions& o, std::ostream& err) {
  Planned p{InstallRefusal{}, nullptr, 0};
  // The catalogue too, for the problems a plan names (outside_notes); its
  // patterns are not compiled (install reads no text). A rules directory
  // made for install alone (matrix/ and install/) plans without them.
  RuleSources sources{o.rules_dir};
  std::error_code ec;
  sources.catalogue = o.rules_dir.empty() || std::filesystem::is_directory(o.rules_dir + "/catalogue", ec);
  Knowledge knowledge = load_knowledge(sources);
  std::vector<LoadError> errors = knowledge.errors;
  InstallRecipes recipes = load_install_recipes_from(o.rules_dir, errors);
  // Without recipes every distribution is unsupported, and the refusal
  // would list none ("rocmdoc installs ROCm on ; ..."): say what is missing.
  if (errors.empty() && !o.rules_dir.empty() && recipes.distros.empty())
    errors.push_back({{o.rules_dir, 0, 0},
                      "no install recipes: a rules directory for install holds install/*.yaml beside matrix/ (copy "
                      "rules/install; docs/rules.md)"});
  if (!errors.empty()) {
    print_load_errors(errors, err);
    p.error = kExitUsage;
    return p;
  }
  PlanInput input;
  auto loaded = machine_facts(machine_options, o.facts_file);
  if (!loaded) {
    err << "rocmdoc: " << loaded.error() << "\n";
    p.error = kExitUsage;
    return p;
  }
  input.facts = std::move(loaded.value().facts);
  // A plan only shown as text (nothing runs it) is made from the facts as
  // they may be printed: no escape sequence of a facts file or a recorded
  // tree reaches the terminal. A real run plans on the bytes.
  if (o.dry_run && !o.json) input.facts = printable_strings(input.facts);
  p.machine = std::move(loaded.value().machine);
  input.recipes = &recipes;
  input.matrix = knowledge.matrix.get();
  input.options.rocm = o.rocm;
  input.options.driver = !o.no_driver;
  input.options.torch = !o.no_torch;
  input.options.listed_kernel = !o.keep_kernel;
  input.options.venv = o.venv;
  input.options.user = o.user;
  input.options.trusted_key = normalize_fingerprint(o.trust_key);
  input.options.from = o.from;
  if (p.machine) {
    std::string user = o.user;
    if (user.empty()) {
      const Json& u = field(field(input.facts, "access"), "user");
      user = field(u, "target").is_string() ? field(u, "target").get<std::string>() : "";
    }
    input.user_home = home_of(*p.machine, user);
  }
  Json facts = input.facts;
  p.result = build_install_plan(std::move(input));
  if (auto* plan = std::get_if<InstallPlan>(&p.result)) {
    auto outside = outside_notes(facts, knowledge, o.rocm);
    plan->notes.insert(plan->notes.begin(), outside.begin(), outside.end());
  }
  return p;
}

int show(const PlanResult& result, const InstallCommandOptions& o, std::ostream& out) {
  if (auto* refusal = std::get_if<InstallRefusal>(&result)) {
    out << (o.json ? facts_to_string(render_refusal_json(*refusal)) + "\n" : wrap_to_width(render_refusal_text(*refusal), o.width));
    return kExitProblems;
  }
  const InstallPlan& plan = std::get<InstallPlan>(result);
  out << (o.json ? facts_to_string(render_plan_json(plan)) + "\n" : wrap_to_width(render_plan_text(plan, {o.color, true}), o.width));
  return kExitOk;
}

}  // namespace

int run_install_command(const MachineOptions& machine_options, const InstallCommandOptions& o, std::istream& in,
                        std::ostream& out, std::ostream& err) {
  bool elsewhere = !o.facts_file.empty() || machine_options.root != "/";
  if (elsewhere && !o.dry_run) {
    err << "rocmdoc install: --facts and --root plan another machine: add --dry-run\n";
    return kExitUsage;
  }
  if (!o.facts_file.empty() && machine_options.root != "/") {
    err << "rocmdoc install: --facts and --root exclude each other\n";
    return kExitUsage;
  }
  if (!o.trust_key.empty() && !is_fingerprint(normalize_fingerprint(o.trust_key))) {
    err << "rocmdoc install: --trust-key '" << o.trust_key
        << "' is not a key fingerprint (40 hex digits, as `gpg --show-keys` prints it)\n";
    return kExitUsage;
  }
  Planned p = make_plan(machine_options, o, err);
  if (p.error) return p.error;
  auto* plan = std::get_if<InstallPlan>(&p.result);
  if (plan && p.machine) evaluate_states(*plan, *p.machine);
  if (!plan || o.dry_run || o.json) return show(p.result, o, out);

  // A real run: the plan of this machine, carried out step by step.
  ExecutorPaths paths;
  auto journal = read_journal(*p.machine->fs, paths.journal);
  bool resumable = journal && journal->plan_key == plan_key(*plan) && !journal->done.empty();
  if (!o.auto_install && !o.resume && !resumable) {
    show(p.result, o, out);
    out << "Nothing changed: add --auto to carry out this plan.\n";
    return kExitOk;
  }
  // Before the journal, root or consent matter: nothing of a blocked plan runs.
  if (plan->blocked) {
    out << wrap_to_width(render_refusal_text(*plan->blocked), o.width);
    return kExitProblems;
  }
  if (o.resume && !resumable) {
    err << "rocmdoc install --resume: no journal of this plan in " << paths.journal
        << " (start it with `rocmdoc install --auto`)\n";
    return kExitUsage;
  }
  if (::geteuid() != 0) {
    err << "rocmdoc install: installing needs root: run `sudo rocmdoc install --auto` (the target user comes from "
           "SUDO_USER)\n";
    return kExitUsage;
  }
  out << wrap_to_width(render_plan_text(*plan, {o.color, false}), o.width) << "\n";
  auto consent = choose_consent(o.yes, o.stdin_is_terminal, in, out);
  LiveSystemChanger changer;
  ProgressStyle progress;
  progress.live = o.stdout_is_terminal;
  progress.width = o.width ? o.width : 80;
  RunReport report = run_plan(*plan, *p.machine, changer, *consent, paths, out, progress);
  print_run_report(report, out);
  return exit_code_for(report);
}

}  // namespace rocmdoc
