// rocmdoc: the command-line entry point. Parses flags and hands over to the
// commands; nothing here knows about probes or rules.
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cli/cli_options.h"
#include "base/build_info.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "facts/facts_document.h"
#include "cli/install_command.h"
#include "cli/health_check_command.h"
#include "cli/fix_command.h"
#include "cli/fleet_command.h"

using namespace rocmdoc;

namespace {

void add_machine_options(CLI::App* cmd, MachineOptions& opts) {
  cmd->add_option("--root", opts.root,
                  "Probe a recorded machine: a directory mirroring / (an unpacked `rocmdoc snapshot`, "
                  "or a capture's root/ folder) instead of this computer")
      ->type_name("DIR");
  cmd->add_option("--python", opts.probe.python_paths,
                  "Also inspect this interpreter or virtual environment (repeatable)")
      ->type_name("PATH");
  cmd->add_flag("-v,--verbose", opts.verbosity, "More detail (timing per probe on stderr)");
}

// Only the commands that probe a machine and can use what ran: check
// reports it, facts prints it, snapshot records it for --root to replay.
void add_deep_options(CLI::App* cmd, MachineOptions& opts, const std::string& what) {
  cmd->add_flag("--deep", opts.probe.deep,
                "Also run the workloads, as the user who runs ROCm (SUDO_USER under sudo, through runuser): each "
                "Python that imports torch runs a fixed script (import torch, its HIP version, is_available, each "
                "GPU's name and gfx, one tensor op per GPU), and rocminfo and `amd-smi list` where installed. " +
                    what + " Off by default: plain " + cmd->get_name() + " runs none of it");
  cmd->add_option_function<double>(
         "--deep-timeout",
         [&opts](double seconds) {
           opts.probe.deep_timeout = std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
         },
         "With --deep: each command's timeout in seconds (default 20); a command still running then is killed "
         "and counts as failed")
      ->type_name("SECONDS")
      ->check(CLI::Range(0.1, 3600.0));
}

const char* kExitCodeHelp =
    "Exit codes: 0 ok, 1 problems found, 2 usage or input error; install/fix: 3 declined, 4 a step failed, "
    "5 reboot needed.";

int run(int argc, char** argv) {
  CLI::App app{"rocmdoc: a doctor for AMD ROCm on Linux. It reads this machine (or a recorded one), "
               "says what is wrong and what to type.", "rocmdoc"};
  app.footer(kExitCodeHelp);
  app.set_version_flag("--version", "rocmdoc " + rocmdoc_version());
  app.require_subcommand(1);

  MachineOptions facts_opts;
  auto* facts = app.add_subcommand("facts", "Print every fact the probes read, as one JSON document (docs/facts.md)");
  add_machine_options(facts, facts_opts);
  add_deep_options(facts, facts_opts, "Their results are the `deep` section.");
  std::string facts_out;
  facts->add_option("-o,--output", facts_out, "Write to FILE (atomically) instead of standard output")->type_name("FILE");
  std::string facts_format = "json";
  facts->add_option("--format", facts_format,
                    "json: the whole facts document (default); ansible: a compact object for Ansible's facts.d "
                    "(the check's summary and findings, GPUs, ROCm, torch; docs/fleet.md)")
      ->check(CLI::IsMember({"json", "ansible"}))
      ->type_name("FORMAT");

  MachineOptions snap_opts;
  SnapshotOptions snapshot_options;
  auto* snapshot = app.add_subcommand(
      "snapshot", "Record everything the probes read into FILE.tar.gz, for a bug report or a test fixture");
  add_machine_options(snapshot, snap_opts);
  add_deep_options(snapshot, snap_opts,
                   "Their outputs are recorded, so `check --deep --root` on the snapshot replays them.");
  snapshot->add_option("file", snapshot_options.output, "The archive to write (.tar.gz)")->required()->type_name("FILE");
  snapshot->add_flag("--no-redact", snapshot_options.no_redact,
                     "Keep host name, user names and home paths (replaced by default)");

  MachineOptions check_opts;
  CheckOptions check_options;
  auto* check = app.add_subcommand(
      "check", "Diagnose this machine (or a recorded one, or a saved facts file): every problem with its evidence and fix");
  add_machine_options(check, check_opts);
  add_deep_options(check, check_opts,
                   "Catches \"check said OK, then the workload failed\": a Workloads line shows each with ✓/✗, "
                   "and a failure's text goes through explain, which names its cause.");
  check->add_option("--facts", check_options.facts_file, "Diagnose a facts document saved with `rocmdoc facts -o`")
      ->type_name("FILE");
  check->add_option("--rocm", check_options.rocm,
                    "Check against this ROCm release (default: the newest the matrix lists for this GPU and distribution)")
      ->type_name("X.Y.Z");
  check->add_option("--rules", check_options.rules_dir, "Use the rules in DIR instead of the built-in ones")
      ->type_name("DIR");
  check->add_flag("--json", check_options.json, "Print the report as JSON (docs/check-json.md)");
  HealthCheckOptions health_options;
  add_health_check_options(check, health_options);
  check->add_option("--format", check_options.format,
                    "text (the default), json (docs/check-json.md) or prometheus (metrics for node_exporter's "
                    "textfile collector, docs/fleet.md)")
      ->check(CLI::IsMember({"text", "json", "prometheus"}))
      ->type_name("FORMAT");
  check->add_option("--textfile", check_options.textfile,
                    "Write the Prometheus metrics to DIR/rocmdoc.prom atomically, print nothing (node_exporter's "
                    "--collector.textfile.directory; docs/fleet.md)")
      ->type_name("DIR");
  check->footer("Exit codes: 0 no problems, 1 problems found, 2 usage or input error (bad flag, bad rules, bad file).");

  MachineOptions explain_opts;
  ExplainOptions explain_options;
  std::vector<std::string> explain_words;
  bool explain_run = false;
  auto* explain = app.add_subcommand(
      "explain", "Name the cause of an error or a whole log on this machine, and its fix (docs/explain.md)");
  explain->add_option("text", explain_words, "The error text (or, with --run, the command and its arguments)");
  explain->add_option("-f,--file", explain_options.files, "Read FILE (repeatable; - is standard input)")->type_name("FILE");
  explain->add_flag("--run", explain_run,
                    "Run the command given after --, pass its output through, and explain when it fails "
                    "(exit code: the command's)");
  explain->add_option("--root", explain_opts.root, "Judge the causes on a recorded machine instead of this one")
      ->type_name("DIR");
  explain->add_option("--facts", explain_options.facts_file, "Judge the causes on a saved facts document")
      ->type_name("FILE");
  explain->add_flag("--no-probe", explain_options.no_probe, "Use the text alone; read nothing on this machine");
  explain->add_option("--rules", explain_options.rules_dir, "Use the rules in DIR instead of the built-in ones")
      ->type_name("DIR");
  explain->add_flag("--json", explain_options.json, "Print the result as JSON (docs/explain.md)");
  explain->add_flag("-v,--verbose", explain_opts.verbosity, "Every candidate in full");
  explain->footer(
      "Examples:\n  rocmdoc explain 'hipErrorNoBinaryForGpu: Unable to find code object for all current devices!'\n"
      "  python3 train.py 2>&1 | rocmdoc explain\n  rocmdoc explain -f train.log -f dmesg.txt\n"
      "  rocmdoc explain --run -- python3 train.py\n"
      "Exit codes: 0 explained, 1 nothing recognised, 2 usage or input error; with --run, the command's own.");

  MachineOptions fix_opts;
  FixOptions fix_options;
  auto* fix = app.add_subcommand(
      "fix", "List the fixes for what check finds here, or apply one (ID) with consent, a journal and a log "
             "(docs/fix.md)");
  fix->add_option("id", fix_options.id, "The finding (from check) or cause (from explain) to fix")->type_name("ID");
  fix->add_flag("--dry-run", fix_options.dry_run, "Show each step's state and exactly what would change; change nothing");
  fix->add_flag("-y,--yes", fix_options.yes, "Apply without asking (unattended)");
  fix->add_option("--root", fix_opts.root, "With --dry-run: plan on a recorded machine")->type_name("DIR");
  fix->add_option("--facts", fix_options.facts_file, "With --dry-run: plan on a saved facts document")->type_name("FILE");
  fix->add_option("--rules", fix_options.rules_dir, "Use the rules in DIR instead of the built-in ones")->type_name("DIR");
  fix->footer(
      "Exit codes: 0 applied (or listed, or shown), 1 not applicable here (the finding does not fire, or its fix "
      "needs a person), 2 usage error or unknown id, 3 declined (or no terminal and no --yes), 4 a step failed, "
      "5 reboot needed.");

  MachineOptions install_opts;
  InstallCommandOptions install_options;
  auto* install = app.add_subcommand(
      "install", "Install the AMD GPU driver, ROCm and PyTorch by a plan that asks, resumes after a reboot and "
                 "verifies (docs/install.md)");
  install->add_flag("--auto", install_options.auto_install, "Carry out the plan (each change asks first)");
  install->add_flag("--dry-run", install_options.dry_run, "Show each step's state and exactly what would change; change nothing");
  install->add_flag("--json", install_options.json, "Print the plan (or the refusal) as JSON; change nothing");
  install->add_option("--rocm", install_options.rocm,
                      "Install this release (X.Y.Z, or X.Y for the newest X.Y.z rocmdoc covers); default: the newest the "
                      "matrix says supports this GPU here")
      ->type_name("X.Y.Z");
  install->add_flag("--no-driver", install_options.no_driver, "User space only: keep the running amdgpu (or in a container)");
  install->add_flag("--no-torch", install_options.no_torch, "Skip PyTorch");
  install->add_option("--venv", install_options.venv, "PyTorch's virtual environment (default: ~USER/rocm-venv)")
      ->type_name("PATH");
  install->add_option("--user", install_options.user, "The user to set up (default: SUDO_USER, else you)")
      ->type_name("NAME");
  install->add_option("--trust-key", install_options.trust_key,
                      "For a release whose recipe pins no signing key fingerprint (a --rules recipe with "
                      "fingerprint_unknown): the fingerprint you checked yourself; the key is used only if it carries it")
      ->type_name("FINGERPRINT");
  install->add_flag("-y,--yes", install_options.yes, "Do every step without asking (unattended)");
  install->add_flag("--resume", install_options.resume, "Carry on the journal's plan (after a reboot or an interruption)");
  install->add_option("--root", install_opts.root, "With --dry-run: plan for a recorded machine")->type_name("DIR");
  install->add_option("--facts", install_options.facts_file, "With --dry-run: plan for a saved facts document")
      ->type_name("FILE");
  install->add_option("--rules", install_options.rules_dir, "Use the rules (and recipes) in DIR instead of the built-in ones")
      ->type_name("DIR");
  install->footer(
      "Examples:\n  rocmdoc install --auto --dry-run\n  sudo rocmdoc install --auto\n"
      "  sudo rocmdoc install --auto --yes --no-torch --rocm 7.1.1\n"
      "  sudo rocmdoc install --auto --rocm 10.0.0   (the Core SDK line; the default on Ubuntu 26.04)\n"
      "Exit codes: 0 done (or the plan shown), 1 rocmdoc will not install here (the reason and what to do instead), "
      "2 usage or input error, 3 declined (or no terminal and no --yes), 4 a step failed, 5 reboot needed (then run "
      "it again).");

  auto* rules = app.add_subcommand(
      "rules", "Check rule files: lint (load strictly), test (run every rule's examples), patterns, info (how current)");
  rules->require_subcommand(1);
  std::string lint_dir, test_dir;
  auto* lint = rules->add_subcommand("lint", "Load the rules strictly; errors as file:line:column, exit 2");
  lint->add_option("dir", lint_dir, "A rules directory (default: the built-in rules)")->type_name("DIR");
  auto* test = rules->add_subcommand("test", "Run every rule's examples; exit 1 when one gives another verdict");
  test->add_option("dir", test_dir, "A rules directory (default: the built-in rules)")->type_name("DIR");
  std::string patterns_dir;
  auto* patterns = rules->add_subcommand("patterns", "Print the explain signatures' RE2 patterns, one per line");
  patterns->add_option("dir", patterns_dir, "A rules directory (default: the built-in rules)")->type_name("DIR");
  std::string info_dir;
  bool info_json = false;
  auto* info = rules->add_subcommand("info",
                                     "How current the rules are: the matrix's as-of date, the newest ROCm release (and "
                                     "its date), the newest PyTorch release, and counts");
  info->add_option("dir", info_dir, "A rules directory (default: the built-in rules)")->type_name("DIR");
  info->add_flag("--json", info_json, "The same as one JSON document");
  info->footer("Exit codes: 0 printed, 2 the rules do not load (errors as file:line:column).");

  FleetMergeOptions fleet_options;
  auto* fleet_merge = add_fleet_commands(app, fleet_options);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  if (*facts && facts_format == "ansible") return run_ansible_facts_command(facts_opts, facts_out, std::cout, std::cerr);
  if (*facts) return run_facts_command(facts_opts, facts_out, std::cout, std::cerr);
  if (*check && wants_health_check(health_options)) {
    SystemProcessRunner scontrol;
    return run_health_check_command(check_opts, check_options, health_options, scontrol, std::cout, std::cerr);
  }
  if (*check) {
    check_options.color = ::isatty(1) && !std::getenv("NO_COLOR");
    return run_check_command(check_opts, check_options, std::cout, std::cerr);
  }
  if (*explain) {
    if (explain_run && explain_words.empty()) {
      std::cerr << "rocmdoc explain --run: give the command after --: rocmdoc explain --run -- CMD ARGS...\n";
      return kExitUsage;
    }
    int given = !explain_options.facts_file.empty() + explain_options.no_probe + (explain_opts.root != "/");
    if (given > 1) {
      std::cerr << "rocmdoc explain: --facts, --root and --no-probe exclude each other\n";
      return kExitUsage;
    }
    (explain_run ? explain_options.run : explain_options.text) = explain_words;
    explain_options.color = ::isatty(explain_run ? 2 : 1) && !std::getenv("NO_COLOR");
    explain_options.stdin_is_terminal = ::isatty(0);
    std::ios::sync_with_stdio(false);
    return run_explain_command(explain_opts, explain_options, std::cin, std::cout, std::cerr);
  }
  if (*fix) {
    fix_options.stdin_is_terminal = ::isatty(0);
    return run_fix_command(fix_opts, fix_options, std::cin, std::cout, std::cerr);
  }
  if (*install) {
    install_options.color = ::isatty(1) && !std::getenv("NO_COLOR");
    install_options.stdin_is_terminal = ::isatty(0);
    return run_install_command(install_opts, install_options, std::cin, std::cout, std::cerr);
  }
  if (*lint) return run_rules_lint(lint_dir, std::cout, std::cerr);
  if (*test) return run_rules_test(test_dir, std::cout, std::cerr);
  if (*patterns) return run_rules_patterns(patterns_dir, std::cout, std::cerr);
  if (*info) return run_rules_info(info_dir, info_json, std::cout, std::cerr);
  if (*fleet_merge) {
    fleet_options.color = ::isatty(1) && !std::getenv("NO_COLOR");
    return run_fleet_merge_command(fleet_options, std::cout, std::cerr);
  }
  if (*snapshot) return run_snapshot_command(snap_opts, snapshot_options, std::cout, std::cerr);
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
