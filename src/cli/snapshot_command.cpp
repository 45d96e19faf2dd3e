#include "rocmdoc/commands.h"
#include "rocmdoc/exit_codes.h"

namespace rocmdoc {

int run_snapshot_command(const MachineOptions&, const SnapshotOptions&, std::ostream&, std::ostream& err) {
  err << "rocmdoc: snapshot is not written yet\n";
  return kExitUsage;
}

}  // namespace rocmdoc
