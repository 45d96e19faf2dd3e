#include "cli/fleet_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <ctime>
#include <filesystem>

#include "cli/exit_codes.h"
#include "fleet/check_report_reader.h"
#include "fleet/fleet_merge.h"
#include "fleet/node_names.h"
#include "fleet/report_age.h"
#include "output/terminal_wrap.h"
#include "output/fleet_output.h"
#include "platform/host_filesystem.h"

namespace rocmdoc {

namespace {

// A report is a few tens of KB; anything this large is not one.
constexpr size_t kMaxReportBytes = 64u << 20;

bool ends_with_json(const std::string& name) {
  return name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
}

// The FileSystem reads absolute paths; messages keep the path as given.
std::string absolute(const std::string& path) {
  std::error_code ec;
  auto p = std::filesystem::absolute(path, ec);
  return ec ? path : p.string();
}

}  // namespace

CLI::App* add_fleet_commands(CLI::App& app, FleetMergeOptions& o) {
  auto* fleet = app.add_subcommand("fleet", "Work with many nodes' reports (docs/fleet.md)");
  fleet->require_subcommand(1);
  auto* merge = fleet->add_subcommand(
      "merge", "Summarise many nodes' `rocmdoc check --json` reports: healthy nodes, each problem with its nodes, "
               "GPU models, ROCm and kernels, and missing, old or unreadable reports");
  merge->add_option("reports", o.inputs, "Report files, or directories whose *.json files are reports")
      ->required()
      ->type_name("FILE|DIR");
  merge->add_flag("--json", o.json, "Print the summary as JSON (docs/fleet.md)");
  merge->add_option("--expect", o.expect,
                    "The nodes that should have reported, as names and ranges (gpu[001-040],login1); "
                    "those without a report are listed as missing")
      ->type_name("NODES");
  merge->add_option("--max-age", o.max_age,
                    "List nodes whose report is older than this (30m, 2h, 1d, 1h30m), by the time in the report "
                    "(facts.source.collected_at)")
      ->type_name("DURATION");
  merge->add_flag("--redact", o.redact,
                  "Replace node names with node0001, ... and file names with report-N (host names are kept by "
                  "default: operators need them)");
  merge->footer(
      "The node's name is its facts' host.hostname, else the file name without .json. A node with two reports "
      "counts once, by the newer.\n"
      "Examples:\n  rocmdoc fleet merge reports/\n"
      "  rocmdoc fleet merge --expect 'gpu[001-040]' --max-age 1h reports/\n"
      "Exit codes: 0 no node has an error, 1 a node has an error-severity problem, 2 usage error or no report "
      "was readable.");
  return merge;
}

int run_fleet_merge_command(const FleetMergeOptions& o, std::ostream& out, std::ostream& err) {
  FleetOptions options;
  options.now = static_cast<long long>(std::time(nullptr));
  options.redact = o.redact;
  if (!o.max_age.empty()) {
    auto age = parse_duration(o.max_age);
    if (!age) {
      err << "rocmdoc fleet merge: --max-age: " << age.error() << "\n";
      return kExitUsage;
    }
    options.max_age = *age;
  }
  if (!o.expect.empty()) {
    auto names = expand_names(o.expect);
    if (!names) {
      err << "rocmdoc fleet merge: --expect: " << names.error() << "\n";
      return kExitUsage;
    }
    options.expected = std::move(names.value());
  }
  FleetMerge merge(std::move(options));
  HostFileSystem fs("/");
  size_t readable = 0;
  auto read_one = [&](const std::string& path) {
    auto text = fs.read_file(absolute(path), kMaxReportBytes);
    if (!text) return merge.add_unreadable(path, text.error());
    auto report = read_check_report(*text);
    if (!report) return merge.add_unreadable(path, report.error());
    ++readable;
    merge.add(path, *report);
  };
  for (auto& input : o.inputs) {
    FileStat st = fs.stat_follow(absolute(input));
    if (st.type != FileType::directory) {
      read_one(input);
      continue;
    }
    auto entries = fs.list_dir(absolute(input));
    if (!entries) {
      merge.add_unreadable(input, entries.error());
      continue;
    }
    std::vector<std::string> names;
    for (auto& e : *entries)
      if (ends_with_json(e)) names.push_back(e);
    std::sort(names.begin(), names.end(), [](auto& a, auto& b) { return natural_less(a, b); });
    std::string dir = input.back() == '/' ? input : input + "/";
    for (auto& n : names) read_one(dir + n);
  }
  FleetSummary summary = merge.finish();
  if (o.json) out << render_fleet_json(summary).dump(2) << "\n";
  else out << wrap_to_width(render_fleet_text(summary, o.color), o.width);
  if (readable == 0) {
    err << "rocmdoc fleet merge: no readable report among " << summary.files << " file"
        << (summary.files == 1 ? "" : "s") << "\n";
    return kExitUsage;
  }
  return summary.any_error() ? kExitProblems : kExitOk;
}

}  // namespace rocmdoc
