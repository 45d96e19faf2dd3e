#include <memory>
#include <vector>

#include "platform/atomic_file.h"
#include "rules/knowledge.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
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
  if (options.json) out << facts_to_string(render_json_report(report)) << "\n";
  else out << render_text_report(report, {machine_options.verbosity > 0, options.color});
  return report.has_problems() ? kExitProblems : kExitOk;
}

}  // namespace rocmdoc
