// The machine being diagnosed, as the probes see it: its files, a way to
// run its tools, the user, and the environment variables that matter.
//
// A machine is live (this computer) or recorded (a tree under --root: an
// unpacked `rocmdoc snapshot`, a test fixture, or a raw capture made with
// shared/fixtures/capture-machine.sh). Probes cannot tell the difference
// except through `live`, which only decides *how* a fact is checked (try
// open() versus compare recorded modes), never *whether*.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/fact.h"
#include "platform/filesystem.h"
#include "platform/process_runner.h"
#include "base/result.h"

namespace rocmdoc {

struct UserIdentity {
  bool known = false;
  std::string unknown_reason;
  std::string name;                    // may be empty when the uid has no name
  uint32_t uid = 0;
  uint32_t gid = 0;
  std::vector<uint32_t> process_gids;  // the groups this process runs with
};

class Machine {
 public:
  std::unique_ptr<FileSystem> fs;
  std::unique_ptr<ProcessRunner> runner;
  UserIdentity user;
  bool live = true;
  std::string root = "/";
  // Where the recorded extras came from ("snapshot", "capture", "none").
  std::string recording_kind = "none";

  // An environment variable of the probed session: its value, null when it
  // is known to be unset, or unknown when the recording did not keep it.
  Json env(const std::string& name) const;
  // Variable names that are set, from those rocmdoc looks at.
  std::vector<std::string> env_names() const;
  void set_env(std::map<std::string, std::string> values, std::vector<std::string> recorded_patterns);

 private:
  std::map<std::string, std::string> env_;
  // Prefixes ("HSA", "PATH") of the names that were recorded; "*" = all.
  std::vector<std::string> recorded_patterns_{"*"};
};

// The environment variables rocmdoc reads: exact names, and prefixes
// ending in '*'. Only these are taken from the live environment and stored
// in snapshots, so a snapshot never carries unrelated secrets.
const std::vector<std::string>& relevant_environment();
bool is_relevant_environment(const std::string& name);

std::unique_ptr<Machine> open_live_machine();
// root: a directory mirroring '/'. Fails (a usage error) when it is not a
// directory or its sidecar is malformed.
Result<std::unique_ptr<Machine>> open_recorded_machine(const std::string& root);

// The sidecar of a snapshot, relative to its root: what files cannot hold
// (device nodes, the user, the environment, command outputs).
constexpr const char* kSidecarPath = "/.rocmdoc/machine.json";

}  // namespace rocmdoc
