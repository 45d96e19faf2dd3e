// rocmdoc: the command-line entry point. Parses flags and hands over to the
// commands; nothing here knows about probes or rules.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "rocmdoc/cli_options.h"
#include "rocmdoc/commands.h"
#include "rocmdoc/exit_codes.h"
#include "rocmdoc/facts_document.h"

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

const char* kExitCodeHelp =
    "Exit codes: 0 ok, 1 problems found, 2 usage or input error.";

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rocmdoc: a doctor for AMD ROCm on Linux. It reads this machine (or a recorded one), "
               "says what is wrong and what to type.", "rocmdoc"};
  app.footer(kExitCodeHelp);
  app.set_version_flag("--version", "rocmdoc " + rocmdoc_version());
  app.require_subcommand(1);

  MachineOptions facts_opts;
  auto* facts = app.add_subcommand("facts", "Print every fact the probes read, as one JSON document (docs/facts.md)");
  add_machine_options(facts, facts_opts);
  std::string facts_out;
  facts->add_option("-o,--output", facts_out, "Write to FILE (atomically) instead of standard output")->type_name("FILE");

  MachineOptions snap_opts;
  SnapshotOptions snapshot_options;
  auto* snapshot = app.add_subcommand(
      "snapshot", "Record everything the probes read into FILE.tar.gz, for a bug report or a test fixture");
  add_machine_options(snapshot, snap_opts);
  snapshot->add_option("file", snapshot_options.output, "The archive to write (.tar.gz)")->required()->type_name("FILE");
  snapshot->add_flag("--no-redact", snapshot_options.no_redact,
                     "Keep host name, user names and home paths (replaced by default)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  if (*facts) return run_facts_command(facts_opts, facts_out, std::cout, std::cerr);
  if (*snapshot) return run_snapshot_command(snap_opts, snapshot_options, std::cout, std::cerr);
  return kExitUsage;
}
