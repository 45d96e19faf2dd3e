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
