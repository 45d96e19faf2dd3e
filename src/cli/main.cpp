// rocmdoc: the command-line entry point. Parses flags (defined in app.cpp)
// and hands over to the commands; nothing here knows about probes or rules.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "cli/app.h"
#include "cli/completion.h"
#include "cli/exit_codes.h"
#include "cli/fleet_command.h"
#include "cli/health_check_command.h"
#include "cli/man_page.h"
#include "cli/terminal_habits.h"
#include "platform/terminal.h"

using namespace rocmdoc;

namespace {

int run(int argc, char** argv) {
  CLI::App app;
  Invocation inv;
  define_app(app, inv);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  // A facts file is one machine and --root another: which one would the
  // answer be about? (explain and install say the same.)
  for (auto* cmd : {inv.check.app, inv.fix.app})
    if (*cmd && cmd->count("--facts") && cmd->count("--root")) {
      std::cerr << "rocmdoc " << cmd->get_name() << ": --facts and --root exclude each other\n";
      return kExitUsage;
    }

  if (*inv.facts.app && inv.facts.format == "ansible")
    return run_ansible_facts_command(inv.facts.machine, inv.facts.output, std::cout, std::cerr);
  if (*inv.facts.app) return run_facts_command(inv.facts.machine, inv.facts.output, std::cout, std::cerr);
  if (auto& c = inv.check; *c.app && wants_health_check(c.health)) {
    SystemProcessRunner scontrol;
    return run_health_check_command(c.machine, c.options, c.health, scontrol, std::cout, std::cerr);
  }
  ColorMode color = color_mode(inv.color);
  if (auto& c = inv.check; *c.app) {
    auto habits = output_habits(1, color);
    c.options.color = habits.color;
    c.options.width = habits.width;
    return run_check_command(c.machine, c.options, std::cout, std::cerr);
  }
  if (auto& c = inv.explain; *c.app) {
    auto& explain_options = c.options;
    if (c.run && c.words.empty()) {
      std::cerr << "rocmdoc explain --run: give the command after --: rocmdoc explain --run -- CMD ARGS...\n";
      return kExitUsage;
    }
    int given = !explain_options.facts_file.empty() + explain_options.no_probe + (c.machine.root != "/");
    if (given > 1) {
      std::cerr << "rocmdoc explain: --facts, --root and --no-probe exclude each other\n";
      return kExitUsage;
    }
    (c.run ? explain_options.run : explain_options.text) = c.words;
    // With --run the command's output owns standard output and the
    // explanation goes to standard error: that is the one to judge.
    auto habits = output_habits(c.run ? 2 : 1, color);
    explain_options.color = habits.color;
    explain_options.width = habits.width;
    explain_options.stdin_is_terminal = is_terminal(0);
    std::ios::sync_with_stdio(false);
    return run_explain_command(c.machine, explain_options, std::cin, std::cout, std::cerr);
  }
  if (auto& c = inv.fix; *c.app) {
    c.options.stdin_is_terminal = is_terminal(0);
    auto habits = output_habits(1, color);
    c.options.stdout_is_terminal = habits.terminal;
    c.options.width = habits.width;
    return run_fix_command(c.machine, c.options, std::cin, std::cout, std::cerr);
  }
  if (auto& c = inv.install; *c.app) {
    auto habits = output_habits(1, color);
    c.options.color = habits.color;
    c.options.width = habits.width;
    c.options.stdout_is_terminal = habits.terminal;
    c.options.stdin_is_terminal = is_terminal(0);
    return run_install_command(c.machine, c.options, std::cin, std::cout, std::cerr);
  }
  auto& r = inv.rules;
  if (*r.lint) return run_rules_lint(r.lint_dir, std::cout, std::cerr);
  if (*r.test) return run_rules_test(r.test_dir, std::cout, std::cerr);
  if (*r.patterns) return run_rules_patterns(r.patterns_dir, std::cout, std::cerr);
  if (*r.info) return run_rules_info(r.info_dir, r.info_json, std::cout, std::cerr);
  if (auto& c = inv.fleet; *c.merge) {
    auto habits = output_habits(1, color);
    c.options.color = habits.color;
    c.options.width = habits.width;
    return run_fleet_merge_command(c.options, std::cout, std::cerr);
  }
  if (auto& c = inv.report; *c.app) {
    c.options.stdin_is_terminal = is_terminal(0);
    return run_report_command(c.machine, c.options, std::cin, std::cout, std::cerr);
  }
  if (auto& c = inv.snapshot; *c.app) return run_snapshot_command(c.machine, c.options, std::cout, std::cerr);
  if (auto& c = inv.completion; *c.app) return run_completion_command(app, c.shell, c.list, std::cout, std::cerr);
  if (auto& c = inv.help_man; *c.app) return run_help_man_command(app, c.dir, std::cerr);
  return kExitUsage;
}

// What a command printed must have reached standard output: a full disk or
// a closed pipe under `rocmdoc facts > FILE` would otherwise leave half a
// document behind an exit status of 0.
// (The failed write's errno is gone by the time this runs, so the message
// names the likely causes instead.)
int finished(int code) {
  std::cout.flush();
  bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!failed) return code;
  std::cerr << "rocmdoc: cannot write to standard output (a full disk, or nothing reading it): "
               "what it received is incomplete\n";
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) { return finished(run(argc, argv)); }
