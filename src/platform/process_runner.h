// Running a tool: always an argv, never a shell string, always a timeout.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <string_view>
#include <string>
#include <vector>

namespace rocmdoc {

struct ProcessResult {
  bool started = false;     // false: not found, not executable, or not recorded
  bool timed_out = false;   // killed after the timeout
  int exit_code = -1;       // valid when started && !timed_out
  std::string out;          // stdout (capped, see kMaxProcessOutput)
  std::string err;          // stderr (capped)
  std::string error;        // why it did not start or did not finish
  // A recorded machine holds no output for this argv: nothing is known of
  // how it would have gone (not the same as a recorded failure to start).
  bool not_recorded = false;
  bool succeeded() const { return started && !timed_out && exit_code == 0; }
};

// Output past this is dropped (and said in `error`): no probe needs more,
// and a runaway tool must not eat memory.
constexpr size_t kMaxProcessOutput = 8 * 1024 * 1024;

struct StreamOptions {
  std::chrono::milliseconds timeout{0};  // 0: none
  bool inherit_stdin = false;            // false: stdin is /dev/null
  bool own_process_group = true;         // so a timeout kills its children; false keeps Ctrl-C reaching it
  // SIGINT, SIGTERM and SIGHUP sent to rocmdoc go to the child while it
  // runs (signals.h), so `kill PID` does not leave the command running.
  bool forward_signals = false;
  // > 0: the sink also gets (0, "") when this long has passed without a
  // call, so a caller can move a clock while the command is silent.
  std::chrono::milliseconds heartbeat{0};
};
// Receives output as it comes: stream 1 is stdout, 2 is stderr (0, with no
// data, is the heartbeat).
using OutputSink = std::function<void(int stream, std::string_view data)>;

// posix_spawnp (never a shell), streaming the child's output to `sink`.
// The result has no out/err: the sink got them.
ProcessResult stream_process(const std::vector<std::string>& argv, const StreamOptions& options,
                             const OutputSink& sink);

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  virtual ProcessResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) = 0;
};

// posix_spawnp with pipes, stdin from /dev/null, SIGKILL on timeout.
class SystemProcessRunner : public ProcessRunner {
 public:
  ProcessResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) override;
};

// Answers from recorded outputs, keyed by the argv joined with spaces; an
// argv that was not recorded did not start ("not recorded").
class RecordedProcessRunner : public ProcessRunner {
 public:
  explicit RecordedProcessRunner(std::map<std::string, ProcessResult> recorded) : recorded_(std::move(recorded)) {}
  ProcessResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) override;
  static std::string key(const std::vector<std::string>& argv);

 private:
  std::map<std::string, ProcessResult> recorded_;
};

}  // namespace rocmdoc
