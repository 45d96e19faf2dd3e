#include <memory>
#include <vector>

#include "platform/atomic_file.h"
#include "rules/knowledge.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/workloads.h"
#include "facts/facts_document.h"
#include "output/text_report.h"

namespace rocmdoc {

void print_load_errors(const std::vector<LoadError>& errors, std::ostream& err) {
  for (auto& e : errors) err << e.str() << "\n";
  err << "rocmdoc: " << errors.size() << " error" << (errors.size() == 1 ? "" : "s")
      << " in the rules; nothing was checked\n";
}

int run_check_command(const MachineOptions& machine_options, const CheckOptions& options, std::ostream& out,
                      std::ostream& err) {
  // The rules first: with broken ones nothing is checked, so the machine
  // need not be read.
  Knowledge knowledge = load_knowledge({options.rules_dir});
  if (!knowledge.errors.empty()) {
    print_load_errors(knowledge.errors, err);
    return kExitUsage;
  }
  if (machine_options.probe.deep && !options.facts_file.empty()) {
    err << "rocmdoc: --deep runs the workloads on a machine; a facts file keeps what ran when it was saved "
           "(rocmdoc facts --deep -o FILE), and check --facts FILE reports it\n";
    return kExitUsage;
  }
  auto loaded = machine_facts(machine_options, options.facts_file);
  if (!loaded) {
    err << "rocmdoc: " << loaded.error() << "\n";
    return kExitUsage;
  }
  Json facts = std::move(loaded.value().facts);
  std::optional<std::string> rocm;
  if (!options.rocm.empty()) {
    if (knowledge.matrix->release(options.rocm).is_null()) {
      err << "rocmdoc: --rocm " << options.rocm << " is not a release in the matrix (as of "
          << knowledge.matrix->as_of() << "); see rules/matrix/rocm-releases.yaml\n";
      return kExitUsage;
    }
    rocm = options.rocm;
  }
  CheckReport report = run_check(std::move(facts), knowledge, rocm);
  // The workloads are reported when they were asked for, or when a facts
  // file holds them; otherwise the report is the plain one.
  std::optional<WorkloadReport> workloads;
  const Json& deep = field(report.facts, "deep");
  if (machine_options.probe.deep || (deep.is_object() && !is_unknown(deep)))
    workloads = judge_workloads(report.facts, knowledge);
  const WorkloadReport* w = workloads ? &*workloads : nullptr;
  if (options.json) out << facts_to_string(render_json_report(report, w)) << "\n";
  else out << render_text_report(report, {machine_options.verbosity > 0, options.color}, w);
  bool failed = w && w->failed() > 0;
  return report.has_problems() || failed ? kExitProblems : kExitOk;
}

}  // namespace rocmdoc
