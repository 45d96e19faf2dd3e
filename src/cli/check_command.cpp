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

namespace {

// `check` ends the process right after it reports. Freeing the rules, the
// matrix, the facts and the report object by object first (~20k small
// allocations) costs ~10% of a run, and the kernel frees the whole heap at
// once anyway. So they are moved here and left: reachable from a static,
// which leak checkers accept.
struct KeptUntilExit {
  Knowledge knowledge;
  CheckReport report;
  MachineFacts machine;
};

void keep_until_exit(Knowledge knowledge, CheckReport report, MachineFacts machine) {
  static auto* kept = new std::vector<std::unique_ptr<KeptUntilExit>>;
  kept->push_back(std::make_unique<KeptUntilExit>(
      KeptUntilExit{std::move(knowledge), std::move(report), std::move(machine)}));
}

}  // namespace

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
  int exit_code = report.has_problems() ? kExitProblems : kExitOk;
  keep_until_exit(std::move(knowledge), std::move(report), std::move(loaded.value()));
  return exit_code;
}

}  // namespace rocmdoc
