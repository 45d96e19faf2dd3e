// rocmdoc fix [ID] [--dry-run] [--yes]: lists the fixes of what `check`
// finds here, or applies one through the install executor.
#include "cli/fix_command.h"

#include <unistd.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "facts/facts_document.h"
#include "output/terminal_wrap.h"
#include "rules/rule_engine.h"
#include "install/run/step_check.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

std::string command_line(const RenderedStep& step) { return shell_words(step.argv, step.sudo); }

struct Loaded {
  Json facts;
  std::unique_ptr<Machine> owned;
  Machine* machine = nullptr;
};

void print_list(const std::vector<FixCandidate>& fixes, std::ostream& out) {
  if (fixes.empty()) {
    out << "Nothing to fix: check finds no problem with a fix on this machine.\n";
    return;
  }
  for (auto& fix : fixes) {
    out << (fix.automatic ? "automatic   " : "print-only  ") << fix.id << "  " << fix.title << "\n";
    for (auto& step : fix.steps)
      out << "              " << (step.argv.empty() ? step.text : "$ " + command_line(step)) << "\n";
  }
  out << "Apply one with: sudo rocmdoc fix ID   (--dry-run first shows what would change)\n";
}

void print_manual(const FixCandidate& fix, std::ostream& out) {
  out << fix.id << ": this fix needs a person; do these steps:\n";
  for (auto& step : fix.steps) {
    out << "  - " << step.text << "\n";
    if (!step.argv.empty()) out << "      $ " << command_line(step) << "\n";
  }
}

// An explain cause's fix, when it can run without the error text that
// explain judged it on. Returns an exit code when it cannot (printed why).
std::optional<int> fix_for_cause(const Problem& cause, const Json& facts, const std::map<std::string, Function>& functions,
                                 FixCandidate& fix, std::ostream& out) {
  auto result = fix_from_cause(cause, facts, functions);
  if (auto* candidate = std::get_if<FixCandidate>(&result)) {
    fix = std::move(*candidate);
    return std::nullopt;
  }
  const std::string& id = cause.rule.id;
  switch (std::get<CauseFixRefusal>(result)) {
    case CauseFixRefusal::needs_person:
    case CauseFixRefusal::needs_text:
      out << id << " is a cause `rocmdoc explain` names from an error's text, and its fix "
          << (std::get<CauseFixRefusal>(result) == CauseFixRefusal::needs_person ? "needs a person" : "depends on that text")
          << ": run `rocmdoc explain` on the error and follow the steps it prints.\n";
      break;
    case CauseFixRefusal::ruled_out:
      out << id << " does not apply to this machine: its facts rule this cause out. Nothing to fix.\n";
      break;
  }
  return kExitProblems;
}

void print_dry_run(const InstallPlan& plan, Machine& machine, const Journal& journal, std::ostream& out) {
  CheckInputs inputs;
  inputs.journal = &journal;
  inputs.user = plan.user;
  out << "Dry run of " << plan.distro << " (nothing is changed):\n";
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    auto& step = plan.steps[i];
    auto [state, why] = evaluate_step(step, machine, inputs);
    out << "[" << i + 1 << "/" << plan.steps.size() << "] " << step.title << "\n"
        << "    state: " << step_state_name(state) << " (" << why << ")\n"
        << (step.needs_root ? "    as root, would:\n"
                            : "    as " + (plan.user.empty() ? std::string("the user running rocmdoc") : plan.user) + ", would:\n") << describe_changes(step);
  }
}

std::string target_user(const Json& facts) {
  const Json& target = field(field(field(facts, "access"), "user"), "target");
  return target.is_string() ? target.get<std::string>() : "";
}

int apply(const FixCandidate& fix, Loaded& loaded, const FixOptions& options, std::istream& in, std::ostream& out,
          std::ostream& err) {
  InstallPlan plan = plan_for_fix(fix, target_user(loaded.facts));
  ExecutorPaths paths;
  paths.journal = path_join(options.state_dir, "fix-" + fix.id + ".json");
  paths.log_dir = options.log_dir;
  paths.log_prefix = "fix-" + fix.id;
  if (options.dry_run) {
    auto journal = read_journal(*loaded.machine->fs, paths.journal);
    std::ostringstream text;
    print_dry_run(plan, *loaded.machine, journal ? *journal : Journal{}, text);
    out << wrap_to_width(text.str(), options.width);
    return kExitOk;
  }
  bool needs_root = std::any_of(plan.steps.begin(), plan.steps.end(), [](const PlanStep& s) { return s.needs_root; });
  if (needs_root && !options.hooks.changer && ::geteuid() != 0) {
    err << "rocmdoc fix " << fix.id << ": it changes the system as root; run: sudo rocmdoc fix " << fix.id << "\n";
    return kExitUsage;
  }
  LiveSystemChanger live(paths.boot_id);
  SystemChanger& changer = options.hooks.changer ? *options.hooks.changer : live;
  auto chosen = choose_consent(options.yes, options.stdin_is_terminal, in, err);
  Consent& consent = options.hooks.consent ? *options.hooks.consent : *chosen;
  ProgressStyle progress;
  progress.live = options.stdout_is_terminal;
  progress.width = options.width ? options.width : 80;
  RunReport report = run_plan(plan, *loaded.machine, changer, consent, paths, out, progress);
  print_run_report(report, report.input_error ? err : out);
  bool no_terminal = !options.hooks.consent && dynamic_cast<NoTerminalConsent*>(chosen.get());
  if (report.outcome == RunOutcome::declined && no_terminal) out << kNoTerminalMessage << "\n";
  if (report.outcome == RunOutcome::finished) {
    if (fix.relogin) out << "It takes effect at the next login (a new SSH login or desktop session).\n";
    if (fix.reboot) out << "It takes effect after a reboot.\n";
  }
  return exit_code_for(report);
}

std::optional<int> load(const MachineOptions& machine_options, const FixOptions& options, Loaded& loaded,
                        std::ostream& err) {
  if (options.hooks.machine) {
    loaded.machine = options.hooks.machine;
  } else {
    auto machine = open_machine(machine_options);
    if (!machine) {
      err << "rocmdoc: " << machine.error() << "\n";
      return kExitUsage;
    }
    loaded.owned = std::move(machine.value());
    loaded.machine = loaded.owned.get();
  }
  if (!options.facts_file.empty()) {
    auto facts = load_facts_file(options.facts_file);
    if (!facts) {
      err << "rocmdoc: " << facts.error() << "\n";
      return kExitUsage;
    }
    loaded.facts = *facts;
  } else {
    loaded.facts = collect_facts(*loaded.machine, machine_options.probe);
  }
  return std::nullopt;
}

}  // namespace

int run_fix_command(const MachineOptions& machine_options, const FixOptions& options, std::istream& in,
                    std::ostream& out, std::ostream& err) {
  bool elsewhere = machine_options.root != "/" || !options.facts_file.empty();
  if (elsewhere && !options.dry_run && !options.id.empty()) {
    err << "rocmdoc fix: --root and --facts describe another machine; use them with --dry-run only\n";
    return kExitUsage;
  }
  // Not moved after loading: the matrix's functions point into it.
  Knowledge knowledge = load_knowledge({options.rules_dir});
  if (!knowledge.errors.empty()) {
    print_load_errors(knowledge.errors, err);
    return kExitUsage;
  }
  Loaded loaded;
  if (auto code = load(machine_options, options, loaded, err)) return *code;
  // Listed or only shown, the fixes are text for the terminal: no escape
  // sequence of a facts file or a recorded tree reaches it. A real run
  // works on the bytes.
  if (options.dry_run || options.id.empty()) loaded.facts = printable_strings(loaded.facts);
  CheckReport report = run_check(loaded.facts, knowledge, std::nullopt);
  loaded.facts = report.facts;  // with the derived sections the rules read
  auto fixes = fixes_from_report(report);
  if (options.id.empty()) {
    std::ostringstream text;
    print_list(fixes, text);
    out << wrap_to_width(text.str(), options.width);
    return kExitOk;
  }
  // An alias (a former id) names the same problem.
  const Problem* problem = knowledge.catalogue.find(options.id);
  const std::string& id = problem ? problem->rule.id : options.id;
  auto it = std::find_if(fixes.begin(), fixes.end(), [&](const FixCandidate& f) { return f.id == id; });
  FixCandidate fix;
  if (it != fixes.end()) {
    fix = *it;
  } else if (!problem) {
    err << "rocmdoc fix: no problem in the catalogue has the id " << options.id
        << "; `rocmdoc fix` lists the fixes for this machine\n";
    return kExitUsage;
  } else if (problem->checked()) {
    auto outcome = std::find_if(report.outcomes.begin(), report.outcomes.end(),
                                [&](const RuleOutcome& o) { return o.rule->id == id; });
    out << id << " does not apply here: check does not report it on this machine";
    if (outcome != report.outcomes.end() && outcome->verdict == Verdict::unknown)
      out << " (it could not be checked: " << outcome->reason << ")";
    out << ". Nothing to fix.\n";
    return kExitProblems;
  } else if (auto code = fix_for_cause(*problem, loaded.facts, knowledge.functions, fix, out)) {
    return *code;
  }
  if (!fix.automatic) {
    std::ostringstream text;
    print_manual(fix, text);
    out << wrap_to_width(text.str(), options.width);
    return kExitProblems;
  }
  return apply(fix, loaded, options, in, out, err);
}

}  // namespace rocmdoc
