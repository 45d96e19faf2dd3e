#include "catch.h"
#include "formats/accounts.h"
#include "probe/access/mode_check.h"
#include "memory_filesystem.h"
#include "probe/probe.h"

using namespace rocmdoc;

namespace {

// A live machine in memory: open() answers from a table, as the kernel
// would for this process.
class LiveMemoryFileSystem : public MemoryFileSystem {
 public:
  std::map<std::string, Result<bool>> opens;
  Result<bool> try_open_read_write(const std::string& path) override {
    auto it = opens.find(path);
    return it == opens.end() ? Result<bool>::fail(path + ": no such device") : it->second;
  }
};

const char* kPasswd =
    "root:x:0:0:root:/root:/bin/bash\n"
    "daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
    "alice:x:1000:1000:Alice,,,:/home/alice:/bin/bash\n"
    "bob:x:1001:1001::/home/bob:/bin/sh\n";

const char* kGroup =
    "root:x:0:\n"
    "adm:x:4:syslog,alice\n"
    "video:x:44:alice\n"
    "render:x:992:alice\n"
    "alice:x:1000:\n"
    "bob:x:1001:\n";

struct Box {
  Machine machine;
  MemoryFileSystem* fs;
  ProbeOptions options;

  explicit Box(MemoryFileSystem* memory = new MemoryFileSystem) : fs(memory) {
    machine.fs.reset(fs);
    machine.runner = std::make_unique<RecordedProcessRunner>(std::map<std::string, ProcessResult>{});
    machine.live = false;
    machine.recording_kind = "snapshot";
    machine.set_env({}, {"*"});
    fs->file("/etc/passwd", kPasswd).file("/etc/group", kGroup);
    fs->device("/dev/kfd", 0660, 0, 992);
    fs->device("/dev/dri/renderD128", 0660, 0, 992);
    fs->device("/dev/dri/card0", 0660, 0, 44);
  }
  void user(const std::string& name, uint32_t uid, uint32_t gid, std::vector<uint32_t> groups) {
    machine.user.known = true;
    machine.user.name = name;
    machine.user.uid = uid;
    machine.user.gid = gid;
    machine.user.process_gids = std::move(groups);
  }
  Json run() {
    ProbeContext ctx(machine, options);
    return probe_access(ctx, Json::object());
  }
};

}  // namespace

TEST_CASE("access: a user in render and video, judged from a recording", "[access]") {
  Box box;
  box.user("alice", 1000, 1000, {4, 44, 992, 1000});
  Json a = box.run();
  CHECK(a["user"] == Json({{"name", "alice"}, {"uid", 1000}, {"via_sudo", false}, {"sudo_user", nullptr},
                           {"target", "alice"}}));
  CHECK(a["target_groups"] == Json::array({"adm", "alice", "render", "video"}));
  CHECK(a["process_groups"] == Json::array({"adm", "alice", "render", "video"}));
  CHECK(a["groups_pending_relogin"] == Json::array());
  CHECK(a["render_group"] == Json({{"exists", true}, {"gid", 992}}));
  CHECK(a["video_group"] == Json({{"exists", true}, {"gid", 44}}));
  REQUIRE(a["nodes"].size() == 2);  // card0 is not a node ROCm opens
  const Json& kfd = a["nodes"][0];
  CHECK(kfd["path"] == "/dev/kfd");
  CHECK(kfd["type"] == "char_device");
  CHECK(kfd["owner"] == "root");
  CHECK(kfd["group"] == "render");
  CHECK(kfd["mode"] == "0660");
  CHECK(kfd["mode_allows"] == true);
  CHECK(kfd["can_open_rw"] == true);
  CHECK(kfd["how"] == "modes and groups");
  CHECK(a["nodes"][1]["path"] == "/dev/dri/renderD128");
}

TEST_CASE("access: a user not in the render group", "[access]") {
  Box box;
  box.user("bob", 1001, 1001, {1001});
  Json a = box.run();
  CHECK(a["target_groups"] == Json::array({"bob"}));
  CHECK(a["groups_pending_relogin"] == Json::array());
  for (auto& node : a["nodes"]) {
    CHECK(node["mode_allows"] == false);
    // An ACL (logind's uaccess) may still let bob in; the recording cannot say.
    std::string why = unknown_reason(node["can_open_rw"]);
    CHECK(why.find("ACLs were not recorded") != std::string::npos);
    CHECK(why.find("bob cannot open") != std::string::npos);
    CHECK(why.find("group render") != std::string::npos);
    CHECK(why.find("mode 0660") != std::string::npos);
  }
  // A world-writable node needs no group.
  box.fs->device("/dev/kfd", 0666, 0, 992);
  CHECK(box.run()["nodes"][0]["can_open_rw"] == true);
}

TEST_CASE("access: added to render but not logged in again", "[access]") {
  Box box;
  box.user("alice", 1000, 1000, {4, 44, 1000});  // the session predates `usermod -aG render`
  Json a = box.run();
  CHECK(a["groups_pending_relogin"] == Json::array({"render"}));
  CHECK(a["process_groups"] == Json::array({"adm", "alice", "video"}));
  // The account may open the nodes; this session cannot until it logs in again.
  CHECK(a["nodes"][0]["can_open_rw"] == true);
}

TEST_CASE("access: under sudo the target is the invoking user", "[access]") {
  Box box;
  box.user("root", 0, 0, {0});
  box.machine.set_env({{"SUDO_USER", "bob"}}, {"*"});
  Json a = box.run();
  CHECK(a["user"]["name"] == "root");
  CHECK(a["user"]["via_sudo"] == true);
  CHECK(a["user"]["sudo_user"] == "bob");
  CHECK(a["user"]["target"] == "bob");
  CHECK(a["target_groups"] == Json::array({"bob"}));
  CHECK(unknown_reason(a["process_groups"]).find("root's groups") != std::string::npos);
  CHECK(is_unknown(a["groups_pending_relogin"]));
  // Root could open the node; bob, who will run ROCm, may not.
  CHECK(a["nodes"][0]["mode_allows"] == false);
  CHECK(is_unknown(a["nodes"][0]["can_open_rw"]));

  box.machine.set_env({{"SUDO_USER", "alice"}}, {"*"});
  CHECK(box.run()["nodes"][0]["can_open_rw"] == true);
}

TEST_CASE("access: on the live machine as the target user, open() decides", "[access]") {
  auto* fs = new LiveMemoryFileSystem;
  Box box(fs);
  box.machine.live = true;
  box.user("bob", 1001, 1001, {1001});
  fs->opens.emplace("/dev/kfd", Result<bool>::ok(true));  // an ACL let bob in
  fs->opens.emplace("/dev/dri/renderD128", Result<bool>::fail("/dev/dri/renderD128: no such device or address"));
  Json a = box.run();
  CHECK(a["nodes"][0]["how"] == "open()");
  CHECK(a["nodes"][0]["can_open_rw"] == true);
  CHECK(a["nodes"][0]["mode_allows"] == false);
  CHECK(unknown_reason(a["nodes"][1]["can_open_rw"]).find("no such device") != std::string::npos);

  // Under sudo, open() would test root: the modes decide, and ACLs are unseen.
  box.user("root", 0, 0, {0});
  box.machine.set_env({{"SUDO_USER", "bob"}}, {"*"});
  a = box.run();
  CHECK(a["nodes"][0]["how"] == "modes and groups");
  CHECK(unknown_reason(a["nodes"][0]["can_open_rw"]).find("ACLs were not checked") != std::string::npos);
}

TEST_CASE("access: root can open anything", "[access]") {
  Box box;
  box.user("root", 0, 0, {0});
  box.fs->device("/dev/kfd", 0600, 5, 5);
  Json a = box.run();
  CHECK(a["user"]["target"] == "root");
  CHECK(a["nodes"][0]["can_open_rw"] == true);
  CHECK(a["nodes"][0]["owner"] == "5");  // no account with uid 5: the number
  CHECK(a["nodes"][0]["group"] == "5");
}

TEST_CASE("access: an unknown user or SUDO_USER", "[access][malformed]") {
  SECTION("a recording without the user") {
    Box box;
    box.machine.user.unknown_reason = "the recorded tree has no sidecar";
    Json a = box.run();
    CHECK(unknown_reason(a["user"]["name"]) == "the recorded tree has no sidecar");
    CHECK(is_unknown(a["user"]["uid"]));
    CHECK(is_unknown(a["user"]["target"]));
    CHECK(is_unknown(a["target_groups"]));
    CHECK(is_unknown(a["process_groups"]));
    CHECK(is_unknown(a["nodes"][0]["can_open_rw"]));
  }
  SECTION("SUDO_USER was not recorded") {
    Box box;
    box.user("root", 0, 0, {0});
    box.machine.set_env({}, {"PATH", "HSA"});
    Json a = box.run();
    CHECK(is_unknown(a["user"]["via_sudo"]));
    CHECK(is_unknown(a["user"]["sudo_user"]));
    CHECK(unknown_reason(a["user"]["target"]).find("SUDO_USER") != std::string::npos);
    CHECK(a["process_groups"] == Json::array({"root"}));
  }
  SECTION("an empty SUDO_USER is unset") {
    Box box;
    box.user("alice", 1000, 1000, {1000, 992});
    box.machine.set_env({{"SUDO_USER", ""}}, {"*"});
    CHECK(box.run()["user"]["target"] == "alice");
  }
  SECTION("a sudo user not in /etc/passwd") {
    Box box;
    box.user("root", 0, 0, {0});
    box.machine.set_env({{"SUDO_USER", "carol"}}, {"*"});
    Json a = box.run();
    CHECK(unknown_reason(a["target_groups"]).find("carol is not in /etc/passwd") != std::string::npos);
    CHECK(is_unknown(a["nodes"][0]["mode_allows"]));
  }
  SECTION("a bare tree recorded no device nodes") {
    Box box;
    box.machine.recording_kind = "tree";
    CHECK(unknown_reason(box.run()["nodes"]).find("not recorded") != std::string::npos);
  }
}

TEST_CASE("access: missing or garbage account files", "[access][malformed]") {
  SECTION("no /etc/passwd: the process's own gid is the primary group") {
    Box box;
    box.fs->fail("/etc/passwd", "no such file or directory");
    box.user("alice", 1000, 1000, {1000, 992});
    Json a = box.run();
    CHECK(a["target_groups"] == Json::array({"adm", "alice", "render", "video"}));
    CHECK(a["nodes"][0]["owner"] == "0");
  }
  SECTION("binary /etc/group") {
    Box box;
    box.fs->file("/etc/group", std::string("\0\0\0\x01", 4));
    box.user("alice", 1000, 1000, {1000, 992});
    Json a = box.run();
    CHECK(unknown_reason(a["render_group"]["exists"]).find("binary") != std::string::npos);
    CHECK(is_unknown(a["target_groups"]));
    CHECK(a["process_groups"] == Json::array({"1000", "992"}));
    CHECK(a["nodes"][0]["group"] == "992");
  }
  SECTION("no render group") {
    Box box;
    box.fs->file("/etc/group", "root:x:0:\nvideo:x:44:alice\n");
    box.user("alice", 1000, 1000, {1000, 44});
    Json a = box.run();
    CHECK(a["render_group"] == Json({{"exists", false}, {"gid", nullptr}}));
    CHECK(a["nodes"][0]["group"] == "992");
  }
}

TEST_CASE("access: passwd and group parsing skips what it cannot read", "[access][malformed]") {
  auto users = parse_passwd("root:x:0:0::/root:/bin/sh\n+::::::\n-bad:x:1:1\n#c:x:2:2\nshort:x:3\nneg:x:-1:0\n"
                            "big:x:99999999999:0\n:x:5:5\nok:x:1000:1000\n");
  REQUIRE(users.size() == 2);
  CHECK(users[0].home == "/root");
  CHECK(users[1].name == "ok");
  CHECK(users[1].home.empty());  // no sixth field
  CHECK(parse_passwd("rel:x:1:1::home/rel:/bin/sh\n")[0].home.empty());
  CHECK(parse_passwd("").empty());
  CHECK(parse_passwd(std::string(100000, ':')).empty());

  auto groups = parse_group("render:x:992:alice, bob,,\nbad:x:nan:\nnomembers:x:7\n");
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].members == std::vector<std::string>{"alice", "bob"});
  CHECK(groups[1].members.empty());
  CHECK(group_name_or_id(groups, 7) == "nomembers");
  CHECK(group_name_or_id(groups, 8) == "8");
}

TEST_CASE("access: permission bits are judged as the kernel does", "[access]") {
  CHECK(mode_allows_read_write(0660, 0, 992, 1000, {1000, 992}));
  CHECK_FALSE(mode_allows_read_write(0660, 0, 992, 1000, {1000}));
  CHECK(mode_allows_read_write(0666, 0, 992, 1000, {1000}));
  CHECK_FALSE(mode_allows_read_write(0664, 0, 992, 1000, {1000}));  // others read only
  CHECK(mode_allows_read_write(0600, 1000, 0, 1000, {}));
  // The owner's class decides for the owner even when others may.
  CHECK_FALSE(mode_allows_read_write(0066, 1000, 992, 1000, {992}));
  // Likewise the group's class for members.
  CHECK_FALSE(mode_allows_read_write(0606, 0, 992, 1000, {992}));
  CHECK(mode_allows_read_write(0000, 5, 5, 0, {}));  // root
  // Root in a user namespace is "others" to a node whose ids are not mapped.
  CHECK_FALSE(mode_allows_read_write(0660, 65534, 65534, 0, {0}));
  CHECK(mode_allows_read_write(0666, 65534, 65534, 0, {0}));
}
