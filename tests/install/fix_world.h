// rocmdoc fix applied on the user-not-in-render fixture without touching
// this computer: the recorded machine, whose `test -w` (the fix's verify)
// answers as the fake usermod left the group, and a FakeChanger over an
// in-memory scratch filesystem for the journal and the log.
#pragma once

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "catch.h"
#include "cli/fix_command.h"
#include "executor_fake.h"
#include "machine/machine.h"
#include "test_support.h"

namespace rocmdoc::test {

constexpr const char* kFixFixture = "user-not-in-render";
constexpr const char* kFixId = "device-node-not-accessible";

struct FixRun {
  int code = -1;
  std::string out, err;
};

// The recorded machine's commands, plus `test -w` answering as the group
// membership in `fixed` says (what usermod changes).
class GroupAwareRunner : public ProcessRunner {
 public:
  GroupAwareRunner(std::unique_ptr<ProcessRunner> recorded, const bool& fixed) : recorded_(std::move(recorded)), fixed_(fixed) {}
  ProcessResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) override {
    auto words = argv;
    if (words.size() > 4 && words[0] == "runuser") words.erase(words.begin(), words.begin() + 4);
    if (!words.empty() && words[0] == "test") {
      asked.push_back(joined(argv));
      ProcessResult r;
      r.started = true;
      r.exit_code = fixed_ ? 0 : 1;
      return r;
    }
    return recorded_->run(argv, timeout);
  }
  std::vector<std::string> asked;

 private:
  std::unique_ptr<ProcessRunner> recorded_;
  const bool& fixed_;
};

struct Applied {
  std::unique_ptr<Machine> machine;
  GroupAwareRunner* runner = nullptr;
  MemoryFileSystem scratch;  // where the fake changer writes (journal, log)
  FakeChanger changer{scratch};
  bool fixed = false;

  Applied() {
    auto opened = open_recorded_machine(machine_root(kFixFixture));
    REQUIRE(opened);
    machine = std::move(opened.value());
    auto owned = std::make_unique<GroupAwareRunner>(std::move(machine->runner), fixed);
    runner = owned.get();
    machine->runner = std::move(owned);
    scratch.file(kBootIdPath, "boot-1\n");
  }
  // The usermod of the fix, as it would work.
  void usermod_works() {
    changer.commands["usermod -aG render alex"] = {0, "", [this](MemoryFileSystem&) { fixed = true; }};
  }
  // The changes besides the fix's journal and log.
  std::vector<std::string> changes() const {
    ExecutorPaths paths;
    paths.journal = "/var/lib/rocmdoc/fix-" + std::string(kFixId) + ".json";
    return changer.changes(paths);
  }
  // The options of `rocmdoc fix ID` on this machine; consent null: the one
  // main would choose (a terminal's prompt, --yes, or no).
  FixOptions options(const std::string& id, Consent* consent) {
    FixOptions o;
    o.id = id;
    o.hooks = {machine.get(), &changer, consent};
    return o;
  }
  FixRun apply(Consent& consent, const std::string& id = kFixId) {
    MachineOptions m;
    std::istringstream in;
    std::ostringstream out, err;
    FixRun r;
    r.code = run_fix_command(m, options(id, &consent), in, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
  }
};

}  // namespace rocmdoc::test
