#include <chrono>
#include <fmt/format.h>

#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "facts/facts_document.h"

namespace rocmdoc {

int run_facts_command(const MachineOptions& options, const std::string& output_file, std::ostream& out,
                      std::ostream& err) {
  auto machine = open_machine(options);
  if (!machine) {
    err << "rocmdoc: " << machine.error() << "\n";
    return kExitUsage;
  }
  std::vector<ProbeTiming> timings;
  auto started = std::chrono::steady_clock::now();
  Json facts = collect_facts(**machine, options.probe, &timings);
  std::chrono::duration<double, std::milli> wall = std::chrono::steady_clock::now() - started;
  if (options.verbosity > 0) {
    double sum = 0;
    for (auto& t : timings) {
      err << fmt::format("probe {:<12} {:8.2f} ms\n", t.probe, t.milliseconds);
      sum += t.milliseconds;
    }
    err << fmt::format("probes sum   {:8.2f} ms\nprobes wall  {:8.2f} ms\n", sum, wall.count());
  }
  std::string text = facts_to_string(facts) + "\n";
  return emit_document(text, output_file, out, err);
}

}  // namespace rocmdoc
