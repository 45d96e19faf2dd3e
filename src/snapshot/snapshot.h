// `rocmdoc snapshot`: probe the live machine through a recording layer,
// then write what the probes touched (files, links, device nodes, tool
// outputs, the user and environment) as a tree that `--root` reads back to
// the same facts (docs/snapshot.md).
#pragma once

#include <string>

#include "machine/machine.h"
#include "probe/probe.h"
#include "platform/recording_filesystem.h"
#include "snapshot/redaction.h"

namespace rocmdoc {

struct SnapshotSummary {
  size_t files = 0;
  size_t links = 0;
  size_t directories = 0;
  size_t nodes = 0;
  size_t commands = 0;
};

// Writes the tree for what `log` says was touched on `live` into `dir`
// (which must exist and be empty), sidecar included.
Result<SnapshotSummary> write_snapshot_tree(FileSystem& live, const AccessLog& log, const Machine& machine,
                                            const std::map<std::string, ProcessResult>& commands,
                                            const Redactor& redactor, const std::string& dir);

// The redaction for this machine: the user, SUDO_USER and every human
// account in /etc/passwd or group member lists become user, user2, ...;
// the host name becomes "host".
Redactor redactor_for(FileSystem& live, const Machine& machine, const std::string& hostname);

}  // namespace rocmdoc
