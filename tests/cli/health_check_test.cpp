// check --health-check [--drain] as Slurm's HealthCheckProgram runs it: on
// the recorded machines, with scontrol answered by a script (the real one is
// tests/slurm/slurm_health_check.sh).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <sstream>

#include "catch.h"
#include "cli/health_check_command.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;
using namespace std::chrono_literals;

namespace {

struct FakeScontrol : ProcessRunner {
  std::deque<std::string> shows;  // what each `scontrol show node` prints
  std::vector<std::vector<std::string>> calls;
  ProcessResult run(const std::vector<std::string>& argv, std::chrono::milliseconds) override {
    calls.push_back(argv);
    ProcessResult r{true, false, 0, "", "", "", false};
    if (argv.size() > 1 && argv[1] == "show" && !shows.empty()) r.out = shows.front(), shows.pop_front();
    return r;
  }
  std::vector<std::vector<std::string>> updates() const {
    std::vector<std::vector<std::string>> u;
    for (auto& c : calls)
      if (c.size() > 1 && c[1] == "update") u.push_back(c);
    return u;
  }
};

std::string node_shown(const std::string& state, const std::string& reason = "") {
  std::string text = "NodeName=n1 Arch=x86_64\n   State=" + state + " ThreadsPerCore=1\n";
  if (!reason.empty()) text += "   Reason=" + reason + " [root@2026-12-01T19:17:18]\n";
  return text;
}

struct Run {
  int code;
  std::string out, err;
};
Run health(const std::string& machine, HealthCheckOptions options, FakeScontrol& scontrol) {
  MachineOptions m;
  m.root = machine_root(machine);
  CheckOptions c;
  std::ostringstream out, err;
  options.enabled = true;
  int code = run_health_check_command(m, c, options, scontrol, out, err);
  return {code, out.str(), err.str()};
}

HealthCheckOptions draining(const std::string& node = "n1") {
  HealthCheckOptions o;
  o.drain = true;
  o.node = node;
  return o;
}

size_t lines(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

TEST_CASE("health check: an error is one line and exit 1, and --drain drains with rocmdoc's reason", "[health-check]") {
  FakeScontrol scontrol;
  scontrol.shows.push_back(node_shown("IDLE"));
  Run r = health("desktop-amdgpu-not-loaded", draining(), scontrol);
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK(lines(r.out) == 1);
  CHECK(r.err.empty());
  CHECK(r.out.rfind("rocmdoc: ERROR amdgpu-blacklisted: ", 0) == 0);
  CHECK(r.out.find("; drained node n1\n") != std::string::npos);
  auto updates = scontrol.updates();
  REQUIRE(updates.size() == 1);
  CHECK(updates[0][2] == "NodeName=n1");
  CHECK(updates[0][3] == "State=DRAIN");
  CHECK(updates[0][4].rfind("Reason=rocmdoc: amdgpu-blacklisted: ", 0) == 0);
}

TEST_CASE("health check: a healthy machine is exit 0, and --drain resumes only rocmdoc's drain", "[health-check]") {
  FakeScontrol plain;
  Run r = health("ubuntu2404-rx7900xtx", {}, plain);
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(r.out.rfind("rocmdoc: healthy (0 errors, ", 0) == 0);
  CHECK(lines(r.out) == 1);
  CHECK(plain.calls.empty());  // no --drain: Slurm is not asked anything

  FakeScontrol ours;
  ours.shows.push_back(node_shown("IDLE+DRAIN", "rocmdoc: amdgpu-blacklisted: amdgpu is blacklisted"));
  r = health("ubuntu2404-rx7900xtx", draining(), ours);
  CHECK(r.code == 0);
  CHECK(r.out.find("; resumed node n1 (drained by rocmdoc)\n") != std::string::npos);
  REQUIRE(ours.updates().size() == 1);
  CHECK(ours.updates()[0] == std::vector<std::string>{"scontrol", "update", "NodeName=n1", "State=RESUME"});

  FakeScontrol theirs;
  theirs.shows.push_back(node_shown("IDLE+DRAIN", "maintenance by hand"));
  r = health("ubuntu2404-rx7900xtx", draining(), theirs);
  CHECK(r.code == 0);
  CHECK(theirs.updates().empty());
  CHECK(r.out.find("not drained by rocmdoc: maintenance by hand") != std::string::npos);
}

TEST_CASE("health check: warnings alone never drain", "[health-check]") {
  // The RX 6600 behind the chipset: four warnings (atomics, the x4 link, ...), no error.
  FakeScontrol scontrol;
  scontrol.shows.push_back(node_shown("IDLE"));
  Run r = health("chipset-bridge-no-atomics", draining(), scontrol);
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.rfind("rocmdoc: healthy (0 errors, ", 0) == 0);
  CHECK(r.out.find(" 0 warnings") == std::string::npos);
  CHECK(scontrol.updates().empty());
}

TEST_CASE("health check: a check that hangs is killed at the timeout, one line, exit 1, and drains", "[health-check]") {
  ScratchDir dir;
  std::string fifo = (dir.path / "hung").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  FakeScontrol scontrol;
  scontrol.shows.push_back(node_shown("IDLE"));
  HealthCheckOptions options = draining();
  options.enabled = true;
  options.timeout_seconds = 1;
  std::ostringstream out;
  auto started = std::chrono::steady_clock::now();
  // A blocking open of a FIFO nobody writes: stuck in the kernel, as a read
  // of a hung GPU's sysfs file is.
  int code = run_health_check(
      options,
      [&] {
        int fd = ::open(fifo.c_str(), O_RDONLY);
        if (fd >= 0) ::close(fd);
        return Json{{"errors", Json::array()}, {"warnings", 0}, {"infos", 0}};
      },
      scontrol, out);
  auto took = std::chrono::steady_clock::now() - started;
  CHECK(code == 1);
  CHECK(out.str() ==
        "rocmdoc: TIMEOUT the check did not finish in 1 s (a probe hung: a stuck GPU, driver or filesystem read?); "
        "drained node n1\n");
  CHECK(took < 1500ms);  // the whole run, scontrol included, within the timeout (and a little)
  auto updates = scontrol.updates();
  REQUIRE(updates.size() == 1);
  CHECK(updates[0][4] == "Reason=rocmdoc: timeout: the check did not finish in 1 s");
}

TEST_CASE("health check: input errors are exit 2 and never drain", "[health-check]") {
  FakeScontrol scontrol;
  MachineOptions m;
  m.root = "/nonexistent/rocmdoc-root";
  CheckOptions c;
  HealthCheckOptions o = draining();
  o.enabled = true;
  std::ostringstream out, err;
  CHECK(run_health_check_command(m, c, o, scontrol, out, err) == 2);
  CHECK(out.str().rfind("rocmdoc: cannot check: ", 0) == 0);
  CHECK(out.str().find("/nonexistent/rocmdoc-root") != std::string::npos);
  CHECK(scontrol.calls.empty());

  auto drain_alone = run_rocmdoc({"check", "--drain", "--root", machine_root("ubuntu2404-rx7900xtx")});
  CHECK(drain_alone.exit_code == 2);
  CHECK(drain_alone.err == "rocmdoc: --drain, --timeout and --node go with --health-check\n");
  auto with_json = run_rocmdoc({"check", "--health-check", "--json"});
  CHECK(with_json.exit_code == 2);
  auto bad_timeout = run_rocmdoc({"check", "--health-check", "--timeout", "0"});
  CHECK(bad_timeout.exit_code == 2);
}

TEST_CASE("health check: the built binary prints one line", "[health-check]") {
  auto broken = run_rocmdoc({"check", "--health-check", "--root", machine_root("desktop-amdgpu-not-loaded")});
  CHECK(broken.exit_code == 1);
  CHECK(lines(broken.out) == 1);
  CHECK(broken.out.rfind("rocmdoc: ERROR amdgpu-blacklisted: ", 0) == 0);
  auto healthy = run_rocmdoc({"check", "--health-check", "--timeout", "30", "--root", machine_root("ubuntu2404-rx7900xtx")});
  CHECK(healthy.exit_code == 0);
  CHECK(lines(healthy.out) == 1);
}
