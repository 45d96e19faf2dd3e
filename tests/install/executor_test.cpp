#include <algorithm>
#include <set>

#include "catch.h"
#include "executor_world.h"
#include "cli/exit_codes.h"
#include "install/plan/planner.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {

// Says yes or no from a list (then no), and remembers what it was asked.
struct ScriptedConsent : Consent {
  std::vector<bool> answers;
  std::vector<std::string> asked;
  explicit ScriptedConsent(std::vector<bool> a) : answers(std::move(a)) {}
  bool ask(const PlanStep& step) override {
    asked.push_back(step.id);
    if (answers.empty()) return false;
    bool answer = answers.front();
    answers.erase(answers.begin());
    return answer;
  }
};

const std::vector<std::string> kFullChanges = {
    "run apt-get install -y curl gnupg",
    "download https://repo.radeon.com/rocm/rocm.gpg.key -> /var/lib/rocmdoc/rocm.gpg.key",
    "dearmor /var/lib/rocmdoc/rocm.gpg.key -> /etc/apt/keyrings/rocm.gpg",
    "write /etc/apt/sources.list.d/rocm.list",
    "run usermod -a -G render,video alex",
    "run apt-get install -y amdgpu-dkms",
    "run apt-get install -y rocm",
};

// Runs to the end, rebooting when asked (at most twice).
void run_to_end(World& w) {
  for (int boots = 2; boots < 5; ++boots) {
    auto r = w.run_yes();
    if (r.outcome == RunOutcome::finished) return;
    REQUIRE(r.outcome == RunOutcome::reboot_needed);
    w.reboot("boot-" + std::to_string(boots));
  }
  FAIL("the plan did not finish");
}

Journal journal_of(World& w) {
  auto j = read_journal(w.fs, w.paths.journal);
  REQUIRE(j);
  return *j;
}

}  // namespace

TEST_CASE("a run stops at the reboot, and the next boot carries on", "[executor]") {
  World w;
  auto first = w.run_yes();
  CHECK(first.outcome == RunOutcome::reboot_needed);
  CHECK(first.step == "reboot");
  CHECK(exit_code_for(first) == kExitRebootNeeded);
  CHECK(journal_of(w).reboot_requested_in_boot == "boot-1");
  CHECK(first.steps_run == 5);
  CHECK(first.steps_skipped == 1);

  // Run again without rebooting: it waits, asks nothing, changes nothing.
  ScriptedConsent consent({});
  auto again = w.run(consent);
  CHECK(again.outcome == RunOutcome::reboot_needed);
  CHECK(consent.asked.empty());

  w.reboot("boot-2");
  auto second = w.run_yes();
  CHECK(second.outcome == RunOutcome::finished);
  CHECK(exit_code_for(second) == kExitOk);
  CHECK(w.changer.changes(w.paths) == kFullChanges);

  Journal j = journal_of(w);
  std::vector<std::string> ids;
  for (auto& e : j.done) ids.push_back(e.step);
  CHECK(ids == std::vector<std::string>{"os", "apt-base", "key", "rocm-list", "groups", "amdgpu-dkms", "reboot",
                                        "driver-loaded", "rocm"});
  CHECK(j.done.back().boot_id == "boot-2");
  CHECK(j.done.front().boot_id == "boot-1");

  // A third run finds everything done and changes nothing.
  size_t calls = w.changer.changes(w.paths).size();
  auto third = w.run_yes();
  CHECK(third.outcome == RunOutcome::finished);
  CHECK(third.steps_run == 0);
  CHECK(third.steps_skipped == w.plan.steps.size());
  CHECK(w.changer.changes(w.paths).size() == calls);
}

TEST_CASE("progress shows n/m, titles and the output's tail, and the log keeps everything", "[executor]") {
  World w;
  auto r = w.run_yes();
  std::string p = w.progress.str();
  CHECK(p.find("[1/9] Step os: already done") != std::string::npos);
  CHECK(p.find("[2/9] Step apt-base\n") != std::string::npos);
  CHECK(p.find("    | Setting up gnupg (2.4.4) ...") != std::string::npos);
  CHECK(p.find("done in ") != std::string::npos);
  REQUIRE(starts_with(r.log, "/var/log/rocmdoc/install-"));
  auto log = w.fs.read_file(r.log);
  REQUIRE(log);
  CHECK(log->find("Building for 6.8.0-49-generic") != std::string::npos);
  CHECK(log->find("Setting up amdgpu-dkms") != std::string::npos);
}

TEST_CASE("on a terminal the running step is a status line, and the same run's events are all there", "[executor]") {
  World w;
  YesConsent yes;
  ProgressStyle live;
  live.live = true;
  live.width = 60;
  auto r = run_plan(w.plan, w.m.machine, w.changer, yes, w.paths, w.progress, live);
  CHECK(r.outcome == RunOutcome::reboot_needed);
  std::string p = w.progress.str();
  INFO(p);
  // Skipped steps are lines as before; a running step is redrawn in place
  // with its command and clock, then its result replaces it.
  CHECK(p.find("[1/9] Step os: already done") != std::string::npos);
  CHECK(p.find("\r\033[K[2/9] Step apt-base … 0:00") != std::string::npos);
  CHECK(p.find("\r\033[K[2/9] Step apt-base: apt-get install -y curl gnupg … 0:00") != std::string::npos);
  CHECK(p.find("\r\033[K[2/9] Step apt-base: done in 0:00\n") != std::string::npos);
  CHECK(p.find("[7/9] Step reboot: reboot needed (0:00)\n") != std::string::npos);
  // The command's last lines are the log's (and a failure's report), not the screen's.
  CHECK(p.find("    | ") == std::string::npos);
  CHECK(p.find("    done in") == std::string::npos);
  // Nothing is left on the status line: the text ends with a newline.
  CHECK(p.back() == '\n');
  auto log = w.fs.read_file(r.log);
  REQUIRE(log);
  CHECK(log->find("Setting up gnupg (2.4.4) ...") != std::string::npos);
}

TEST_CASE("consent: each changing step is asked, and a no stops with nothing changed", "[executor]") {
  World w;
  SECTION("yes to all") {
    ScriptedConsent consent({true, true, true, true, true, true});
    CHECK(w.run(consent).outcome == RunOutcome::reboot_needed);
    CHECK(consent.asked == std::vector<std::string>{"apt-base", "key", "rocm-list", "groups", "amdgpu-dkms", "reboot"});
  }
  SECTION("no at the first change") {
    auto before = w.machine_files();
    ScriptedConsent consent({false});
    auto r = w.run(consent);
    CHECK(r.outcome == RunOutcome::declined);
    CHECK(r.step == "apt-base");
    CHECK(exit_code_for(r) == kExitDeclined);
    CHECK(w.changer.changes(w.paths).empty());
    CHECK(w.machine_files() == before);
  }
  SECTION("no at the third: the first two stay done and recorded") {
    ScriptedConsent consent({true, true, false});
    auto r = w.run(consent);
    CHECK(r.outcome == RunOutcome::declined);
    CHECK(r.step == "rocm-list");
    CHECK(w.changer.changes(w.paths).size() == 3);
    CHECK(journal_of(w).done.size() == 3);  // os, apt-base, key
  }
  SECTION("no terminal and no --yes: refused, nothing changed") {
    auto before = w.machine_files();
    NoTerminalConsent none;
    auto r = w.run(none);
    CHECK(r.outcome == RunOutcome::declined);
    CHECK(w.changer.changes(w.paths).empty());
    CHECK(w.machine_files() == before);
  }
}

TEST_CASE("the terminal prompt shows the step and its changes, and only y or yes is yes", "[executor]") {
  PlanStep step = small_plan().steps[3];  // rocm-list
  for (auto [input, expected] : std::vector<std::pair<std::string, bool>>{
           {"y\n", true}, {"YES\n", true}, {" yes \n", true}, {"n\n", false}, {"\n", false}, {"", false}, {"yess\n", false}}) {
    std::istringstream in(input);
    std::ostringstream out;
    TerminalConsent consent(in, out);
    CHECK(consent.ask(step) == expected);
    CHECK(out.str().find("Step rocm-list (as root)") != std::string::npos);
    CHECK(out.str().find("/etc/apt/sources.list.d/rocm.list") != std::string::npos);
    CHECK(out.str().find("[y/N]") != std::string::npos);
  }
  std::istringstream in;
  std::ostringstream out;
  CHECK(dynamic_cast<YesConsent*>(choose_consent(true, false, in, out).get()));
  CHECK(dynamic_cast<TerminalConsent*>(choose_consent(false, true, in, out).get()));
  CHECK(dynamic_cast<NoTerminalConsent*>(choose_consent(false, false, in, out).get()));
}

TEST_CASE("a failing command stops the run with the step, the command and its output", "[executor]") {
  World w;
  w.changer.commands["apt-get install -y amdgpu-dkms"] = {
      100, "Building module:\nError! Bad return status for module build on kernel: 6.8.0-49-generic (x86_64)\n"
           "Consult /var/lib/dkms/amdgpu/6.16.13/build/make.log for more information.\n", nullptr};
  auto r = w.run_yes();
  CHECK(r.outcome == RunOutcome::failed);
  CHECK(exit_code_for(r) == kExitStepFailed);
  CHECK(r.step == "amdgpu-dkms");
  CHECK(r.message.find("`apt-get install -y amdgpu-dkms` exited 100") != std::string::npos);
  CHECK(r.message.find("Consult /var/lib/dkms/amdgpu/6.16.13/build/make.log") != std::string::npos);
  Journal j = journal_of(w);
  REQUIRE(j.done.size() == 5);
  CHECK(j.done.back().step == "groups");
  CHECK(w.fs.read_file(r.log)->find("Bad return status") != std::string::npos);

  // Fixed, a re-run carries on from the failed step and repeats nothing.
  w.changer.commands["apt-get install -y amdgpu-dkms"] = {
      0, "", [](MemoryFileSystem& f) { add_package(f, "amdgpu-dkms", "1:6.16.13.30300400-2278356.24.04"); }};
  CHECK(w.run_yes().outcome == RunOutcome::reboot_needed);
  w.reboot("boot-2");
  CHECK(w.run_yes().outcome == RunOutcome::finished);
  auto changes = w.changer.changes(w.paths);
  CHECK(std::count(changes.begin(), changes.end(), "run apt-get install -y amdgpu-dkms") == 2);
  CHECK(std::count(changes.begin(), changes.end(), "run usermod -a -G render,video alex") == 1);
}

TEST_CASE("a command that cannot start, and a step its actions do not finish", "[executor]") {
  World w;
  w.changer.commands.erase("usermod -a -G render,video alex");
  auto r = w.run_yes();
  CHECK(r.outcome == RunOutcome::failed);
  CHECK(r.step == "groups");
  CHECK(r.message.find("could not run") != std::string::npos);

  World v;
  v.changer.commands["apt-get install -y rocm"].effect = [](MemoryFileSystem& f) { add_package(f, "rocm", "7.1.0-1"); };
  CHECK(v.run_yes().outcome == RunOutcome::reboot_needed);
  v.reboot("boot-2");
  auto after = v.run_yes();
  CHECK(after.outcome == RunOutcome::failed);
  CHECK(after.step == "rocm");
  CHECK(after.message == "its actions ran, but it is still not done: rocm 7.1.0-1 is installed, not 7.2.4*");
}

TEST_CASE("a gate that is not done stops the run with its reason", "[executor]") {
  World w;
  w.fs.file("/etc/os-release", "");
  w.plan.steps[0].checks[0].path = "/etc/missing-os-release";
  auto r = w.run_yes();
  CHECK(r.outcome == RunOutcome::failed);
  CHECK(r.step == "os");
  CHECK(r.message == "Step os: /etc/missing-os-release does not exist");
  CHECK(w.changer.changes(w.paths).empty());
}

TEST_CASE("a key with another fingerprint is refused before it is used", "[executor]") {
  World w;
  w.changer.downloads[kKeyUrl] = fake_key("0000000000000000000000000000000000000BAD");
  auto r = w.run_yes();
  CHECK(r.outcome == RunOutcome::failed);
  CHECK(r.step == "key");
  CHECK(r.message.find("not " + std::string(kKeyFpr)) != std::string::npos);
  auto changes = w.changer.changes(w.paths);
  CHECK(std::none_of(changes.begin(), changes.end(), [](auto& c) { return starts_with(c, "dearmor"); }));
  CHECK_FALSE(w.fs.exists("/etc/apt/keyrings/rocm.gpg"));
}

TEST_CASE("dearmor re-checks the key file it is about to use", "[executor]") {
  World w;
  // The downloaded file is swapped between download and dearmor.
  w.changer.after_change = [&](const std::string& call) {
    if (starts_with(call, "download ")) w.fs.file("/var/lib/rocmdoc/rocm.gpg.key", fake_key("EVIL"));
  };
  auto r = w.run_yes();
  CHECK(r.outcome == RunOutcome::failed);
  CHECK(r.message.find("has the fingerprint EVIL") != std::string::npos);
  CHECK_FALSE(w.fs.exists("/etc/apt/keyrings/rocm.gpg"));
}

TEST_CASE("a corrupt journal is an input error and nothing runs", "[executor]") {
  for (std::string bad : std::vector<std::string>{"{", "[]", "{\"format\":1}", "{\"format\":1,\"plan_key\":\"x\",\"done\":[{\"step\":3}]}",
                          std::string("\0\xff\xfe", 3), "{\"format\":99,\"plan_key\":\"x\",\"done\":[]}"}) {
    World w;
    w.fs.file(w.paths.journal, bad);
    auto r = w.run_yes();
    CHECK(r.input_error);
    CHECK(exit_code_for(r) == kExitUsage);
    CHECK(r.message.find(w.paths.journal) != std::string::npos);
    CHECK(w.changer.calls.empty());
    CHECK(w.fs.read_file(w.paths.journal).value() == bad);  // left for the user to look at
  }
  World unreadable;
  unreadable.fs.fail(unreadable.paths.journal, "permission denied");
  CHECK(unreadable.run_yes().input_error);
}

TEST_CASE("the journal round-trips and another plan starts afresh", "[executor]") {
  Journal j;
  j.plan_key = "ubuntu 24.04 rocm-7.2.4";
  j.started_at = "2026-11-30T02:00:00Z";
  j.reboot_requested_in_boot = "b1";
  j.done = {{"os", "2026-11-30T02:00:01Z", "b1"}, {"key", "2026-11-30T02:00:02Z", "b1"}};
  MemoryFileSystem fs;
  fs.file("/j.json", journal_to_string(j));
  auto back = read_journal(fs, "/j.json");
  REQUIRE(back);
  CHECK(back->plan_key == j.plan_key);
  CHECK(back->reboot_requested_in_boot == "b1");
  REQUIRE(back->done.size() == 2);
  CHECK(back->done[1].step == "key");
  CHECK(read_journal(fs, "/missing.json")->done.empty());

  World w;
  CHECK(w.run_yes().outcome == RunOutcome::reboot_needed);
  w.plan.rocm = "7.2.3";  // another plan: the reboot request of the old one does not count
  w.reboot("boot-2");
  w.plan.steps.back().checks[0].value = "7.2";
  auto r = w.run_yes();
  CHECK(r.outcome == RunOutcome::reboot_needed);
  CHECK(journal_of(w).plan_key == plan_key(w.plan));
}

TEST_CASE("killed at any point, a re-run finishes the same and repeats no action", "[executor]") {
  World reference;
  run_to_end(reference);
  auto expected_files = reference.machine_files();
  REQUIRE(reference.changer.changes(reference.paths) == kFullChanges);
  // Every change, the journal's and the log's included (reading a key's
  // fingerprints changes nothing).
  size_t points = std::count_if(reference.changer.calls.begin(), reference.changer.calls.end(),
                                [](const std::string& c) { return !starts_with(c, "fingerprints "); });

  for (size_t k = 0; k < points; ++k) {
    DYNAMIC_SECTION("killed after change " << k) {
      World w;
      size_t seen = 0;
      bool killed = false;
      std::string killed_call;
      w.changer.after_change = [&](const std::string& call) {
        if (!killed && seen++ == k) {
          killed = true;
          killed_call = call;
          throw Killed();
        }
      };
      try {
        run_to_end(w);
      } catch (const Killed&) {
        run_to_end(w);
      }
      REQUIRE(killed);
      auto changes = w.changer.changes(w.paths);
      if (killed_call == "write " + w.paths.journal) {
        CHECK(changes == kFullChanges);  // at a step boundary: nothing is repeated
      } else {
        // Inside a step: only that step's own actions may run again (the
        // key's download before its dearmor), nothing else.
        CHECK(std::set<std::string>(changes.begin(), changes.end()) ==
              std::set<std::string>(kFullChanges.begin(), kFullChanges.end()));
        CHECK(changes.size() <= kFullChanges.size() + 1);
      }
      CHECK(w.machine_files() == expected_files);
    }
  }
}

static std::vector<std::string> journal_steps(World& w) {
  std::vector<std::string> ids;
  for (auto& e : journal_of(w).done) ids.push_back(e.step);
  return ids;
}

TEST_CASE("a journal that cannot be written stops the run, keeps what it held, and the next run carries on",
          "[executor]") {
  World reference;
  run_to_end(reference);
  World w;
  // The disk under the journal fills up after two records (os, apt-base).
  int writes = 0;
  w.changer.after_change = [&](const std::string& call) {
    if (call == "write " + w.paths.journal && ++writes == 2)
      w.changer.failing_writes[w.paths.journal] = w.paths.journal + ": write: No space left on device";
  };
  auto before = w.fs.read_file(w.paths.journal);
  auto r = w.run_yes();
  CHECK(r.outcome == RunOutcome::failed);
  CHECK(exit_code_for(r) == kExitStepFailed);
  CHECK(r.step == "key");
  CHECK(r.message ==
        "the journal /var/lib/rocmdoc/install.json could not be written (/var/lib/rocmdoc/install.json: write: No space "
        "left on device): key is done but not recorded. It still holds what earlier steps recorded: free space there (or "
        "make it writable), then run the same command again");
  CHECK(journal_steps(w) == std::vector<std::string>{"os", "apt-base"});
  // Nothing ran after the step whose record failed.
  CHECK(w.changer.changes(w.paths).back() == "dearmor /var/lib/rocmdoc/rocm.gpg.key -> /etc/apt/keyrings/rocm.gpg");

  // Space again: the key is found done by its check, nothing is repeated.
  w.changer.failing_writes.clear();
  run_to_end(w);
  CHECK(w.changer.changes(w.paths) == kFullChanges);
  CHECK(w.machine_files() == reference.machine_files());
  CHECK(journal_steps(w) == journal_steps(reference));
}

TEST_CASE("a reboot request the journal cannot keep stops the run as failed: not a reboot", "[executor]") {
  World w;
  // Full once amdgpu-dkms is recorded: the next write is the reboot request.
  w.changer.after_change = [&](const std::string& call) {
    if (call == "write " + w.paths.journal && w.fs.read_file(w.paths.journal)->find("amdgpu-dkms") != std::string::npos)
      w.changer.failing_writes[w.paths.journal] = w.paths.journal + ": write: No space left on device";
  };
  auto r = w.run_yes();
  CHECK(r.outcome == RunOutcome::failed);
  CHECK(exit_code_for(r) == kExitStepFailed);
  CHECK(r.step == "reboot");
  CHECK(r.message.find("the reboot request is not recorded, so do not reboot yet") != std::string::npos);
  CHECK(journal_of(w).reboot_requested_in_boot.empty());

  w.changer.after_change = nullptr;
  w.changer.failing_writes.clear();
  auto again = w.run_yes();
  CHECK(again.outcome == RunOutcome::reboot_needed);
  CHECK(journal_of(w).reboot_requested_in_boot == "boot-1");
}

TEST_CASE("the journal is written only when it changes", "[executor]") {
  World w;
  auto writes = [&] { return std::count(w.changer.calls.begin(), w.changer.calls.end(), "write " + w.paths.journal); };
  CHECK(w.run_yes().outcome == RunOutcome::reboot_needed);
  // os, apt-base, key, rocm-list, groups, amdgpu-dkms, then the reboot request.
  CHECK(writes() == 7);
  CHECK(w.run_yes().outcome == RunOutcome::reboot_needed);  // not rebooted: nothing new to record
  CHECK(writes() == 7);
  w.reboot("boot-2");
  CHECK(w.run_yes().outcome == RunOutcome::finished);
  CHECK(writes() == 10);  // reboot (its request cleared), driver-loaded, rocm
  CHECK(w.run_yes().outcome == RunOutcome::finished);
  CHECK(writes() == 10);
}

TEST_CASE("a step without checks runs once: the journal remembers it", "[executor]") {
  World w;
  w.plan.steps.push_back(make_step("verify", {}, {run_action({"rocminfo"}, true)}));
  w.changer.commands["alex$ rocminfo"] = {0, "Name: gfx1100\n", nullptr};
  // Killed right after each step's journal write: at every step boundary.
  for (int kill_at_journal_write = 1; kill_at_journal_write <= 12; ++kill_at_journal_write) {
    World v;
    v.plan = w.plan;
    v.changer.commands = w.changer.commands;
    int writes = 0;
    v.changer.after_change = [&](const std::string& call) {
      if (call == "write " + v.paths.journal && ++writes == kill_at_journal_write) throw Killed();
    };
    try {
      run_to_end(v);
    } catch (const Killed&) {
      run_to_end(v);
    }
    auto changes = v.changer.changes(v.paths);
    CHECK(std::count(changes.begin(), changes.end(), "run alex$ rocminfo") == 1);
    CHECK(std::set<std::string>(changes.begin(), changes.end()).size() == changes.size());
  }
}

TEST_CASE("the log names a command before it runs (a power cut during it leaves that much)", "[executor]") {
  World w;
  std::string log_while_running;
  auto& dkms = w.changer.commands["apt-get install -y amdgpu-dkms"];
  auto effect = dkms.effect;
  dkms.effect = [&](MemoryFileSystem& f) {
    auto logs = f.list_dir(w.paths.log_dir);
    REQUIRE(logs);
    REQUIRE(logs->size() == 1);
    log_while_running = *f.read_file(w.paths.log_dir + "/" + logs->front());
    effect(f);
  };
  w.run_yes();
  CHECK(log_while_running.find("amdgpu-dkms: ") != std::string::npos);
  CHECK(log_while_running.find("run apt-get install -y amdgpu-dkms") != std::string::npos);
}

TEST_CASE("a key file holding another key beside the right one is refused", "[executor]") {
  World w;
  // gpg --dearmor would put both into the keyring, and apt would trust both.
  w.changer.downloads[kKeyUrl] = fake_key(kKeyFpr) + fake_key("0000000000000000000000000000000000000BAD");
  auto r = w.run_yes();
  CHECK(r.outcome == RunOutcome::failed);
  CHECK(r.step == "key");
  CHECK(r.message.find("holds 2 keys") != std::string::npos);
  CHECK_FALSE(w.fs.exists("/etc/apt/keyrings/rocm.gpg"));
}

TEST_CASE("no key is downloaded, let alone used, without a fingerprint to check it against", "[executor]") {
  World w;
  w.plan.steps[2].actions[0].fingerprint = "";
  w.plan.steps[2].checks[0].value = "";
  auto r = w.run_yes();
  CHECK(r.outcome == RunOutcome::failed);
  CHECK(r.step == "key");
  CHECK(r.message.find("no fingerprint to check") != std::string::npos);
  auto changes = w.changer.changes(w.paths);
  CHECK(std::none_of(changes.begin(), changes.end(), [](auto& c) { return starts_with(c, "download") || starts_with(c, "dearmor"); }));
}

TEST_CASE("a blocked plan (an unconfirmed key) does not run at all", "[executor]") {
  World w;
  w.plan.blocked = InstallRefusal{"key-not-confirmed", "the key's fingerprint is not known", "--trust-key"};
  auto r = w.run_yes();
  CHECK(r.input_error);
  CHECK(r.message.find("the key's fingerprint is not known") != std::string::npos);
  CHECK(r.steps_run == 0);
  CHECK(w.changer.calls.empty());  // not even the journal or the log
}

namespace {

// small_plan with the steps a plan has where the running kernel (6.8 here)
// is not one the release lists: install a listed 7.0 and reboot into it.
void add_kernel_steps(World& w) {
  using K = StepCheck::Kind;
  w.fs.file("/proc/sys/kernel/osrelease", "6.8.0-49-generic\n");
  StepAction reboot;
  reboot.kind = StepAction::Kind::reboot;
  auto at = w.plan.steps.begin() + 2;  // after apt-base, as the planner puts them
  at = w.plan.steps.insert(at, make_step("listed-kernel",
                                         {make_check(K::packages_installed, "", {"linux-generic-hwe-24.04"})},
                                         {run_action({"apt-get", "install", "-y", "linux-generic-hwe-24.04"})}));
  PlanStep kernel_reboot = make_step("kernel-reboot",
                                     {make_check(K::file_has_line, "/proc/sys/kernel/osrelease", {}, "(?:7\\.0)(?:[.-].*)?")},
                                     {reboot});
  kernel_reboot.if_still_not_done = "choose the listed kernel in GRUB's menu, or run with --keep-kernel";
  w.plan.steps.insert(at + 1, kernel_reboot);
  w.changer.commands["apt-get install -y linux-generic-hwe-24.04"] = {
      0, "", [](MemoryFileSystem& f) { add_package(f, "linux-generic-hwe-24.04", "7.0.0.10.10~24.04.1"); }};
}

}  // namespace

TEST_CASE("a kernel-reboot the plan made after it no longer has does not stand in for the driver's reboot", "[executor]") {
  World w;
  add_kernel_steps(w);
  auto first = w.run_yes();
  REQUIRE(first.outcome == RunOutcome::reboot_needed);
  CHECK(first.step == "kernel-reboot");
  CHECK(journal_of(w).reboot_requested_by == "kernel-reboot");
  // The listed kernel boots; the plan made on it has no kernel steps.
  w.reboot("boot-2");
  w.fs.file("/proc/sys/kernel/osrelease", "7.0.0-10-generic\n");
  w.plan = small_plan();
  auto second = w.run_yes();
  // The driver's own reboot is still asked for: the first one was the kernel's.
  CHECK(second.outcome == RunOutcome::reboot_needed);
  CHECK(second.step == "reboot");
  CHECK(journal_of(w).reboot_requested_in_boot == "boot-2");
  CHECK(journal_of(w).reboot_requested_by == "reboot");
  w.reboot("boot-3");
  auto third = w.run_yes();
  CHECK(third.outcome == RunOutcome::finished);
  CHECK(journal_of(w).reboot_requested_by.empty());
}

namespace {

// With add_kernel_steps' plan: the kernel-reboot asks for its reboot, and
// GRUB boots the 6.8 again (a newer kernel installed beside it, a pinned
// default). The next run stops at kernel-reboot, not done; its report.
RunReport run_after_reboot_into_the_same_kernel(World& w) {
  REQUIRE(w.run_yes().outcome == RunOutcome::reboot_needed);
  w.reboot("boot-2");
  auto r = w.run_yes();
  CHECK(r.outcome == RunOutcome::failed);
  CHECK(r.step == "kernel-reboot");
  CHECK(r.message.find("the machine rebooted, and Step kernel-reboot is still not done") != std::string::npos);
  return r;
}

}  // namespace

TEST_CASE("a reboot that did not boot the listed kernel stops the run with the way on, not another reboot", "[executor]") {
  World w;
  add_kernel_steps(w);
  auto second = run_after_reboot_into_the_same_kernel(w);
  // The way on is the step's own, in parentheses at the end.
  CHECK(second.message.find(" (choose the listed kernel in GRUB's menu, or run with --keep-kernel)") != std::string::npos);
  // The request stays: the same message again, never a reboot loop.
  auto third = w.run_yes();
  CHECK(third.outcome == RunOutcome::failed);
  CHECK(third.message == second.message);
  // Once the listed kernel runs, the run carries on.
  w.reboot("boot-3");
  w.fs.file("/proc/sys/kernel/osrelease", "7.0.0-10-generic\n");
  auto fourth = w.run_yes();
  CHECK(fourth.outcome == RunOutcome::reboot_needed);
  CHECK(fourth.step == "reboot");
}

TEST_CASE("a reboot step still not done after its reboot, without a way on of its own, gets none appended", "[executor]") {
  // The same stop with and without the step's if_still_not_done: the
  // executor adds nothing of its own for the kernel-reboot.
  auto stop_message = [](bool way_on) {
    World w;
    add_kernel_steps(w);
    for (auto& s : w.plan.steps)
      if (s.id == "kernel-reboot" && !way_on) s.if_still_not_done.clear();
    return run_after_reboot_into_the_same_kernel(w).message;
  };
  std::string without = stop_message(false);
  CHECK(without.find("keep-kernel") == std::string::npos);
  CHECK(without.find("GRUB") == std::string::npos);
  CHECK(stop_message(true) == without + " (choose the listed kernel in GRUB's menu, or run with --keep-kernel)");
}

TEST_CASE("with --keep-kernel while the kernel's reboot is pending: the driver's reboot takes the request over", "[executor]") {
  World w;
  add_kernel_steps(w);
  REQUIRE(w.run_yes().outcome == RunOutcome::reboot_needed);
  // Same boot, the plan made again with --keep-kernel: no kernel steps.
  w.plan = small_plan();
  auto second = w.run_yes();
  CHECK(second.outcome == RunOutcome::reboot_needed);
  CHECK(second.step == "reboot");
  CHECK(journal_of(w).reboot_requested_by == "reboot");
  // One reboot is enough: the driver's step counts it.
  w.reboot("boot-2");
  auto third = w.run_yes();
  CHECK(third.outcome == RunOutcome::finished);
}

TEST_CASE("a driver built after the reboot it took over needs a reboot of its own", "[executor]") {
  // --keep-kernel in the boot kernel-reboot asked for, then the reboot boots
  // the listed kernel that run installed: the driver is built again for it
  // (its check no longer holds), and the reboot before that does not count.
  World w;
  auto mark_dkms = [&] {  // as the planner marks it
    for (auto& s : w.plan.steps)
      if (s.id == "amdgpu-dkms") s.reboot_after = true;
  };
  add_kernel_steps(w);
  mark_dkms();
  REQUIRE(w.run_yes().outcome == RunOutcome::reboot_needed);
  w.plan = small_plan();
  mark_dkms();
  REQUIRE(w.run_yes().outcome == RunOutcome::reboot_needed);
  w.reboot("boot-2");
  std::string status = w.fs.read_file("/var/lib/dpkg/status").value_or("");
  size_t at = status.find("\nPackage: amdgpu-dkms\n");
  REQUIRE(at != std::string::npos);
  w.fs.file("/var/lib/dpkg/status", status.substr(0, at));  // not built for the kernel booted now
  auto after = w.run_yes();
  CHECK(after.outcome == RunOutcome::reboot_needed);
  CHECK(after.step == "reboot");
  w.reboot("boot-3");
  CHECK(w.run_yes().outcome == RunOutcome::finished);
}

TEST_CASE("a journal without reboot_requested_by (written before it) is read as before", "[executor]") {
  World w;
  w.fs.file(w.paths.journal, "{\"format\": 1, \"plan_key\": \"x\", \"reboot_requested_in_boot\": \"b0\", \"done\": []}\n");
  auto j = read_journal(w.fs, w.paths.journal);
  REQUIRE(j);
  CHECK(j->reboot_requested_in_boot == "b0");
  CHECK(j->reboot_requested_by.empty());
  CHECK(journal_to_string(*j).find("reboot_requested_by") == std::string::npos);

  // A reboot asked for by a rocmdoc before the field, pending across the
  // upgrade: the next boot still counts for the driver's reboot step.
  World v;
  REQUIRE(v.run_yes().outcome == RunOutcome::reboot_needed);
  Journal old = journal_of(v);
  REQUIRE(old.reboot_requested_by == "reboot");
  old.reboot_requested_by.clear();
  v.fs.file(v.paths.journal, journal_to_string(old));
  v.reboot("boot-2");
  auto after = v.run_yes();
  CHECK(after.outcome == RunOutcome::finished);
}
