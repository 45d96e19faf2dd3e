#include <chrono>
#include <filesystem>
#include <memory>
#include <vector>

#include "platform/atomic_file.h"
#include "platform/host_filesystem.h"
#include "rules/knowledge.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/workloads.h"
#include "facts/facts_document.h"
#include "output/prometheus_report.h"
#include "output/terminal_wrap.h"
#include "output/text_report.h"

namespace rocmdoc {

namespace {

enum class Format { text, json, prometheus };

// --json is --format json; --textfile writes Prometheus metrics. Any other
// mix names two outputs for one report.
Result<Format> chosen_format(const CheckOptions& options) {
  using R = Result<Format>;
  std::string f = options.format;
  if (options.json && !f.empty() && f != "json") return R::fail("--json and --format " + f + " exclude each other");
  if (options.json) f = "json";
  if (!options.textfile.empty()) {
    if (!f.empty() && f != "prometheus")
      return R::fail("--textfile writes Prometheus metrics; --format " + f + " would print another report");
    return R::ok(Format::prometheus);
  }
  if (f == "json") return R::ok(Format::json);
  if (f == "prometheus") return R::ok(Format::prometheus);
  return R::ok(Format::text);
}

// DIR/rocmdoc.prom, when DIR is a directory and the file is absent or a
// regular file: a link or a device there is not rocmdoc's to replace (the
// textfile directory is often writable by more than root).
Result<std::string> textfile_path(const std::string& dir) {
  using R = Result<std::string>;
  HostFileSystem fs("/");
  std::error_code ec;
  std::string absolute = std::filesystem::absolute(dir, ec).string();
  if (ec) absolute = dir;
  FileStat d = fs.stat_follow(absolute);
  if (d.type != FileType::directory)
    return R::fail("--textfile " + dir + ": " + (d.type == FileType::missing ? (d.error.empty() ? "no such directory" : d.error)
                                                                              : "not a directory"));
  std::string path = dir + (dir.back() == '/' ? "" : "/") + "rocmdoc.prom";
  FileStat f = fs.stat(absolute + (absolute.back() == '/' ? "" : "/") + "rocmdoc.prom");
  if (f.type != FileType::missing && f.type != FileType::regular)
    return R::fail(path + ": is a " + file_type_name(f.type) + ", not a regular file; nothing written");
  return R::ok(path);
}

// Checked again just before the write: check takes a while, and
// write_file_atomically writes into a FIFO or device it finds there
// (for -o /dev/null) rather than refusing it.
Result<bool> write_textfile(const std::string& dir, const std::string& metrics) {
  auto path = textfile_path(dir);
  if (!path) return Result<bool>::fail(path.error());
  return write_file_atomically(path.value(), metrics);
}

double unix_now() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

void print_load_errors(const std::vector<LoadError>& errors, std::ostream& err) {
  for (auto& e : errors) err << e.str() << "\n";
  err << "rocmdoc: " << errors.size() << " error" << (errors.size() == 1 ? "" : "s")
      << " in the rules; nothing was checked\n";
}

int run_check_command(const MachineOptions& machine_options, const CheckOptions& options, std::ostream& out,
                      std::ostream& err) {
  auto started = std::chrono::steady_clock::now();
  auto format = chosen_format(options);
  if (!format) {
    err << "rocmdoc check: " << format.error() << "\n";
    return kExitUsage;
  }
  if (options.quiet && *format != Format::text) {
    err << "rocmdoc check: --quiet shortens the text report; --json, --format and --textfile print everything\n";
    return kExitUsage;
  }
  const std::string& textfile = options.textfile;
  if (!textfile.empty()) {
    auto path = textfile_path(textfile);
    if (!path) {
      err << "rocmdoc: " << path.error() << "\n";
      return kExitUsage;
    }
  }
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  // With --textfile a check that cannot run still says so in the file
  // (rocmdoc_check_success 0), so the scrape shows it.
  auto failed_run = [&] {
    if (!textfile.empty()) (void)write_textfile(textfile, render_prometheus_failure({unix_now(), elapsed()}));
    return kExitUsage;
  };
  // The rules first: with broken ones nothing is checked, so the machine
  // need not be read.
  Knowledge knowledge = load_knowledge({options.rules_dir});
  if (!knowledge.errors.empty()) {
    print_load_errors(knowledge.errors, err);
    return failed_run();
  }
  if (machine_options.probe.deep && !options.facts_file.empty()) {
    err << "rocmdoc: --deep runs the workloads on a machine; a facts file keeps what ran when it was saved "
           "(rocmdoc facts --deep -o FILE), and check --facts FILE reports it\n";
    return kExitUsage;
  }
  auto loaded = machine_facts(machine_options, options.facts_file);
  if (!loaded) {
    err << "rocmdoc: " << loaded.error() << "\n";
    return failed_run();
  }
  Json facts = std::move(loaded.value().facts);
  std::optional<std::string> rocm;
  if (!options.rocm.empty()) {
    rocm = knowledge.matrix->resolve_release(options.rocm);
    if (!rocm) {
      err << "rocmdoc: --rocm " << options.rocm << " is not a release in the matrix (as of "
          << knowledge.matrix->as_of() << "); `rocmdoc rules info` names the newest release of each line\n";
      return failed_run();
    }
  }
  // The text goes to a terminal: a recorded tree or a facts file from
  // someone else must not reach it with escape sequences (a window title,
  // a cleared screen, hidden text), in the header or in a rendered finding.
  // JSON keeps the bytes; its escaping makes them harmless.
  if (!options.json) facts = printable_strings(facts);
  CheckReport report = run_check(std::move(facts), knowledge, rocm);
  // The workloads are reported when they were asked for, or when a facts
  // file holds them; otherwise the report is the plain one.
  std::optional<WorkloadReport> workloads;
  const Json& deep = field(report.facts, "deep");
  if (machine_options.probe.deep || (deep.is_object() && !is_unknown(deep)))
    workloads = judge_workloads(report.facts, knowledge);
  const WorkloadReport* w = workloads ? &*workloads : nullptr;
  bool failed = w && w->failed() > 0;
  if (*format == Format::prometheus) {
    std::string metrics = render_prometheus_report(report, {unix_now(), elapsed()});
    if (textfile.empty()) {
      out << metrics;
    } else if (auto written = write_textfile(textfile, metrics); !written) {
      err << "rocmdoc: " << written.error() << "\n";
      return kExitUsage;
    }
  } else if (*format == Format::json) {
    out << facts_to_string(render_json_report(report, w)) << "\n";
  } else {
    TextOptions text;
    text.verbose = machine_options.verbosity > 0;
    text.quiet = options.quiet;
    text.color = options.color;
    out << wrap_to_width(render_text_report(report, text, w), options.width);
  }
  return report.has_problems() || failed ? kExitProblems : kExitOk;
}

}  // namespace rocmdoc
