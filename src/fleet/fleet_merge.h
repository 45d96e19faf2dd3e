// Many nodes' `check --json` reports as one summary: how many nodes are
// healthy, which problems are on how many nodes, the GPU models and the
// ROCm/kernel pairs, and which reports are missing, old or unreadable.
// Reports are fed one at a time; a node keeps only a few small fields, so
// memory grows with the fleet, not with the size of its reports.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fleet/check_report_reader.h"

namespace rocmdoc {

struct FleetOptions {
  long long now = 0;                   // Unix seconds: ages are measured from here
  std::optional<long long> max_age;    // --max-age in seconds
  std::vector<std::string> expected;   // --expect, expanded; empty: no list
  bool redact = false;                 // node names become node0001, ...; file paths report-N
};

struct FleetProblem {
  std::string id, severity, title;
  std::vector<std::string> nodes;  // natural order
};
// Nodes that share a GPU model and gfx, or a ROCm release and kernel.
struct FleetGroup {
  std::string first, second;       // model and gfx, or ROCm and kernel ("" when unknown)
  size_t gpus = 0;                 // GPU groups: how many GPUs of this kind in all
  std::vector<std::string> nodes;  // natural order
};
// A report, or a node, that the summary could not take as it is.
struct FleetNote {
  std::string subject;  // the node, or the file when no node is known
  std::string reason;
};

struct FleetSummary {
  size_t files = 0;         // reports given
  size_t nodes = 0;         // distinct nodes read
  std::vector<std::string> healthy, with_warnings, with_errors;  // natural order
  std::vector<FleetProblem> problems;  // errors, then warnings, then infos; most nodes first
  std::vector<FleetGroup> gpu_models;  // most nodes first
  std::vector<FleetGroup> stacks;      // ROCm release and kernel; most nodes first
  std::vector<std::string> missing;    // expected, no report read
  std::vector<std::string> unexpected; // read, not in the expected list
  std::vector<FleetNote> old;          // node: "3h 5m old (over --max-age 1h)", or no time in the report
  std::vector<FleetNote> unreadable;   // file: why
  std::vector<FleetNote> superseded;   // file: an older report of a node another file has
  bool any_error() const { return !with_errors.empty(); }
};

class FleetMerge {
 public:
  explicit FleetMerge(FleetOptions options);

  // A report read from `file`; the node is its facts' host name, else the
  // file's name without .json.
  void add(const std::string& file, const CheckReportFields& report);
  // A file that could not be read or is not a report.
  void add_unreadable(const std::string& file, const std::string& reason);

  FleetSummary finish() const;

 private:
  struct Node {
    std::string name, file;
    std::optional<long long> time;
    std::vector<size_t> problems;               // into problems_
    std::vector<std::pair<size_t, size_t>> gpus;  // gpu_kinds_ index, count
    size_t stack = 0;                           // into stacks_
    int worst = 0;                              // 0 healthy, 1 warning, 2 error
  };
  size_t intern(std::map<std::pair<std::string, std::string>, size_t>& index,
                std::vector<std::pair<std::string, std::string>>& list, std::string a, std::string b);

  FleetOptions options_;
  size_t files_ = 0;
  std::vector<Node> nodes_;
  std::map<std::string, size_t> node_index_;
  std::vector<FleetNote> unreadable_, superseded_;
  // Problems, GPU kinds and ROCm/kernel pairs, each stored once.
  std::map<std::pair<std::string, std::string>, size_t> problem_index_, gpu_index_, stack_index_;
  std::vector<std::pair<std::string, std::string>> problem_keys_, gpu_kinds_, stacks_;
  std::vector<std::string> problem_titles_;
};

}  // namespace rocmdoc
