#include "install/run/step_check.h"

#include "catch.h"
#include "formats/gpg_key_listing.h"
#include "probe_test_support.h"
#include "base/text.h"

using namespace rocmdoc;

namespace {

constexpr const char* kFpr = "CA8BB4727A47B4D09B4EE8969386B48A1A693C5C";

StepCheck check_of(StepCheck::Kind kind) {
  StepCheck c;
  c.kind = kind;
  return c;
}

ProcessResult exited(int code, std::string out = "") {
  ProcessResult r;
  r.started = true;
  r.exit_code = code;
  r.out = std::move(out);
  return r;
}

std::string gpg_listing(const std::string& validity, const std::string& expires, const std::string& fpr) {
  return "pub:" + validity + ":4096:1:9386B48A1A693C5C:1470672000:" + expires + "::-:::scESC::::::23::0:\n"
         "fpr:::::::::" + fpr + ":\n"
         "uid:" + validity + "::::1470672000::0::ROCm <rocm@amd.com>::::::::::0:\n"
         "sub:" + validity + ":4096:1:1111111111111111:1470672000::::::e::::::23:\n"
         "fpr:::::::::0000000000000000000000000000000000000000:\n";
}

}  // namespace

TEST_CASE("file_equals compares exact content and mode", "[step_check]") {
  test::MemoryMachine m;
  m.fs->file("/etc/apt/preferences.d/rocm-pin-600", "Package: *\n", 0644);
  auto c = check_of(StepCheck::Kind::file_equals);
  c.path = "/etc/apt/preferences.d/rocm-pin-600";
  c.content = "Package: *\n";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::done);
  c.mode = 0600;
  auto wrong_mode = evaluate_check(c, m.machine, {});
  CHECK(wrong_mode.first == StepState::todo);
  CHECK(wrong_mode.second.find("0644") != std::string::npos);
  c.mode = 0;
  c.content = "Package: *\nPin: x\n";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::todo);
  c.path = "/etc/missing";
  CHECK(evaluate_check(c, m.machine, {}).second == "/etc/missing does not exist");
  m.fs->fail("/etc/locked", "permission denied");
  c.path = "/etc/locked";
  auto locked = evaluate_check(c, m.machine, {});
  CHECK(locked.first == StepState::unknown);
  CHECK(locked.second.find("permission denied") != std::string::npos);
}

TEST_CASE("packages from dpkg's status: installed, version, unreadable", "[step_check]") {
  test::MemoryMachine m;
  m.fs->file("/var/lib/dpkg/status",
             "Package: curl\nStatus: install ok installed\nVersion: 8.5.0-2ubuntu10\n\n"
             "Package: gnupg\nStatus: deinstall ok config-files\nVersion: 2.4.4\n\n"
             "Package: rocm\nStatus: hold ok installed\nVersion: 7.2.4.70204-24~24.04\n\n"
             "Package: epochy\nStatus: install ok installed\nVersion: 1:2.0-1\n");
  auto c = check_of(StepCheck::Kind::packages_installed);
  c.names = {"curl", "rocm"};
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::done);
  c.names = {"curl", "gnupg", "absent"};
  auto missing = evaluate_check(c, m.machine, {});
  CHECK(missing.first == StepState::todo);
  CHECK(missing.second == "not installed: gnupg absent");

  auto v = check_of(StepCheck::Kind::package_version);
  v.names = {"rocm"};
  v.value = "7.2.4.70204";
  CHECK(evaluate_check(v, m.machine, {}).first == StepState::done);
  v.value = "7.2.3";
  CHECK(evaluate_check(v, m.machine, {}).first == StepState::todo);
  v.names = {"epochy"};
  v.value = "2.0";
  CHECK(evaluate_check(v, m.machine, {}).first == StepState::done);
  v.names = {};
  CHECK(evaluate_check(v, m.machine, {}).first == StepState::unknown);

  test::MemoryMachine no_dpkg;
  auto r = evaluate_check(c, no_dpkg.machine, {});
  CHECK(r.first == StepState::unknown);
  CHECK(r.second.find("package database") != std::string::npos);
}

TEST_CASE("dpkg status garbage does not make anything installed", "[step_check]") {
  test::MemoryMachine m;
  m.fs->file("/var/lib/dpkg/status", std::string("\0\x01\x02Package curl\n\xff\xfe", 18));
  auto c = check_of(StepCheck::Kind::packages_installed);
  c.names = {"curl"};
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::todo);
}

TEST_CASE("user_in_groups reads /etc/group and the primary group", "[step_check]") {
  test::MemoryMachine m;
  m.fs->file("/etc/passwd", "root:x:0:0::/root:/bin/bash\nalex:x:1000:44::/home/alex:/bin/bash\n");
  m.fs->file("/etc/group", "video:x:44:\nrender:x:993:bob,alex\nplugdev:x:46:bob\n");
  auto c = check_of(StepCheck::Kind::user_in_groups);
  c.value = "alex";
  c.names = {"render", "video"};
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::done);
  c.names = {"render", "plugdev", "nogroup"};
  auto r = evaluate_check(c, m.machine, {});
  CHECK(r.first == StepState::todo);
  CHECK(r.second == "alex is not in plugdev, nogroup (no such group)");
  c.value = "ldapuser";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);
  c.value = "";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);
  m.fs->fail("/etc/group", "permission denied");
  c.value = "alex";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);
}

TEST_CASE("command_succeeds runs the argv, as the target user through runuser", "[step_check]") {
  test::MemoryMachine m({}, {{"runuser -u alex -- /home/alex/venv/bin/python -c import sys", exited(0)},
                             {"false", exited(1)},
                             {"rocminfo", exited(0)}});
  auto c = check_of(StepCheck::Kind::command_succeeds);
  c.argv = {"/home/alex/venv/bin/python", "-c", "import sys"};
  c.as_user = true;
  CheckInputs in;
  in.user = "alex";
  CHECK(evaluate_check(c, m.machine, in).first == StepState::done);
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);  // no target user
  c.as_user = false;
  auto unrecorded = evaluate_check(c, m.machine, in);
  CHECK(unrecorded.first == StepState::unknown);  // a recording without this command cannot say
  c.argv = {"false"};
  CHECK(evaluate_check(c, m.machine, in) == StepEvaluation{StepState::todo, "false exits 1"});
  // The target user is this process's user: no runuser.
  m.machine.user.known = true;
  m.machine.user.name = "alex";
  c.argv = {"rocminfo"};
  c.as_user = true;
  CHECK(evaluate_check(c, m.machine, in).first == StepState::done);
}

TEST_CASE("a live machine's missing program means todo, not unknown", "[step_check]") {
  test::MemoryMachine m;
  m.machine.live = true;
  auto c = check_of(StepCheck::Kind::command_succeeds);
  c.argv = {"/home/alex/venv/bin/python", "-c", "import torch"};
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::todo);
}

TEST_CASE("key_fingerprint: the key's fingerprint, validity and expiry through gpg", "[step_check]") {
  const std::string key = "/etc/apt/keyrings/rocm.gpg";
  const std::string gpg = "gpg --show-keys --with-colons " + key;
  auto c = check_of(StepCheck::Kind::key_fingerprint);
  c.path = key;
  c.value = kFpr;
  c.mode = 0644;
  SECTION("present and valid") {
    test::MemoryMachine m({}, {{gpg, exited(0, gpg_listing("-", "", kFpr))}});
    m.fs->file(key, "binary", 0644);
    CHECK(evaluate_check(c, m.machine, {}).first == StepState::done);
    c.value = "ca8b b472 7a47 b4d0 9b4e  e896 9386 b48a 1a69 3c5c";  // as printed by gpg --fingerprint
    CHECK(evaluate_check(c, m.machine, {}).first == StepState::done);
  }
  SECTION("another key, or only as a subkey") {
    test::MemoryMachine m({}, {{gpg, exited(0, gpg_listing("-", "", "AAAA"))}});
    m.fs->file(key, "binary", 0644);
    CHECK(evaluate_check(c, m.machine, {}).first == StepState::todo);
    c.value = "0000000000000000000000000000000000000000";
    CHECK(evaluate_check(c, m.machine, {}).first == StepState::todo);
  }
  SECTION("expired by validity or by date") {
    test::MemoryMachine m({}, {{gpg, exited(0, gpg_listing("e", "", kFpr))}});
    m.fs->file(key, "binary", 0644);
    CHECK(evaluate_check(c, m.machine, {}).second.find("expired") != std::string::npos);
    test::MemoryMachine dated({}, {{gpg, exited(0, gpg_listing("-", "1000", kFpr))}});
    dated.fs->file(key, "binary", 0644);
    CHECK(evaluate_check(c, dated.machine, {}).first == StepState::todo);
  }
  SECTION("missing file, wrong mode, gpg failing or absent") {
    test::MemoryMachine m({}, {{gpg, exited(2, "")}});
    CHECK(evaluate_check(c, m.machine, {}).first == StepState::todo);
    m.fs->file(key, "binary", 0600);
    CHECK(evaluate_check(c, m.machine, {}).second.find("mode 0600") != std::string::npos);
    m.fs->file(key, "binary", 0644);
    CHECK(evaluate_check(c, m.machine, {}).first == StepState::todo);
    test::MemoryMachine no_gpg;
    no_gpg.fs->file(key, "binary", 0644);
    CHECK(evaluate_check(c, no_gpg.machine, {}).first == StepState::unknown);
  }
}

TEST_CASE("gpg colon listings: garbage gives no keys", "[step_check]") {
  CHECK(parse_gpg_colons("").empty());
  CHECK(parse_gpg_colons("fpr:::::::::ABC:\n").empty());  // no pub before it
  CHECK(parse_gpg_colons(std::string("\0\xff:pub", 6)).empty());
  CHECK(parse_gpg_colons("pub\npub:\n").empty());
  auto keys = parse_gpg_colons("pub:-:1:1:K:0:notanumber::\nfpr:::::::::abcd:\n");
  REQUIRE(keys.size() == 1);
  CHECK(keys[0].fingerprint == "ABCD");
  CHECK(keys[0].expires == 0);
}

TEST_CASE("boot_changed compares the boot id with the one saved at the reboot request", "[step_check]") {
  test::MemoryMachine m;
  m.fs->file(kBootIdPath, "1111\n");
  auto c = check_of(StepCheck::Kind::boot_changed);
  Journal j;
  CheckInputs in;
  CHECK(evaluate_check(c, m.machine, in).first == StepState::todo);  // no journal
  in.journal = &j;
  CHECK(evaluate_check(c, m.machine, in).first == StepState::todo);  // nothing requested
  j.reboot_requested_in_boot = "1111";
  CHECK(evaluate_check(c, m.machine, in).first == StepState::todo);
  m.fs->file(kBootIdPath, "2222\n");
  CHECK(evaluate_check(c, m.machine, in).first == StepState::done);
  in.boot_id_path = "/missing";
  CHECK(evaluate_check(c, m.machine, in).first == StepState::unknown);
}

TEST_CASE("a step: done when all checks are, todo before unknown", "[step_check]") {
  test::MemoryMachine m;
  m.fs->file("/a", "x");
  m.fs->fail("/locked", "permission denied");
  auto exists = [](std::string path) {
    auto c = check_of(StepCheck::Kind::path_exists);
    c.path = std::move(path);
    return c;
  };
  PlanStep step;
  CHECK(evaluate_step(step, m.machine, nullptr).first == StepState::todo);
  CHECK_FALSE(has_real_checks(step));
  step.checks = {exists("/a")};
  CHECK(evaluate_step(step, m.machine, nullptr).first == StepState::done);
  CHECK(has_real_checks(step));
  step.checks = {exists("/a"), exists("/locked"), exists("/b")};
  CHECK(evaluate_step(step, m.machine, nullptr) == StepEvaluation{StepState::todo, "/b does not exist"});
  step.checks = {exists("/a"), exists("/locked")};
  CHECK(evaluate_step(step, m.machine, nullptr).first == StepState::unknown);
  step.checks = {check_of(StepCheck::Kind::always_todo)};
  CHECK(evaluate_step(step, m.machine, nullptr).first == StepState::todo);
  CHECK_FALSE(has_real_checks(step));
  step.checks = {check_of(StepCheck::Kind::boot_changed)};
  CHECK_FALSE(has_real_checks(step));
}

TEST_CASE("packages_absent, output_contains and apt_simulation", "[step_check]") {
  const std::string sim = "apt-get -s install amdgpu-dkms rocm";
  test::MemoryMachine m({}, {{sim, exited(0, "Inst rocm (7.2.4)\nRemv rocminfo [5.7.1-3]\nRemv hipcc [5.7.1]\n")},
                             {"amd-smi version", exited(0, "ROCm version: 7.2.4\n")}});
  m.fs->file("/var/lib/dpkg/status", "Package: rocminfo\nStatus: install ok installed\nVersion: 5.7.1-3\n");
  auto absent = check_of(StepCheck::Kind::packages_absent);
  absent.names = {"hipcc", "rocminfo"};
  CHECK(evaluate_check(absent, m.machine, {}) == StepEvaluation{StepState::todo, "installed: rocminfo 5.7.1-3"});
  absent.value = "~24.04";
  CHECK(evaluate_check(absent, m.machine, {}).first == StepState::todo);
  absent.value = "5.7.1";  // the installed one is "AMD's own": spared
  CHECK(evaluate_check(absent, m.machine, {}).first == StepState::done);
  absent.value = "";
  absent.names = {"hipcc"};
  CHECK(evaluate_check(absent, m.machine, {}).first == StepState::done);

  auto out = check_of(StepCheck::Kind::output_contains);
  out.argv = {"amd-smi", "version"};
  out.value = "ROCm version: 7.2.4";
  CHECK(evaluate_check(out, m.machine, {}).first == StepState::done);
  out.value = "ROCm version: 10.0";
  CHECK(evaluate_check(out, m.machine, {}).first == StepState::todo);

  auto apt = check_of(StepCheck::Kind::apt_simulation);
  apt.argv = split_words(sim);
  apt.names = {"rocminfo", "hipcc"};
  CHECK(evaluate_check(apt, m.machine, {}).first == StepState::done);
  apt.names = {"rocminfo"};
  CHECK(evaluate_check(apt, m.machine, {}) == StepEvaluation{StepState::todo, "the install would remove hipcc"});
}

TEST_CASE("free_space asks df about the nearest existing directory", "[step_check]") {
  test::MemoryMachine m({}, {{"df -B1 --output=avail /opt", exited(0, "     Avail\n 107374182400\n")}});
  m.fs->dir("/opt");
  auto c = check_of(StepCheck::Kind::free_space);
  c.path = "/opt/rocm";
  c.value = std::to_string(64ull << 30);
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::done);
  c.value = std::to_string(200ull << 30);
  CHECK(evaluate_check(c, m.machine, {}).second == "only 100 GiB free on /opt, 200 GiB needed");
  c.value = "lots";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);
  c.value = "1";
  c.path = "/var/cache/apt";  // df not recorded for /
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);
}

TEST_CASE("lock_free is unknown on a recording", "[step_check]") {
  test::MemoryMachine m;
  auto c = check_of(StepCheck::Kind::lock_free);
  c.names = {"/var/lib/dpkg/lock-frontend"};
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);
}

TEST_CASE("file_has_line matches whole lines through the machine's files", "[step_check]") {
  test::MemoryMachine m;
  m.fs->file("/etc/os-release", "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nVERSION_ID=\"12\"\nID=debian\n");
  m.fs->file("/proc/sys/kernel/osrelease", "6.1.0-25-amd64\n");
  auto c = check_of(StepCheck::Kind::file_has_line);
  c.path = "/etc/os-release";
  c.value = "ID=\"?debian\"?";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::done);
  c.value = "VERSION_ID=\"?12\"?";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::done);
  c.value = "ID=\"?ubuntu\"?";
  auto other = evaluate_check(c, m.machine, {});
  CHECK(other.first == StepState::todo);
  CHECK(other.second == "no line of /etc/os-release matches ID=\"?ubuntu\"?");
  c.value = "ID";  // a part of a line is not a match
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::todo);

  c.path = "/proc/sys/kernel/osrelease";
  c.value = "6\\.1\\.0\\-25\\-amd64";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::done);
  c.value = "6\\.1\\.0\\-2";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::todo);

  c.value = "(unclosed";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);
  c.value = "x";
  c.path = "/etc/missing";
  CHECK(evaluate_check(c, m.machine, {}) == StepEvaluation{StepState::todo, "/etc/missing does not exist"});
  m.fs->fail("/etc/locked", "permission denied");
  c.path = "/etc/locked";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);
  m.fs->file("/etc/empty", "");
  c.path = "/etc/empty";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::todo);
  m.fs->file("/etc/binary", std::string("\0\xff\nID=debian\0\n", 15));
  c.path = "/etc/binary";
  c.value = "ID=debian";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::todo);  // the NUL is part of the line
}

TEST_CASE("file_byte_equals reads one byte of an EFI variable", "[step_check]") {
  const std::string var = "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c";
  test::MemoryMachine m;
  m.fs->file(var, std::string("\x06\0\0\0\0", 5));
  auto c = check_of(StepCheck::Kind::file_byte_equals);
  c.path = var;
  c.offset = 4;
  c.value = "0";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::done);
  m.fs->file(var, std::string("\x06\0\0\0\x01", 5));
  auto on = evaluate_check(c, m.machine, {});
  CHECK(on.first == StepState::todo);
  CHECK(on.second == "the byte at offset 4 of " + var + " is 1, not 0");
  m.fs->file(var, std::string("\x06\0\0", 3));  // truncated
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);
  m.fs->file(var, "");
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);
  c.value = "256";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);
  c.value = "zero";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);
  c.value = "0";
  c.path = "/sys/firmware/efi/efivars/missing";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::todo);
}

TEST_CASE("path_absent: missing is done, present (even a dangling link) is todo", "[step_check]") {
  test::MemoryMachine m;
  m.fs->dir("/sys/firmware/efi");
  m.fs->symlink("/etc/apt/sources.list.d/amdgpu.list", "/nowhere");
  auto c = check_of(StepCheck::Kind::path_absent);
  c.path = "/sys/firmware/efi";
  CHECK(evaluate_check(c, m.machine, {}) == StepEvaluation{StepState::todo, "/sys/firmware/efi exists"});
  c.path = "/etc/apt/sources.list.d/amdgpu.list";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::todo);
  c.path = "/etc/apt/sources.list.d/rocm.list";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::done);
  m.fs->fail("/root/secret", "permission denied");
  c.path = "/root/secret";
  CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);
}

TEST_CASE("dpkg_settled: an interrupted dpkg run is todo until dpkg --configure -a", "[step_check]") {
  const std::string ok = "Package: curl\nStatus: install ok installed\nVersion: 8\n\n"
                         "Package: gnupg\nStatus: deinstall ok config-files\nVersion: 2\n";
  auto c = check_of(StepCheck::Kind::dpkg_settled);
  {
    test::MemoryMachine m;
    m.fs->file("/var/lib/dpkg/status", ok);
    m.fs->dir("/var/lib/dpkg/updates");
    m.fs->file("/var/lib/dpkg/updates/tmp.i", "");  // dpkg's scratch file is not a pending entry
    CHECK(evaluate_check(c, m.machine, {}).first == StepState::done);
    m.fs->file("/var/lib/dpkg/updates/0003", "Package: amdgpu-dkms\nStatus: install ok half-configured\n");
    auto pending = evaluate_check(c, m.machine, {});
    CHECK(pending.first == StepState::todo);
    CHECK(pending.second.find("dpkg was interrupted") != std::string::npos);
  }
  for (const char* state : {"unpacked", "half-configured", "triggers-awaited", "triggers-pending"}) {
    test::MemoryMachine m;
    m.fs->file("/var/lib/dpkg/status", ok + "\nPackage: amdgpu-dkms\nStatus: install ok " + state + "\nVersion: 1\n");
    auto half = evaluate_check(c, m.machine, {});
    CHECK(half.first == StepState::todo);
    CHECK(half.second == std::string("dpkg left packages half done: amdgpu-dkms (") + state + ")");
  }
  {
    // Killed in its unpack: dpkg --configure -a cannot help; the package's own step reinstalls it.
    test::MemoryMachine m;
    m.fs->file("/var/lib/dpkg/status", ok + "\nPackage: rocm\nStatus: install reinstreq half-installed\nVersion: 1\n");
    CHECK(evaluate_check(c, m.machine, {}).first == StepState::done);
  }
  {
    test::MemoryMachine m;  // no updates directory (a recorded machine): the status file decides
    m.fs->file("/var/lib/dpkg/status", ok);
    CHECK(evaluate_check(c, m.machine, {}).first == StepState::done);
  }
  {
    test::MemoryMachine m;
    CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);  // no status file at all
    m.fs->fail("/var/lib/dpkg/updates", "permission denied");
    CHECK(evaluate_check(c, m.machine, {}).first == StepState::unknown);
  }
  {
    test::MemoryMachine m;  // garbage status: no package is half done in it
    m.fs->file("/var/lib/dpkg/status", std::string("\0\xff garbage\nStatus\n", 18));
    CHECK(evaluate_check(c, m.machine, {}).first == StepState::done);
  }
}

TEST_CASE("the new check kinds say what they check", "[step_check]") {
  auto line = check_of(StepCheck::Kind::file_has_line);
  line.path = "/etc/os-release";
  line.value = "ID=debian";
  CHECK(line.describe() == "done when a line of /etc/os-release matches ID=debian");
  auto byte = check_of(StepCheck::Kind::file_byte_equals);
  byte.path = "/x";
  byte.offset = 4;
  byte.value = "0";
  CHECK(byte.describe() == "done when the byte at offset 4 of /x is 0");
  auto absent = check_of(StepCheck::Kind::path_absent);
  absent.path = "/y";
  CHECK(absent.describe() == "done when /y does not exist");
}
