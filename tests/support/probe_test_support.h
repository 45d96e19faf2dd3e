// Test helper: run one probe on an in-memory machine.
#pragma once

#include <map>
#include <memory>

#include "memory_filesystem.h"
#include "probe/probe.h"

namespace rocmdoc::test {

// A command's recorded result: what a MemoryMachine returns for its argv.
inline ProcessResult tool_output(int exit_code, std::string out, std::string err = "") {
  ProcessResult r;
  r.started = true;
  r.exit_code = exit_code;
  r.out = std::move(out);
  r.err = std::move(err);
  return r;
}

struct MemoryMachine {
  Machine machine;
  MemoryFileSystem* fs;  // owned by machine
  ProbeOptions options;

  explicit MemoryMachine(std::map<std::string, std::string> env = {},
                         std::map<std::string, ProcessResult> commands = {}) {
    auto owned = std::make_unique<MemoryFileSystem>();
    fs = owned.get();
    machine.fs = std::move(owned);
    machine.runner = std::make_unique<RecordedProcessRunner>(std::move(commands));
    machine.live = false;
    machine.recording_kind = "snapshot";  // device nodes count as recorded
    machine.set_env(std::move(env), {"*"});
  }
  Json run(ProbeFunction probe, const Json& facts = Json::object()) {
    ProbeContext ctx(machine, options);
    return probe(ctx, facts);
  }
};

}  // namespace rocmdoc::test
