// A check report as Prometheus metrics in the text exposition format, the
// format node_exporter's textfile collector reads (docs/fleet.md): one
// series per active finding, the problem counts per severity, the GPUs,
// and when and how long check ran. No sample timestamps: the collector
// rejects them.
#pragma once

#include <string>

#include "rules/knowledge.h"

namespace rocmdoc {

struct PrometheusRun {
  double finished_at = 0;  // Unix time in seconds when check finished
  double duration = 0;     // seconds check took, probes and rules
};

std::string render_prometheus_report(const CheckReport& report, const PrometheusRun& run);

// What to write when check could not run (bad rules, an unreadable root):
// rocmdoc_check_success 0 and the time, so an alert fires instead of the
// last good file lingering.
std::string render_prometheus_failure(const PrometheusRun& run);

// A label value escaped as the format requires: backslash, double quote
// and line feed.
std::string prometheus_label_value(const std::string& value);

}  // namespace rocmdoc
