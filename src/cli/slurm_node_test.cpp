#include "cli/slurm_node.h"

#include <cstdlib>
#include <deque>

#include "catch.h"

using namespace rocmdoc;
using namespace std::chrono_literals;

namespace {

// scontrol as a script: each call gets the next answer, and the argv is kept.
struct FakeScontrol : ProcessRunner {
  std::deque<ProcessResult> answers;
  std::vector<std::vector<std::string>> calls;
  ProcessResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) override {
    calls.push_back(argv);
    CHECK(timeout.count() > 0);
    if (answers.empty()) return ProcessResult{true, false, 0, "", "", "", false};
    ProcessResult r = answers.front();
    answers.pop_front();
    return r;
  }
  void says(const std::string& out, int code = 0) { answers.push_back({true, false, code, out, "", "", false}); }
};

// What scontrol 22.05 prints for a node (trimmed), with State and Reason as given.
std::string shown(const std::string& state, const std::string& reason = "") {
  std::string text =
      "NodeName=n1 Arch=x86_64 CoresPerSocket=1\n"
      "   CPUAlloc=0 CPUEfctv=1 CPUTot=1 CPULoad=0.00\n"
      "   State=" + state + " ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A\n"
      "   Partitions=test\n"
      "   BootTime=2026-12-01T13:24:25 SlurmdStartTime=2026-12-01T19:17:15\n";
  if (!reason.empty()) text += "   Reason=" + reason + " [root@2026-12-01T19:17:18]\n";
  return text;
}

auto soon() { return std::chrono::steady_clock::now() + 5s; }

}  // namespace

TEST_CASE("scontrol show node gives the state and the reason without who set it", "[slurm]") {
  auto s = parse_scontrol_show_node(shown("IDLE+DRAIN", "rocmdoc: amdgpu-blacklisted: amdgpu is blacklisted"));
  CHECK(s.state == "IDLE+DRAIN");
  CHECK(s.reason == "rocmdoc: amdgpu-blacklisted: amdgpu is blacklisted");
  CHECK(s.drained());
  CHECK(s.ours());

  auto idle = parse_scontrol_show_node(shown("IDLE"));
  CHECK(idle.state == "IDLE");
  CHECK(idle.reason.empty());
  CHECK_FALSE(idle.drained());
  CHECK_FALSE(idle.ours());

  auto other = parse_scontrol_show_node(shown("DOWN", "Not responding"));
  CHECK(other.drained());
  CHECK_FALSE(other.ours());
  // Only a reason that starts with it is rocmdoc's.
  CHECK_FALSE(parse_scontrol_show_node(shown("IDLE+DRAIN", "by hand, not rocmdoc: x")).ours());
}

TEST_CASE("an error drains a node that takes jobs, with rocmdoc's reason", "[slurm]") {
  FakeScontrol scontrol;
  scontrol.says(shown("IDLE"));
  scontrol.says("");
  NodeUpdate u = SlurmNode(scontrol, "n1", soon()).drain("rocmdoc: amdgpu-blacklisted: amdgpu is blacklisted");
  CHECK(u.ok);
  CHECK(u.changed);
  CHECK(u.said == "drained node n1");
  REQUIRE(scontrol.calls.size() == 2);
  CHECK(scontrol.calls[0] == std::vector<std::string>{"scontrol", "show", "node", "n1"});
  CHECK(scontrol.calls[1] == std::vector<std::string>{"scontrol", "update", "NodeName=n1", "State=DRAIN",
                                                      "Reason=rocmdoc: amdgpu-blacklisted: amdgpu is blacklisted"});
}

TEST_CASE("an error never takes over a node drained or down for another reason", "[slurm]") {
  for (auto [state, reason] : {std::pair{"IDLE+DRAIN", "maintenance by hand"}, std::pair{"DOWN", "Not responding"},
                               std::pair{"MIXED+DRAIN", ""}}) {
    FakeScontrol scontrol;
    scontrol.says(shown(state, reason));
    NodeUpdate u = SlurmNode(scontrol, "n1", soon()).drain("rocmdoc: x: y");
    CHECK(u.ok);
    CHECK_FALSE(u.changed);
    CHECK(scontrol.calls.size() == 1);  // only the show
    CHECK(u.said.find("left as it is") != std::string::npos);
  }
}

TEST_CASE("a node rocmdoc drained keeps its drain, with the reason brought up to date", "[slurm]") {
  FakeScontrol same;
  same.says(shown("IDLE+DRAIN", "rocmdoc: x: y"));
  NodeUpdate u = SlurmNode(same, "n1", soon()).drain("rocmdoc: x: y");
  CHECK_FALSE(u.changed);
  CHECK(u.said == "node n1 already drained");
  CHECK(same.calls.size() == 1);

  FakeScontrol other;
  other.says(shown("IDLE+DRAIN", "rocmdoc: x: y"));
  other.says("");
  u = SlurmNode(other, "n1", soon()).drain("rocmdoc: z: w");
  CHECK(u.changed);
  REQUIRE(other.calls.size() == 2);
  CHECK(other.calls[1].back() == "Reason=rocmdoc: z: w");
}

TEST_CASE("healthy resumes only a node rocmdoc drained", "[slurm]") {
  FakeScontrol ours;
  ours.says(shown("IDLE+DRAIN", "rocmdoc: amdgpu-blacklisted: amdgpu is blacklisted"));
  ours.says("");
  NodeUpdate u = SlurmNode(ours, "n1", soon()).resume_if_ours();
  CHECK(u.ok);
  CHECK(u.changed);
  CHECK(u.said == "resumed node n1 (drained by rocmdoc)");
  REQUIRE(ours.calls.size() == 2);
  CHECK(ours.calls[1] == std::vector<std::string>{"scontrol", "update", "NodeName=n1", "State=RESUME"});

  FakeScontrol theirs;
  theirs.says(shown("IDLE+DRAIN", "maintenance by hand"));
  u = SlurmNode(theirs, "n1", soon()).resume_if_ours();
  CHECK_FALSE(u.changed);
  CHECK(theirs.calls.size() == 1);
  CHECK(u.said == "node n1 left IDLE+DRAIN (not drained by rocmdoc: maintenance by hand)");

  FakeScontrol idle;
  idle.says(shown("IDLE"));
  u = SlurmNode(idle, "n1", soon()).resume_if_ours();
  CHECK_FALSE(u.changed);
  CHECK(u.said.empty());
  CHECK(idle.calls.size() == 1);
}

TEST_CASE("scontrol failing or missing is reported, and nothing further is tried", "[slurm]") {
  FakeScontrol down;
  down.answers.push_back({true, false, 1, "", "slurm_load_node error: Unable to contact slurm controller\n", "", false});
  NodeUpdate u = SlurmNode(down, "n1", soon()).drain("rocmdoc: x: y");
  CHECK_FALSE(u.ok);
  CHECK(u.said == "scontrol could not update node n1 (exit 1: slurm_load_node error: Unable to contact slurm controller)");
  CHECK(down.calls.size() == 1);

  FakeScontrol missing;
  missing.answers.push_back({false, false, -1, "", "", "scontrol: No such file or directory", false});
  u = SlurmNode(missing, "n1", soon()).resume_if_ours();
  CHECK_FALSE(u.ok);
  CHECK(u.said == "scontrol could not update node n1 (scontrol: No such file or directory)");

  FakeScontrol late;
  u = SlurmNode(late, "n1", std::chrono::steady_clock::now() - 1ms).drain("rocmdoc: x: y");
  CHECK_FALSE(u.ok);
  CHECK(late.calls.empty());  // no time left: scontrol is not even started
}

TEST_CASE("a drain reason is one line of at most 200 bytes, cut between characters", "[slurm]") {
  CHECK(drain_reason("rocmdoc: a\nb\tc") == "rocmdoc: a b c");
  std::string long_text = "rocmdoc: " + std::string(190, 'x') + "é" + std::string(20, 'y');
  std::string r = drain_reason(long_text);
  CHECK(r.size() <= 200);
  CHECK(r.substr(r.size() - 3) == "...");
  CHECK(r == "rocmdoc: " + std::string(188, 'x') + "...");
  // Byte 197 starts the second é: the first is kept whole.
  CHECK(drain_reason("rocmdoc: " + std::string(186, 'x') + "éé" + std::string(20, 'z')) ==
        "rocmdoc: " + std::string(186, 'x') + "é...");
  // Byte 197 is inside the é: it goes whole.
  CHECK(drain_reason("rocmdoc: " + std::string(187, 'x') + "é" + std::string(20, 'z')) ==
        "rocmdoc: " + std::string(187, 'x') + "...");
}

TEST_CASE("the node name is --node, else SLURMD_NODENAME, else the short host name", "[slurm]") {
  CHECK(slurm_node_name("given") == "given");
  ::setenv("SLURMD_NODENAME", "from-slurmd", 1);
  CHECK(slurm_node_name("") == "from-slurmd");
  ::unsetenv("SLURMD_NODENAME");
  std::string host = slurm_node_name("");
  CHECK_FALSE(host.empty());
  CHECK(host.find('.') == std::string::npos);
}
