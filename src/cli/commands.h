// The commands behind the CLI. Each takes parsed options and output
// streams and returns an exit code (exit_codes.h), so tests drive them
// in-process.
#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_options.h"
#include "rules/rule_loader.h"

namespace rocmdoc {

int run_facts_command(const MachineOptions& options, const std::string& output_file, std::ostream& out, std::ostream& err);
// facts --format ansible: the check's summary and findings, GPUs, ROCm and
// torch as one compact JSON object (output/ansible_facts.h).
int run_ansible_facts_command(const MachineOptions& options, const std::string& output_file, std::ostream& out,
                              std::ostream& err);

struct SnapshotOptions {
  std::string output;  // FILE.tar.gz
  bool no_redact = false;
};
int run_snapshot_command(const MachineOptions& options, const SnapshotOptions& snapshot, std::ostream& out,
                         std::ostream& err);

// Rule load errors as file:line:column lines, one per error.
void print_load_errors(const std::vector<LoadError>& errors, std::ostream& err);

struct CheckOptions {
  std::string facts_file;  // --facts FILE: diagnose a saved facts document
  std::string rocm;        // --rocm X.Y[.Z]
  std::string rules_dir;   // --rules DIR
  bool json = false;       // --json, the short form of --format json
  std::string format;      // --format text|json|prometheus; empty: text (json with --json)
  std::string textfile;    // --textfile DIR: write DIR/rocmdoc.prom (Prometheus) instead of printing
  bool quiet = false;      // -q: only the problems and the summary line
  bool color = false;      // decided by main (terminal_habits.h), as is:
  size_t width = 0;        // the columns to wrap the text to; 0: not wrapped
};
int run_check_command(const MachineOptions& machine, const CheckOptions& options, std::ostream& out, std::ostream& err);

// rocmdoc rules lint|test [DIR]
int run_rules_lint(const std::string& dir, std::ostream& out, std::ostream& err);
int run_rules_test(const std::string& dir, std::ostream& out, std::ostream& err);
// The explain signatures' patterns, one per line (for benchmarks and other tools).
int run_rules_patterns(const std::string& dir, std::ostream& out, std::ostream& err);
// How current the rules are: the matrix's as-of date, the newest ROCm and
// PyTorch releases, and counts (text, or JSON with `json`).
int run_rules_info(const std::string& dir, bool json, std::ostream& out, std::ostream& err);

struct ExplainOptions {
  std::vector<std::string> text;   // words given on the command line (joined by newlines)
  std::vector<std::string> files;  // -f FILE ("-" is standard input)
  std::vector<std::string> run;    // --run -- CMD ARGS...
  std::string facts_file;          // --facts FILE
  std::string rules_dir;           // --rules DIR
  bool no_probe = false;
  bool json = false;
  bool color = false;              // decided by main for the descriptor the text goes to, as is:
  size_t width = 0;                // the columns to wrap the text to; 0: not wrapped
  bool stdin_is_terminal = false;  // decided by main: then stdin is not read by default
};
int run_explain_command(const MachineOptions& machine, const ExplainOptions& options, std::istream& in,
                        std::ostream& out, std::ostream& err);

struct ReportOptions {
  std::string facts_file;  // --facts FILE
  std::string log;         // --log FILE ("-" is standard input): explained in the report
  std::string output;      // -o FILE, written atomically; never through a link or into a device
  std::string rules_dir;   // --rules DIR
  bool no_redact = false;
  bool stdin_is_terminal = false;  // decided by main: then --log - is refused, not waited on
};
int run_report_command(const MachineOptions& machine, const ReportOptions& options, std::istream& in,
                       std::ostream& out, std::ostream& err);

}  // namespace rocmdoc
