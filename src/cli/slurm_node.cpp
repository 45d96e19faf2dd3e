#include "cli/slurm_node.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <vector>


namespace rocmdoc {

namespace {

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// What scontrol said when it failed, in one clause.
std::string failure(const std::string& node, const ProcessResult& r) {
  std::string why;
  if (!r.started) why = r.error;
  else if (r.timed_out) why = "timed out";
  else {
    std::string text = !r.err.empty() ? r.err : r.out;
    auto line_end = text.find('\n');
    why = "exit " + std::to_string(r.exit_code) + (text.empty() ? "" : ": " + text.substr(0, line_end));
  }
  return "scontrol could not update node " + node + " (" + why + ")";
}

}  // namespace

bool SlurmNodeStatus::drained() const {
  for (const char* word : {"DRAIN", "DOWN", "FAIL"})
    if (state.find(word) != std::string::npos) return true;
  return false;
}

bool SlurmNodeStatus::ours() const { return starts_with(reason, kDrainReasonPrefix); }

SlurmNodeStatus parse_scontrol_show_node(const std::string& text) {
  SlurmNodeStatus status;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos) continue;
    std::string body = line.substr(start);
    if (starts_with(body, "Reason=")) {
      status.reason = body.substr(7);
      // scontrol shows who set it and when: "maintenance [root@2026-12-01T19:17:18]".
      size_t at = status.reason.rfind(" [");
      if (at != std::string::npos && !status.reason.empty() && status.reason.back() == ']')
        status.reason.erase(at);
      continue;
    }
    // State= is one of several Key=Value words on its line.
    std::istringstream words(body);
    std::string word;
    while (words >> word)
      if (starts_with(word, "State=")) status.state = word.substr(6);
  }
  return status;
}

std::string slurm_node_name(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* slurmd = std::getenv("SLURMD_NODENAME"); slurmd && *slurmd) return slurmd;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) return "";
  std::string name = host;
  return name.substr(0, name.find('.'));
}

std::string drain_reason(const std::string& text) {
  constexpr size_t kMax = 200;
  std::string out;
  for (char c : text) out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ' ' : c;
  if (out.size() <= kMax) return out;
  size_t cut = kMax - 3;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  return out.substr(0, cut) + "...";
}

ProcessResult SlurmNode::scontrol(std::vector<std::string> args) {
  args.insert(args.begin(), "scontrol");
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now());
  if (left.count() <= 0) {
    ProcessResult r;
    r.started = true;
    r.timed_out = true;
    r.error = "no time left";
    return r;
  }
  return runner_.run(args, left);
}

bool SlurmNode::read(SlurmNodeStatus& status, NodeUpdate& failed) {
  ProcessResult r = scontrol({"show", "node", name_});
  if (!r.succeeded()) {
    failed = {false, false, failure(name_, r)};
    return false;
  }
  status = parse_scontrol_show_node(r.out);
  if (status.state.empty()) {
    failed = {false, false, "scontrol show node " + name_ + " gave no State="};
    return false;
  }
  return true;
}

NodeUpdate SlurmNode::drain(const std::string& reason) {
  NodeUpdate update;
  SlurmNodeStatus status;
  if (!read(status, update)) return update;
  if (status.drained() && !status.ours())
    return {true, false, "node " + name_ + " left as it is (" + status.state + ", reason: " +
                             (status.reason.empty() ? "none" : status.reason) + ")"};
  if (status.drained() && status.reason == reason) return {true, false, "node " + name_ + " already drained"};
  ProcessResult r = scontrol({"update", "NodeName=" + name_, "State=DRAIN", "Reason=" + reason});
  if (!r.succeeded()) return {false, false, failure(name_, r)};
  return {true, true, "drained node " + name_};
}

NodeUpdate SlurmNode::resume_if_ours() {
  NodeUpdate update;
  SlurmNodeStatus status;
  if (!read(status, update)) return update;
  if (!status.drained()) return {true, false, ""};
  if (!status.ours())
    return {true, false, "node " + name_ + " left " + status.state + " (not drained by rocmdoc: " +
                             (status.reason.empty() ? "no reason" : status.reason) + ")"};
  ProcessResult r = scontrol({"update", "NodeName=" + name_, "State=RESUME"});
  if (!r.succeeded()) return {false, false, failure(name_, r)};
  return {true, true, "resumed node " + name_ + " (drained by rocmdoc)"};
}

}  // namespace rocmdoc
