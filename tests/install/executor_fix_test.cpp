// rocmdoc fix on fixture machines: the list, the dry run, applying the
// usermod fix through a fake changer, and the refusals.
#include <sstream>

#include "catch.h"
#include "executor_fake.h"
#include "fix_world.h"
#include "cli/exit_codes.h"
#include "cli/fix_command.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {

constexpr const char* kFixture = kFixFixture;

FixRun fix(FixOptions options, const std::string& root = machine_root(kFixture)) {
  MachineOptions machine;
  machine.root = root;
  std::istringstream in;
  std::ostringstream out, err;
  FixRun r;
  r.code = run_fix_command(machine, options, in, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

}  // namespace

TEST_CASE("fix lists the fixes check finds on the machine", "[fix]") {
  auto r = fix({});
  CHECK(r.code == kExitOk);
  CHECK(r.out.find("automatic   device-node-not-accessible") != std::string::npos);
  CHECK(r.out.find("$ sudo usermod -aG render alex") != std::string::npos);
  // rocm-older-than-target fires too; its fix has a manual step.
  CHECK(r.out.find("rocm-older-than-target") != std::string::npos);
  CHECK(r.out.find("gpu-not-in-any-release") == std::string::npos);  // what check says, no more
}

TEST_CASE("fix --dry-run shows each step's state and exactly what would run", "[fix]") {
  FixOptions options;
  options.id = kFixId;
  options.dry_run = true;
  auto r = fix(options);
  CHECK(r.code == kExitOk);
  CHECK(r.out.find("Dry run of fix device-node-not-accessible") != std::string::npos);
  CHECK(r.out.find("[1/1] Add alex to group render") != std::string::npos);
  CHECK(r.out.find("usermod -aG render alex") != std::string::npos);
  CHECK(r.out.find("state: unknown") != std::string::npos);  // the recording cannot run test -w as alex
}

TEST_CASE("fix refuses what does not apply, unknown ids and --root without --dry-run", "[fix]") {
  FixOptions options;
  options.id = "amdgpu-blacklisted";
  auto not_here = fix([&] { auto o = options; o.dry_run = true; return o; }());
  CHECK(not_here.code == kExitProblems);
  CHECK(not_here.out.find("does not apply here") != std::string::npos);

  options.id = "no-such-fix";
  options.dry_run = true;
  auto unknown_id = fix(options);
  CHECK(unknown_id.code == kExitUsage);
  CHECK(unknown_id.err.find("no problem in the catalogue has the id no-such-fix") != std::string::npos);

  options.id = kFixId;
  options.dry_run = false;
  auto real_on_root = fix(options);
  CHECK(real_on_root.code == kExitUsage);
  CHECK(real_on_root.err.find("--dry-run only") != std::string::npos);
}

TEST_CASE("fix takes explain causes only when they can run without the error text", "[fix]") {
  FixOptions options;
  options.dry_run = true;
  options.id = "kernel-too-old-for-gpu";  // its steps need a person
  auto manual = fix(options);
  CHECK(manual.code == kExitProblems);
  CHECK(manual.out.find("needs a person") != std::string::npos);
  options.id = "kfd-open-cannot-allocate-memory";  // automatic, but this machine's KFD lists its GPU
  auto refuted = fix(options);
  CHECK(refuted.code == kExitProblems);
  CHECK(refuted.out.find("does not apply to this machine") != std::string::npos);
}

TEST_CASE("fix applies the usermod fix through the executor and verifies it as the user", "[fix]") {
  Applied a;
  a.usermod_works();
  YesConsent yes;
  auto r = a.apply(yes);
  CHECK(r.code == kExitOk);
  CHECK(a.changes() == std::vector<std::string>{"run usermod -aG render alex"});
  CHECK(r.out.find("takes effect at the next login") != std::string::npos);
  REQUIRE_FALSE(a.runner->asked.empty());
  CHECK(a.runner->asked.back().find("test -w /dev/") != std::string::npos);
  CHECK(a.scratch.exists("/var/lib/rocmdoc/fix-device-node-not-accessible.json"));
}

TEST_CASE("fix takes a problem's former id (an alias) for the same fix", "[fix]") {
  Applied a;
  a.usermod_works();
  YesConsent yes;
  // explain's id before the catalogue was merged with check's.
  auto r = a.apply(yes, "user-not-in-render-video-group");
  CHECK(r.code == kExitOk);
  CHECK(a.changes() == std::vector<std::string>{"run usermod -aG render alex"});
}

TEST_CASE("fix: declined, no terminal, and a failing command", "[fix]") {
  SECTION("declined") {
    Applied a;
    struct No : Consent {
      bool ask(const PlanStep&) override { return false; }
    } no;
    auto r = a.apply(no);
    CHECK(r.code == kExitDeclined);
    CHECK(a.changes().empty());
  }
  SECTION("no terminal and no --yes") {
    Applied a;
    FixOptions options;
    options.id = kFixId;
    options.hooks = {a.machine.get(), &a.changer, nullptr};  // the consent main would choose
    auto r = fix(options, "/");
    CHECK(r.code == kExitDeclined);
    CHECK(r.out.find("no terminal and no --yes: nothing was changed") != std::string::npos);
    CHECK(a.changes().empty());
  }
  SECTION("failing usermod") {
    Applied a;
    a.changer.commands["usermod -aG render alex"] = {6, "usermod: group 'render' does not exist\n", nullptr};
    YesConsent yes;
    auto r = a.apply(yes);
    CHECK(r.code == kExitStepFailed);
    CHECK(r.out.find("usermod: group 'render' does not exist") != std::string::npos);
  }
}

TEST_CASE("fix through the binary: no terminal and no --yes changes nothing", "[fix]") {
  auto r = run_rocmdoc({"fix", "--root", machine_root(kFixture)});
  CHECK(r.exit_code == kExitOk);
  auto refused = run_rocmdoc({"fix", kFixId, "--root", machine_root(kFixture)});
  CHECK(refused.exit_code == kExitUsage);
  auto help = run_rocmdoc({"fix", "--help"});
  CHECK(help.out.find("3 declined") != std::string::npos);
}
