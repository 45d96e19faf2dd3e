// Renderers for a check report: text in the style of `flutter doctor`
// (one line per area, details for problems, -v for everything, a summary)
// and a versioned JSON document (docs/check-json.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/knowledge.h"

namespace rocmdoc {

struct TextOptions {
  bool verbose = false;
  bool color = false;  // decided by the caller (--color, NO_COLOR, a terminal)
  bool quiet = false;  // only the areas with an error or a warning, only those findings, and the summary
};

// What `check --deep` ran (the facts' `deep` section) and, for each failure,
// the cause explain names on the same facts. cli/workloads.cpp judges them;
// the renderers only print.
struct WorkloadCause {
  std::string id, title, confidence, verdict;
};
struct Workload {
  std::string kind;     // torch | tool
  std::string name;     // the interpreter's path, or the tool's name
  bool ok = false;
  std::string summary;  // one line: what ran, or what failed
  std::string failure;  // the text explain read; empty when ok
  std::optional<WorkloadCause> cause;  // the best cause explain names that the facts leave open
};
struct WorkloadReport {
  bool ran = false;     // the deep section is known
  std::string reason;   // why it is not, when it is unknown
  std::string run_as;
  std::vector<Workload> workloads;
  std::vector<std::string> not_run;
  size_t failed() const;
};

// workloads: null when --deep was not asked for and the facts hold none
// (the report is then what it always was).
std::string render_text_report(const CheckReport& report, const TextOptions& options,
                               const WorkloadReport* workloads = nullptr);

// "the distribution's ROCm 6.4.2 installed (...)" where the distribution's
// own ROCm packages are installed and no AMD release is; "" otherwise.
std::string distribution_rocm(const Json& facts);

constexpr int kCheckJsonSchema = 1;
Json render_json_report(const CheckReport& report, const WorkloadReport* workloads = nullptr);

}  // namespace rocmdoc
