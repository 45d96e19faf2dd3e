#include "output/prometheus_report.h"
#include "base/json_text.h"

#include <fmt/format.h>

#include <set>
#include <tuple>

#include "base/fact.h"

namespace rocmdoc {

namespace {

// HELP and TYPE once per family, then its samples: the format wants a
// family's samples together, after its metadata.
void family(std::string& out, const char* name, const char* help) {
  out += fmt::format("# HELP {} {}\n# TYPE {} gauge\n", name, help, name);
}

std::string label_text(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null() || is_unknown(value)) return "unknown";
  return json_text(value);
}

// Finite seconds with millisecond precision; the format takes Go floats.
std::string seconds(double s) { return fmt::format("{:.3f}", s); }

void run_metrics(std::string& out, const PrometheusRun& run, bool success) {
  family(out, "rocmdoc_check_success", "1 when rocmdoc check ran (whatever it found), 0 when it could not run.");
  out += fmt::format("rocmdoc_check_success {}\n", success ? 1 : 0);
  family(out, "rocmdoc_check_last_run_timestamp_seconds", "Unix time when rocmdoc check last finished.");
  out += fmt::format("rocmdoc_check_last_run_timestamp_seconds {}\n", seconds(run.finished_at));
  family(out, "rocmdoc_check_duration_seconds", "How long rocmdoc check took, probes and rules.");
  out += fmt::format("rocmdoc_check_duration_seconds {}\n", seconds(run.duration));
}

}  // namespace

std::string prometheus_label_value(const std::string& value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string render_prometheus_report(const CheckReport& report, const PrometheusRun& run) {
  std::string out;
  family(out, "rocmdoc_check_finding",
         "1 for each problem rocmdoc check finds on this machine; `rocmdoc check` shows its evidence and fix.");
  // A rule that fires for several GPUs is one series: the same labels twice
  // would be a duplicate the collector rejects.
  std::set<std::string> seen;
  for (auto& o : report.outcomes) {
    if (o.findings.empty() || !seen.insert(o.rule->id).second) continue;
    out += fmt::format("rocmdoc_check_finding{{id=\"{}\",severity=\"{}\",area=\"{}\"}} 1\n",
                       prometheus_label_value(o.rule->id), severity_name(o.rule->severity),
                       prometheus_label_value(o.rule->area));
  }
  family(out, "rocmdoc_check_problems", "Findings of rocmdoc check by severity (every severity, 0 included).");
  for (auto [name, count] : {std::pair{"error", report.errors}, {"warning", report.warnings}, {"info", report.infos}})
    out += fmt::format("rocmdoc_check_problems{{severity=\"{}\"}} {}\n", name, count);
  family(out, "rocmdoc_gpu_info", "Each AMD GPU rocmdoc sees, with its PCI address, gfx target and name; always 1.");
  std::set<std::tuple<std::string, std::string, std::string>> gpus;
  if (const Json& list = field(report.facts, "gpus"); list.is_array())
    for (auto& g : list)
      gpus.emplace(label_text(field(g, "address")), label_text(field(g, "gfx")), label_text(field(g, "name")));
  for (auto& [address, gfx, name] : gpus)
    out += fmt::format("rocmdoc_gpu_info{{address=\"{}\",gfx=\"{}\",name=\"{}\"}} 1\n", prometheus_label_value(address),
                       prometheus_label_value(gfx), prometheus_label_value(name));
  run_metrics(out, run, true);
  return out;
}

std::string render_prometheus_failure(const PrometheusRun& run) {
  std::string out;
  run_metrics(out, run, false);
  return out;
}

}  // namespace rocmdoc
