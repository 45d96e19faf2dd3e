// The commands behind the CLI. Each takes parsed options and output
// streams and returns an exit code (exit_codes.h), so tests drive them
// in-process.
#pragma once

#include <ostream>
#include <string>

#include "rocmdoc/cli_options.h"

namespace rocmdoc {

int run_facts_command(const MachineOptions& options, const std::string& output_file, std::ostream& out, std::ostream& err);

struct SnapshotOptions {
  std::string output;  // FILE.tar.gz
  bool no_redact = false;
};
int run_snapshot_command(const MachineOptions& options, const SnapshotOptions& snapshot, std::ostream& out,
                         std::ostream& err);

}  // namespace rocmdoc

namespace rocmdoc {

struct CheckOptions {
  std::string facts_file;  // --facts FILE: diagnose a saved facts document
  std::string rocm;        // --rocm X.Y[.Z]
  std::string rules_dir;   // --rules DIR
  bool json = false;
  bool color = false;      // decided by main: a terminal and no NO_COLOR
};
int run_check_command(const MachineOptions& machine, const CheckOptions& options, std::ostream& out, std::ostream& err);

// rocmdoc rules lint|test [DIR]
int run_rules_lint(const std::string& dir, std::ostream& out, std::ostream& err);
int run_rules_test(const std::string& dir, std::ostream& out, std::ostream& err);

}  // namespace rocmdoc
