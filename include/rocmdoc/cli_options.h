// Options shared by the commands that look at a machine.
#pragma once

#include <string>
#include <vector>

#include "rocmdoc/probe.h"

namespace rocmdoc {

struct MachineOptions {
  std::string root = "/";  // --root DIR
  ProbeOptions probe;      // --python PATH ...
  int verbosity = 0;       // -v
};

// Opens the live machine or the recorded one named by --root; a bad root
// is a usage error (the message says which path and why).
Result<std::unique_ptr<Machine>> open_machine(const MachineOptions& options);

}  // namespace rocmdoc
