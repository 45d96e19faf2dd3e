#include "rocmdoc/cli_options.h"

namespace rocmdoc {

Result<std::unique_ptr<Machine>> open_machine(const MachineOptions& options) {
  if (options.root.empty() || options.root == "/") return Result<std::unique_ptr<Machine>>::ok(open_live_machine());
  return open_recorded_machine(options.root);
}

}  // namespace rocmdoc
