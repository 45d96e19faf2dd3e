// rocmdoc snapshot: what it records must read back, through --root, as the
// same facts the live run gave; and by default no personal data is kept.
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "catch.h"
#include "facts/facts_document.h"
#include "memory_filesystem.h"
#include "probe/deep/deep.h"
#include "snapshot/snapshot.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;
namespace fs = std::filesystem;

namespace {

// What legitimately differs between a live run and its recording.
Json comparable(Json facts) {
  facts.erase("source");
  for (auto& c : facts["commands_run"]) c.erase("ms");
  if (facts["access"].is_object() && facts["access"]["nodes"].is_array())
    for (auto& n : facts["access"]["nodes"]) n.erase("how");
  return facts;
}

void untar(const std::string& archive, const fs::path& into) {
  SystemProcessRunner runner;
  auto r = runner.run({"tar", "-xzf", archive, "-C", into.string()}, std::chrono::seconds(60));
  INFO(r.err);
  REQUIRE(r.succeeded());
}

}  // namespace

TEST_CASE("a snapshot of this machine reads back as the same facts", "[snapshot]") {
  ScratchDir dir;
  std::string archive = (dir.path / "snap.tar.gz").string();
  auto snap = run_rocmdoc({"snapshot", "--no-redact", archive});
  INFO(snap.err);
  REQUIRE(snap.exit_code == 0);
  auto live = run_rocmdoc({"facts"});
  REQUIRE(live.exit_code == 0);

  fs::create_directory(dir.path / "root");
  untar(archive, dir.path / "root");
  REQUIRE(fs::exists(dir.path / "root/.rocmdoc/machine.json"));
  auto recorded = run_rocmdoc({"facts", "--root", (dir.path / "root").string()});
  INFO(recorded.err);
  REQUIRE(recorded.exit_code == 0);

  Json a = comparable(Json::parse(live.out)), b = comparable(Json::parse(recorded.out));
  for (auto& [section, value] : a.items()) {
    INFO("section " << section);
    CHECK(value.dump(1) == b[section].dump(1));
  }
  CHECK(Json::parse(recorded.out)["source"]["recording"] == "snapshot");
}

TEST_CASE("snapshot replaces user names, home paths and the host name by default", "[snapshot]") {
  MemoryFileSystem live;
  live.file("/etc/group", "root:x:0:\nvideo:x:44:ann,bob\nrender:x:992:ann\nann:x:1000:\nadm:x:4:syslog\n");
  live.file("/etc/passwd", "root:x:0:0:root:/root:/bin/bash\nsyslog:x:104:110::/home/syslog:/usr/sbin/nologin\n"
                           "ann:x:1000:1000:Ann Example,,,:/home/ann:/bin/bash\n");
  live.file("/home/ann/venv/pyvenv.cfg", "home = /usr/bin\ncommand = /usr/bin/python3 -m venv /home/ann/venv\n");
  live.file("/home/annex/keep", "a path that only starts like ann's home\n");
  live.file("/proc/version", "Linux version 6.8.0 (buildd@ann-desktop) #1\n");
  live.device("/dev/kfd", 0660, 0, 992);
  Machine machine;
  machine.user.known = true;
  machine.user.name = "ann";
  machine.user.uid = 1000;
  machine.set_env({{"HOME", "/home/ann"}, {"PATH", "/home/ann/venv/bin:/usr/bin"}}, {"*"});

  AccessLog log;
  log.read = {"/etc/group", "/etc/passwd", "/home/ann/venv/pyvenv.cfg", "/home/annex/keep", "/proc/version"};
  log.examined = {"/dev/kfd"};
  ScratchDir dir;
  Redactor redactor = redactor_for(live, machine, "ann-desktop");
  auto summary = write_snapshot_tree(live, log, machine, {}, redactor, dir.path.string());
  REQUIRE(summary.ok());

  CHECK(read_text_file(dir.path / "etc/group") == "root:x:0:\nvideo:x:44:user,user2\nrender:x:992:user\nuser:x:1000:\nadm:x:4:syslog\n");
  CHECK(read_text_file(dir.path / "etc/passwd").find("user:x:1000:1000::/home/user:/bin/bash") != std::string::npos);
  CHECK(read_text_file(dir.path / "home/user/venv/pyvenv.cfg").find("/home/user/venv") != std::string::npos);
  CHECK(fs::exists(dir.path / "home/annex/keep"));
  CHECK(read_text_file(dir.path / "proc/version").find("buildd@host") != std::string::npos);
  std::string sidecar = read_text_file(dir.path / ".rocmdoc/machine.json");
  CHECK(sidecar.find("ann") == std::string::npos);
  Json side = Json::parse(sidecar);
  CHECK(side["user"]["name"] == "user");
  CHECK(side["env"]["values"]["PATH"] == "/home/user/venv/bin:/usr/bin");
  CHECK(side["nodes"]["/dev/kfd"]["mode"] == "0660");
  CHECK(side["nodes"]["/dev/kfd"]["gid"] == 992);
  CHECK(side["redacted"] == true);
}

TEST_CASE("snapshot refuses a bad destination with exit 2 and leaves nothing", "[snapshot]") {
  auto r = run_rocmdoc({"snapshot", "/nonexistent-dir/x.tar.gz"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("rocmdoc:") != std::string::npos);
  CHECK_FALSE(fs::exists("/nonexistent-dir"));
}

// hostile-input D2: the temporary archive had a fixed name beside FILE, and
// tar followed a symlink planted there, so root overwrote the link's target.
TEST_CASE("snapshot does not write through a link planted beside its output", "[snapshot][hostile]") {
  ScratchDir dir;
  fs::path victim = dir.path / "victim", archive = dir.path / "s.tar.gz";
  std::ofstream(victim) << "precious\n";
  fs::create_symlink(victim, dir.path / "s.tar.gz.tmp-rocmdoc");
  auto snap = run_rocmdoc({"snapshot", "--root", machine_root("ubuntu2404-rx7900xtx"), archive.string()});
  INFO(snap.err);
  REQUIRE(snap.exit_code == 0);
  CHECK(read_text_file(victim) == "precious\n");
  CHECK(fs::is_regular_file(fs::symlink_status(archive)));
  CHECK(fs::is_symlink(fs::symlink_status(dir.path / "s.tar.gz.tmp-rocmdoc")));
}

// hostile-input D1: the archive was renamed over FILE whatever it was, so
// `sudo rocmdoc snapshot /dev/null` turned the device into a regular file.
TEST_CASE("snapshot writes into a device node at its output, never replaces it", "[snapshot][hostile]") {
  ScratchDir dir;
  fs::path node = dir.path / "null";
  if (::mknod(node.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) != 0) {
    WARN("cannot make a device node here (not root): " << std::strerror(errno));
    return;
  }
  auto snap = run_rocmdoc({"snapshot", "--root", machine_root("ubuntu2404-rx7900xtx"), node.string()});
  INFO(snap.err);
  CHECK(snap.exit_code == 0);
  CHECK(fs::is_character_file(fs::symlink_status(node)));
  for (auto& e : fs::directory_iterator(dir.path)) CHECK(e.path() == node);  // no temporary left behind
}

TEST_CASE("snapshot --deep under sudo: the workloads' keys are redacted as the replay builds them", "[snapshot][deep]") {
  MemoryFileSystem live;
  live.file("/etc/passwd", "root:x:0:0:root:/root:/bin/bash\nann:x:1000:1000::/home/ann:/bin/bash\n");
  live.file("/usr/sbin/runuser", "", 0755);
  Machine machine;
  machine.user.known = true;
  machine.user.name = "root";
  machine.user.uid = 0;
  machine.set_env({{"SUDO_USER", "ann"}, {"USER", "root"}, {"LOGNAME", "root"}, {"HOME", "/root"}}, {"*"});
  std::vector<std::string> as_ann = {"/usr/sbin/runuser", "-u", "ann", "--"};
  std::map<std::string, ProcessResult> commands;
  ProcessResult py;
  py.started = true;
  py.exit_code = 0;
  py.out = std::string("\n") + kDeepResultMarker +
           R"({"imported": true, "version": "2.5.1", "hip": "6.2", "is_available": true, "device_count": 1, )"
           R"("devices": [{"index": 0, "name": "gpu", "arch": "gfx1100", "op_ok": true}]})" + "\n";
  py.err = "/home/ann/venv/lib/python3.12/site-packages/torch/__init__.py: a warning\n";
  commands[RecordedProcessRunner::key(deep_torch_argv(as_ann, "/home/ann/venv/bin/python"))] = py;

  AccessLog log;
  log.read = {"/etc/passwd"};
  log.examined = {"/usr/sbin/runuser"};
  ScratchDir dir;
  Redactor redactor = redactor_for(live, machine, "");
  REQUIRE(write_snapshot_tree(live, log, machine, commands, redactor, dir.path.string()).ok());
  std::string sidecar = read_text_file(dir.path / ".rocmdoc/machine.json");
  CHECK(sidecar.find("ann") == std::string::npos);
  Json side = Json::parse(sidecar);
  CHECK(side["env"]["values"]["SUDO_USER"] == "user");
  CHECK(side["env"]["values"]["USER"] == "root");

  // Replayed: the probe builds the argv from the redacted user and home,
  // and finds the recorded output under it.
  auto recorded = open_recorded_machine(dir.path.string());
  REQUIRE(recorded);
  ProbeOptions options;
  options.deep = true;
  ProbeContext ctx(**recorded, options);
  Json facts = Json::object();
  facts["access"]["user"] = {{"name", "root"}, {"uid", 0}, {"sudo_user", "user"}, {"target", "user"}};
  facts["python"]["interpreters"] = Json::array();
  facts["python"]["torch"] = Json::array({{{"site_packages", "/x"}, {"interpreters", {"/home/user/venv/bin/python"}}}});
  Json deep = probe_deep(ctx, facts);
  REQUIRE_FALSE(is_unknown(deep));
  CHECK(deep["switched_by"] == "runuser");
  REQUIRE(deep["torch"].size() == 1);
  CHECK(deep["torch"][0]["ok"] == true);
  CHECK(deep["torch"][0]["stderr"].get<std::string>().find("/home/user/venv") == 0);
}
