#include "cli/cli_options.h"
#include "facts/facts_document.h"

namespace rocmdoc {

Result<std::unique_ptr<Machine>> open_machine(const MachineOptions& options) {
  if (options.root.empty() || options.root == "/") return Result<std::unique_ptr<Machine>>::ok(open_live_machine());
  return open_recorded_machine(options.root);
}

Result<MachineFacts> machine_facts(const MachineOptions& options, const std::string& facts_file) {
  using R = Result<MachineFacts>;
  if (!facts_file.empty()) {
    auto loaded = load_facts_file(facts_file);
    if (!loaded) return R::fail(loaded.error());
    return R::ok({*loaded, nullptr});
  }
  auto machine = open_machine(options);
  if (!machine) return R::fail(machine.error());
  Json facts = collect_facts(**machine, options.probe);
  return R::ok({std::move(facts), std::move(machine.value())});
}

}  // namespace rocmdoc
