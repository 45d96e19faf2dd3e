// Options shared by the commands that look at a machine.
#pragma once

#include <string>
#include <vector>

#include "probe/probe.h"

namespace rocmdoc {

struct MachineOptions {
  std::string root = "/";  // --root DIR
  ProbeOptions probe;      // --python PATH ...
  int verbosity = 0;       // -v
};

// Opens the live machine or the recorded one named by --root; a bad root
// is a usage error (the message says which path and why).
Result<std::unique_ptr<Machine>> open_machine(const MachineOptions& options);

// The facts a command works on: read from `facts_file` (--facts) when it is
// set, else probed on the machine --root names, which is kept for commands
// that look further (null with a facts file).
struct MachineFacts {
  Json facts;
  std::unique_ptr<Machine> machine;
};
Result<MachineFacts> machine_facts(const MachineOptions& options, const std::string& facts_file);

}  // namespace rocmdoc
