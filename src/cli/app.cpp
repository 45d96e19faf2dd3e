// The command line, one function per command. A new command is a new
// add_<name> function called from define_app, and its options a member of
// Invocation: the man pages and completions pick it up by walking the App.
#include "cli/app.h"

#include "base/build_info.h"
#include "cli/terminal_habits.h"

namespace rocmdoc {

namespace {

// A path option given as '' names nothing: taken as "not given", --root ''
// and --facts '' would quietly read this machine instead.
const CLI::Validator kNotEmpty(
    [](std::string& value) { return value.empty() ? std::string("an empty value names no file or directory") : ""; },
    "", "NOT_EMPTY");

// Every option that names a file or directory (its value is shown as DIR,
// FILE or PATH) refuses '': set once here, so a new option cannot forget it.
void refuse_empty_paths(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    const std::string& type = opt->get_type_name();
    if (type == "DIR" || type == "FILE" || type == "PATH") opt->check(kNotEmpty);
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) refuse_empty_paths(*sub);
}

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

// Every command that can print colour takes the same --color; main decides
// with it (terminal_habits.h).
void add_color_option(CLI::App* cmd, std::string& mode) {
  cmd->add_option("--color", mode,
                  "auto (the default): colour on a terminal, unless NO_COLOR is set (CLICOLOR_FORCE=1 forces it); "
                  "always; never")
      ->check(CLI::IsMember(kColorModeNames))
      ->type_name("WHEN");
}

const char* kExitCodeHelp =
    "Exit codes: 0 ok, 1 problems found, 2 usage or input error; install/fix: 3 declined, 4 a step failed, "
    "5 reboot needed.";

void add_facts(CLI::App& app, Invocation::Facts& c) {
  c.app = app.add_subcommand("facts", "Print every fact the probes read, as one JSON document (docs/facts.md)");
  add_machine_options(c.app, c.machine);
  add_deep_options(c.app, c.machine, "Their results are the `deep` section.");
  c.app->add_option("-o,--output", c.output, "Write to FILE (atomically) instead of standard output")
      ->type_name("FILE");
  c.app->add_option("--format", c.format,
                    "json: the whole facts document (default); ansible: a compact object for Ansible's facts.d "
                    "(the check's summary and findings, GPUs, ROCm, torch; docs/fleet.md)")
      ->check(CLI::IsMember({"json", "ansible"}))
      ->type_name("FORMAT");
}

void add_snapshot(CLI::App& app, Invocation::Snapshot& c) {
  c.app = app.add_subcommand(
      "snapshot", "Record everything the probes read into FILE.tar.gz, for a bug report or a test fixture");
  add_machine_options(c.app, c.machine);
  add_deep_options(c.app, c.machine,
                   "Their outputs are recorded, so `check --deep --root` on the snapshot replays them.");
  c.app->add_option("file", c.options.output, "The archive to write (.tar.gz)")->required()->type_name("FILE");
  c.app->add_flag("--no-redact", c.options.no_redact, "Keep host name, user names and home paths (replaced by default)");
}

void add_check(CLI::App& app, Invocation::Check& c, std::string& color) {
  c.app = app.add_subcommand(
      "check", "Diagnose this machine (or a recorded one, or a saved facts file): every problem with its evidence and fix");
  add_machine_options(c.app, c.machine);
  add_deep_options(c.app, c.machine,
                   "Catches \"check said OK, then the workload failed\": a Workloads line shows each with ✓/✗, "
                   "and a failure's text goes through explain, which names its cause.");
  c.app->add_option("--facts", c.options.facts_file, "Diagnose a facts document saved with `rocmdoc facts -o`")
      ->type_name("FILE");
  c.app->add_option("--rocm", c.options.rocm,
                    "Check against this ROCm release, X.Y.Z or X.Y for its newest point release (default: the installed "
                    "release; with none installed, the newest the matrix lists for this GPU and distribution)")
      ->type_name("X.Y.Z");
  c.app->add_option("--rules", c.options.rules_dir, "Use the rules in DIR instead of the built-in ones")
      ->type_name("DIR");
  c.app->add_flag("--json", c.options.json, "Print the report as JSON (docs/check-json.md)");
  c.app->add_flag("-q,--quiet", c.options.quiet,
                  "Only the problems (errors and warnings, under their areas) and the summary line")
      ->excludes(c.app->get_option("--verbose"));
  add_health_check_options(c.app, c.health);
  c.app->add_option("--format", c.options.format,
                    "text (the default), json (docs/check-json.md) or prometheus (metrics for node_exporter's "
                    "textfile collector, docs/fleet.md)")
      ->check(CLI::IsMember({"text", "json", "prometheus"}))
      ->type_name("FORMAT");
  c.app->add_option("--textfile", c.options.textfile,
                    "Write the Prometheus metrics to DIR/rocmdoc.prom atomically, print nothing (node_exporter's "
                    "--collector.textfile.directory; docs/fleet.md)")
      ->type_name("DIR");
  add_color_option(c.app, color);
  c.app->footer("Text is wrapped to the terminal's width (COLUMNS when not a terminal, docs/check.md).\n"
                "Exit codes: 0 no problems, 1 problems found, 2 usage or input error (bad flag, bad rules, bad file).");
}

void add_explain(CLI::App& app, Invocation::Explain& c, std::string& color) {
  c.app = app.add_subcommand(
      "explain", "Name the cause of an error or a whole log on this machine, and its fix (docs/explain.md)");
  c.app->add_option("text", c.words, "The error text (or, with --run, the command and its arguments)");
  c.app->add_option("-f,--file", c.options.files, "Read FILE (repeatable; - is standard input)")->type_name("FILE");
  c.app->add_flag("--run", c.run,
                  "Run the command given after --, pass its output through, and explain when it fails "
                  "(exit code: the command's)");
  c.app->add_option("--root", c.machine.root, "Judge the causes on a recorded machine instead of this one")
      ->type_name("DIR");
  c.app->add_option("--facts", c.options.facts_file, "Judge the causes on a saved facts document")->type_name("FILE");
  c.app->add_flag("--no-probe", c.options.no_probe, "Use the text alone; read nothing on this machine");
  c.app->add_option("--rules", c.options.rules_dir, "Use the rules in DIR instead of the built-in ones")
      ->type_name("DIR");
  c.app->add_flag("--json", c.options.json, "Print the result as JSON (docs/explain.md)");
  c.app->add_flag("-v,--verbose", c.machine.verbosity, "Every candidate in full");
  add_color_option(c.app, color);
  c.app->footer(
      "Examples:\n  rocmdoc explain 'hipErrorNoBinaryForGpu: Unable to find code object for all current devices!'\n"
      "  python3 train.py 2>&1 | rocmdoc explain\n  rocmdoc explain -f train.log -f dmesg.txt\n"
      "  rocmdoc explain --run -- python3 train.py\n"
      "Exit codes: 0 explained, 1 nothing recognised, 2 usage or input error; with --run, the command's own.");
}

void add_fix(CLI::App& app, Invocation::Fix& c, std::string& color) {
  c.app = app.add_subcommand(
      "fix", "List the fixes for what check finds here, or apply one (ID) with consent, a journal and a log "
             "(docs/fix.md)");
  c.app->add_option("id", c.options.id, "The finding (from check) or cause (from explain) to fix")->type_name("ID");
  c.app->add_flag("--dry-run", c.options.dry_run, "Show each step's state and exactly what would change; change nothing");
  c.app->add_flag("-y,--yes", c.options.yes, "Apply without asking (unattended)");
  c.app->add_option("--root", c.machine.root, "With --dry-run: plan on a recorded machine")->type_name("DIR");
  c.app->add_option("--facts", c.options.facts_file, "With --dry-run: plan on a saved facts document")->type_name("FILE");
  c.app->add_option("--rules", c.options.rules_dir, "Use the rules in DIR instead of the built-in ones")->type_name("DIR");
  add_color_option(c.app, color);
  c.app->footer(
      "Exit codes: 0 applied (or listed, or shown), 1 not applicable here (the finding does not fire, or its fix "
      "needs a person), 2 usage error or unknown id, 3 declined (or no terminal and no --yes), 4 a step failed, "
      "5 reboot needed.");
}

void add_install(CLI::App& app, Invocation::Install& c, std::string& color) {
  auto& o = c.options;
  c.app = app.add_subcommand(
      "install", "Install the AMD GPU driver, ROCm and PyTorch by a plan that asks, resumes after a reboot and "
                 "verifies (docs/install.md)");
  c.app->add_flag("--auto", o.auto_install, "Carry out the plan (each change asks first)");
  c.app->add_flag("--dry-run", o.dry_run, "Show each step's state and exactly what would change; change nothing");
  c.app->add_flag("--json", o.json, "Print the plan (or the refusal) as JSON; change nothing");
  c.app->add_option("--rocm", o.rocm,
                    "Install this release (X.Y.Z, or X.Y for the newest X.Y.z rocmdoc covers); default: the newest the "
                    "matrix says supports this GPU here")
      ->type_name("X.Y.Z");
  c.app->add_option("--from", o.from,
                    "Whose packages: amd (AMD's repositories: the newest release for this GPU, the AMD driver) or "
                    "distro (the distribution's own ROCm packages on Debian 13 and Ubuntu 26.04/24.04: an older "
                    "release built for the distribution's GPU list, the kernel's amdgpu, no reboot; the plan says what "
                    "it gives up; on Fedora and Arch it prints the command). Default: amd")
      ->check(CLI::IsMember(kInstallSources))
      ->type_name("SOURCE");
  c.app->add_flag("--no-driver", o.no_driver, "User space only: keep the running amdgpu (or in a container)");
  c.app->add_flag("--no-torch", o.no_torch, "Skip PyTorch");
  c.app->add_flag("--keep-kernel", o.keep_kernel,
                  "Build the driver for the running kernel even where the release does not list it (default: install "
                  "a kernel it lists and reboot into it first, where the distribution's package for one is known)");
  c.app->add_option("--venv", o.venv, "PyTorch's virtual environment (default: ~USER/rocm-venv)")->type_name("PATH");
  c.app->add_option("--user", o.user, "The user to set up (default: SUDO_USER, else you)")->type_name("NAME");
  c.app->add_option("--trust-key", o.trust_key,
                    "For a release whose recipe pins no signing key fingerprint (a --rules recipe with "
                    "fingerprint_unknown): the fingerprint you checked yourself; the key is used only if it carries it")
      ->type_name("FINGERPRINT");
  c.app->add_flag("-y,--yes", o.yes, "Do every step without asking (unattended)");
  c.app->add_flag("--resume", o.resume, "Carry on the journal's plan (after a reboot or an interruption)");
  c.app->add_option("--root", c.machine.root, "With --dry-run: plan for a recorded machine")->type_name("DIR");
  c.app->add_option("--facts", o.facts_file, "With --dry-run: plan for a saved facts document")->type_name("FILE");
  c.app->add_option("--rules", o.rules_dir, "Use the rules (and recipes) in DIR instead of the built-in ones")
      ->type_name("DIR");
  add_color_option(c.app, color);
  c.app->footer(
      "Examples:\n  rocmdoc install --auto --dry-run\n  sudo rocmdoc install --auto\n"
      "  sudo rocmdoc install --auto --yes --no-torch --rocm 7.1.1\n"
      "  sudo rocmdoc install --auto --rocm 10.1.0   (the Core SDK line; the default on Ubuntu 26.04)\n"
      "  rocmdoc install --from distro --dry-run      (the distribution's own ROCm packages, and what they give up)\n"
      "Exit codes: 0 done (or the plan shown), 1 rocmdoc will not install here (the reason and what to do instead), "
      "2 usage or input error, 3 declined (or no terminal and no --yes), 4 a step failed, 5 reboot needed (then run "
      "it again).");
}


// rocmdoc report (docs/report.md).
void add_report(CLI::App& app, Invocation::Report& c) {
  c.app = app.add_subcommand(
      "report", "One Markdown document for a GitHub issue or a forum: check's findings with their evidence, explain "
                "of a log, the versions and the facts, redacted (docs/report.md)");
  c.app->add_option("--root", c.machine.root, "Report on a recorded machine (an unpacked snapshot, a fixture)")
      ->type_name("DIR");
  c.app->add_option("--facts", c.options.facts_file, "Report on a facts document saved with `rocmdoc facts -o`")
      ->type_name("FILE");
  c.app->add_option("--log", c.options.log,
                    "Also explain this log (- for standard input) and put the explanation in the report")
      ->type_name("FILE");
  c.app->add_option("-o,--output", c.options.output,
                    "Write the report to FILE (atomically; a link, device or pipe is refused) instead of standard "
                    "output")
      ->type_name("FILE");
  c.app->add_flag("--no-redact", c.options.no_redact,
                  "Keep host name, user names, home paths and secret-looking environment values (*TOKEN*, *KEY*, "
                  "*SECRET*, *PASSWORD*, *CREDENTIAL*), replaced by default");
  c.app->add_option("--rules", c.options.rules_dir, "Use the rules in DIR instead of the built-in ones")
      ->type_name("DIR");
  c.app->footer("Stays under GitHub's 65,536-character comment limit: the facts are shortened first (what was cut "
                "is said, `rocmdoc facts` has it), then the explanation; findings are never cut.\n"
                "Exit codes: 0 the report was written (whatever it found), 2 usage or input error.");
}

void add_rules(CLI::App& app, Invocation::Rules& c) {
  auto* rules = app.add_subcommand(
      "rules", "Check rule files: lint (load strictly), test (run every rule's examples), patterns, info (how current)");
  rules->require_subcommand(1);
  c.lint = rules->add_subcommand("lint", "Load the rules strictly; errors as file:line:column, exit 2");
  c.lint->add_option("dir", c.lint_dir, "A rules directory (default: the built-in rules)")->type_name("DIR");
  c.test = rules->add_subcommand("test", "Run every rule's examples; exit 1 when one gives another verdict");
  c.test->add_option("dir", c.test_dir, "A rules directory (default: the built-in rules)")->type_name("DIR");
  c.patterns = rules->add_subcommand("patterns", "Print the explain signatures' RE2 patterns, one per line (those that also need their line before, `after`, are left out)");
  c.patterns->add_option("dir", c.patterns_dir, "A rules directory (default: the built-in rules)")->type_name("DIR");
  c.info = rules->add_subcommand("info",
                                 "How current the rules are: the matrix's as-of date, the newest ROCm release (and "
                                 "its date), the newest PyTorch release, and counts");
  c.info->add_option("dir", c.info_dir, "A rules directory (default: the built-in rules)")->type_name("DIR");
  c.info->add_flag("--json", c.info_json, "The same as one JSON document");
  c.info->footer("Exit codes: 0 printed, 2 the rules do not load (errors as file:line:column).");
}

void add_completion(CLI::App& app, Invocation::Completion& c) {
  c.app = app.add_subcommand("completion",
                             "Print the shell completion script for bash, zsh or fish (docs/packaging.md); the "
                             "package installs each where its shell looks");
  c.app->add_option("shell", c.shell, "The shell: bash, zsh or fish")
      ->type_name("SHELL")
      ->check(CLI::IsMember(kCompletionShells));
  // What the scripts ask at Tab time, so finding ids include
  // /etc/rocmdoc/rules.d's problems. Not for people: hidden.
  c.app->add_option("--list", c.list, "fix-ids or rocm-releases, one per line")
      ->check(CLI::IsMember({"fix-ids", "rocm-releases"}))
      ->group("");
  c.app->footer("Examples:\n  source <(rocmdoc completion bash)\n  rocmdoc completion fish > ~/.config/fish/completions/rocmdoc.fish\n"
                "Exit codes: 0 printed, 2 usage error.");
}

void add_help_man(CLI::App& app, Invocation::HelpMan& c) {
  // The build writes the man pages with this (cmake/man_pages.cmake): from
  // the App itself, so they say what --help says.
  c.app = app.add_subcommand("help-man", "Write the man pages into DIR");
  c.app->add_option("dir", c.dir, "The directory to write rocmdoc.1 and rocmdoc-COMMAND.1 into")
      ->required()
      ->type_name("DIR");
  c.app->group("");
}

}  // namespace

void define_app(CLI::App& app, Invocation& inv) {
  app.description(
      "rocmdoc: a doctor for AMD ROCm on Linux. It reads this machine (or a recorded one), "
      "says what is wrong and what to type.");
  app.name("rocmdoc");
  // The help cites docs/NAME.md: in a source tree that is the folder beside
  // src/; the Debian package installs the same files under that name.
  app.footer(std::string("The docs/ files named here are in the source tree, and installed in "
                         "/usr/share/doc/rocmdoc/docs/.\n") +
             kExitCodeHelp);
  app.set_version_flag("--version", "rocmdoc " + rocmdoc_version());
  app.require_subcommand(1);
  add_facts(app, inv.facts);
  add_snapshot(app, inv.snapshot);
  add_check(app, inv.check, inv.color);
  add_explain(app, inv.explain, inv.color);
  add_fix(app, inv.fix, inv.color);
  add_install(app, inv.install, inv.color);
  add_report(app, inv.report);
  add_rules(app, inv.rules);
  inv.fleet.merge = add_fleet_commands(app, inv.fleet.options);
  add_color_option(inv.fleet.merge, inv.color);
  add_completion(app, inv.completion);
  add_help_man(app, inv.help_man);
  refuse_empty_paths(app);
}

std::vector<const CLI::App*> visible_subcommands(const CLI::App& app) {
  std::vector<const CLI::App*> out;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    out.push_back(sub);
  return out;
}

std::vector<const CLI::Option*> visible_options(const CLI::App& app) {
  return app.get_options([](const CLI::Option* o) { return !o->get_group().empty(); });
}

std::string command_path(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* p = app.get_parent(); p; p = p->get_parent()) path = p->get_name() + " " + path;
  return path;
}

}  // namespace rocmdoc
