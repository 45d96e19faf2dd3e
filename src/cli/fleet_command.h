// rocmdoc fleet merge: many nodes' check --json reports as one summary
// (docs/fleet.md). Its options are declared here, not in main.cpp, so the
// command is one block there.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rocmdoc {

struct FleetMergeOptions {
  std::vector<std::string> inputs;  // files, and directories of *.json
  std::string expect;               // --expect NODES (ranges)
  std::string max_age;              // --max-age DURATION
  bool json = false;
  bool redact = false;
  bool color = false;               // decided by main (terminal_habits.h), as is:
  size_t width = 0;                 // the columns to wrap the text to; 0: not wrapped
};

// Adds `fleet` and its `merge` to app; returns the `merge` subcommand.
CLI::App* add_fleet_commands(CLI::App& app, FleetMergeOptions& options);

int run_fleet_merge_command(const FleetMergeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace rocmdoc
