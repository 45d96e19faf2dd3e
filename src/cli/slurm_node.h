// What `check --health-check --drain` does to this node in Slurm, through
// scontrol (an argv with a timeout, never a shell): drain it for an error,
// resume it when healthy, but only a drain rocmdoc made itself. A node an
// administrator drained (or that Slurm set down) for another reason is never
// resumed, nor its reason overwritten.
#pragma once

#include <chrono>
#include <string>

#include "platform/process_runner.h"

namespace rocmdoc {

// Every reason rocmdoc sets starts with this; it is how a later run knows
// the drain is its own.
constexpr const char* kDrainReasonPrefix = "rocmdoc:";

// From `scontrol show node NAME`: State= (IDLE, IDLE+DRAIN, DOWN+DRAIN, ...)
// and Reason= (which runs to the end of its line; scontrol adds
// " [user@time]", dropped here).
struct SlurmNodeStatus {
  std::string state;
  std::string reason;
  bool drained() const;  // DRAIN (draining or drained), DOWN or FAIL: not taking jobs
  bool ours() const;     // the reason is rocmdoc's
};
SlurmNodeStatus parse_scontrol_show_node(const std::string& text);

// The node's name for scontrol: `given` (--node), else SLURMD_NODENAME (set
// by slurmd for its HealthCheckProgram), else this computer's short host name.
std::string slurm_node_name(const std::string& given);

// A reason Slurm keeps on one line: control characters become spaces, at
// most 200 bytes (never cutting a UTF-8 character).
std::string drain_reason(const std::string& text);

struct NodeUpdate {
  bool ok = true;       // false: scontrol failed; `said` tells why
  bool changed = false; // drained, resumed, or its reason replaced
  std::string said;     // one clause for the health line: "drained node n1", "node n1 left drained: ..."
};

// The scontrol calls; each gets what is left of `deadline`.
class SlurmNode {
 public:
  SlurmNode(ProcessRunner& runner, std::string name, std::chrono::steady_clock::time_point deadline)
      : runner_(runner), name_(std::move(name)), deadline_(deadline) {}
  // An error was found: drain with `reason` (drain_reason(...), starting with
  // kDrainReasonPrefix) unless someone else's drain holds the node.
  NodeUpdate drain(const std::string& reason);
  // Healthy: resume the node if rocmdoc drained it; otherwise leave it.
  NodeUpdate resume_if_ours();

 private:
  ProcessResult scontrol(std::vector<std::string> args);
  bool read(SlurmNodeStatus& status, NodeUpdate& failed);
  ProcessRunner& runner_;
  std::string name_;
  std::chrono::steady_clock::time_point deadline_;
};

}  // namespace rocmdoc
