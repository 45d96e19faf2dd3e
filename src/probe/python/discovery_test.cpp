// Finding the torch a user actually uses: the places beyond PATH (the
// environment, rocmdoc install's venv, the home's venvs, conda and pyenv),
// each torch with the interpreters that import it. All on in-memory trees.
#include "catch.h"
#include "probe_test_support.h"
#include "probe/python/pyenv.h"

using namespace rocmdoc;
using rocmdoc::test::MemoryMachine;
using Env = std::map<std::string, std::string>;

namespace {

const char* kElf = "\x7f" "ELF\x02\x01\x01\0\0\0";
const char* kRocmTorch = "__version__ = '2.8.0+rocm6.4'\ncuda = None\nhip = '6.4.43482'\n";
const char* kCpuTorch = "__version__ = '2.8.0+cpu'\ncuda = None\nhip = None\n";
const char* kShim = "#!/usr/bin/env bash\nset -e\nexec \"/home/u/.pyenv/libexec/pyenv\" exec \"$program\" \"$@\"\n";
const char* kPasswd = "root:x:0:0:root:/root:/bin/bash\nu:x:1000:1000:U,,,:/home/u:/bin/bash\n";

// A machine run by u (no sudo), whose home /etc/passwd gives as /home/u.
MemoryMachine as_u(Env env) {
  env.emplace("HOME", "/home/u");
  MemoryMachine m(std::move(env));
  m.machine.user.known = true;
  m.machine.user.name = "u";
  m.machine.user.uid = m.machine.user.gid = 1000;
  m.fs->file("/etc/passwd", kPasswd).file("/usr/bin/python3.12", kElf).symlink("/usr/bin/python3", "python3.12");
  m.fs->dir("/home/u");
  return m;
}

// A venv on the system Python 3.12 at prefix, torch in it when given.
void venv(MemoryFileSystem& fs, const std::string& prefix, const char* torch = nullptr, bool system_site = false) {
  fs.file(prefix + "/pyvenv.cfg", std::string("home = /usr/bin\ninclude-system-site-packages = ") +
                                      (system_site ? "true" : "false") + "\nversion = 3.12.3\n")
      .symlink(prefix + "/bin/python3", "/usr/bin/python3")
      .symlink(prefix + "/bin/python", "python3")
      .dir(prefix + "/lib/python3.12/site-packages");
  if (torch) fs.file(prefix + "/lib/python3.12/site-packages/torch/version.py", torch);
}

// A conda or pyenv prefix with its own python3.N.
void prefix_python(MemoryFileSystem& fs, const std::string& prefix, const std::string& version,
                   const char* torch = nullptr) {
  fs.file(prefix + "/bin/python" + version, kElf).symlink(prefix + "/bin/python3", "python" + version);
  fs.dir(prefix + "/lib/python" + version + "/site-packages");
  if (torch) fs.file(prefix + "/lib/python" + version + "/site-packages/torch/version.py", torch);
}

const Json* interpreter(const Json& section, const std::string& path) {
  for (auto& py : section["interpreters"])
    if (py["path"] == path) return &py;
  return nullptr;
}

const Json* torch_in(const Json& section, const std::string& site_packages) {
  if (!section["torch"].is_array()) return nullptr;
  for (auto& t : section["torch"])
    if (t["site_packages"] == site_packages) return &t;
  return nullptr;
}

size_t count_under(const Json& section, const std::string& prefix) {
  size_t n = 0;
  for (auto& py : section["interpreters"])
    if (py["path"].get<std::string>().rfind(prefix, 0) == 0) ++n;
  return n;
}

bool any_mentions(const Json& list, const std::string& text) {
  for (auto& s : list)
    if (s.get<std::string>().find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("python: VIRTUAL_ENV and CONDA_PREFIX name the active environments", "[python][discovery]") {
  MemoryMachine m = as_u({{"PATH", "/usr/bin"},
                          {"VIRTUAL_ENV", "/home/u/proj/.venv"},
                          {"CONDA_PREFIX", "/opt/tools/conda/envs/rocm"}});
  venv(*m.fs, "/home/u/proj/.venv", kRocmTorch);
  m.fs->dir("/opt/tools/conda/envs/rocm/conda-meta");
  prefix_python(*m.fs, "/opt/tools/conda/envs/rocm", "3.11", kCpuTorch);
  Json r = m.run(probe_python);

  const Json* v = interpreter(r, "/home/u/proj/.venv/bin/python3");
  REQUIRE(v);
  CHECK((*v)["found_by"] == "VIRTUAL_ENV");
  CHECK((*v)["kind"] == "venv");
  CHECK((*v)["runs"].is_null());
  const Json* c = interpreter(r, "/opt/tools/conda/envs/rocm/bin/python3");
  REQUIRE(c);
  CHECK((*c)["found_by"] == "CONDA_PREFIX");
  CHECK((*c)["kind"] == "conda");

  const Json* vt = torch_in(r, "/home/u/proj/.venv/lib/python3.12/site-packages");
  REQUIRE(vt);
  CHECK((*vt)["build"] == "rocm");
  CHECK((*vt)["interpreters"] == Json::array({"/home/u/proj/.venv/bin/python3"}));
  const Json* ct = torch_in(r, "/opt/tools/conda/envs/rocm/lib/python3.11/site-packages");
  REQUIRE(ct);
  CHECK((*ct)["interpreters"] ==
        Json::array({"/opt/tools/conda/envs/rocm/bin/python3", "/opt/tools/conda/envs/rocm/bin/python3.11"}));
  CHECK(r["not_searched"] == Json::array());
}

TEST_CASE("python: a stale VIRTUAL_ENV, or one the recording did not keep, is said", "[python][discovery][malformed]") {
  SECTION("names a removed venv") {
    MemoryMachine m = as_u({{"PATH", "/usr/bin"}, {"VIRTUAL_ENV", "/home/u/gone"}});
    Json r = m.run(probe_python);
    CHECK(r["not_searched"] == Json::array({"VIRTUAL_ENV=/home/u/gone holds no bin/python3"}));
  }
  SECTION("relative") {
    MemoryMachine m = as_u({{"PATH", "/usr/bin"}, {"CONDA_PREFIX", "envs/x"}});
    Json r = m.run(probe_python);
    CHECK(r["not_searched"] == Json::array({"CONDA_PREFIX=envs/x: not an absolute path"}));
  }
  SECTION("not recorded") {
    MemoryMachine m = as_u({{"PATH", "/usr/bin"}});
    m.machine.set_env({{"PATH", "/usr/bin"}, {"HOME", "/home/u"}}, {"PATH", "HOME", "SUDO"});
    Json r = m.run(probe_python);
    CHECK(any_mentions(r["not_searched"], "did not keep VIRTUAL_ENV"));
    CHECK(any_mentions(r["not_searched"], "did not keep CONDA_PREFIX"));
  }
}

TEST_CASE("python: the same venv found several ways is one interpreter", "[python][discovery]") {
  // Activated (VIRTUAL_ENV and PATH), a home venv (~/venv), and a link to it
  // one level below home (~/work -> ~, so ~/work/venv is ~/venv again).
  MemoryMachine m = as_u({{"PATH", "/home/u/venv/bin:/usr/bin"}, {"VIRTUAL_ENV", "/home/u/venv"}});
  venv(*m.fs, "/home/u/venv", kRocmTorch);
  m.fs->symlink("/home/u/work", "/home/u").symlink("/home/u/venv-link", "venv");
  Json r = m.run(probe_python);
  CHECK(count_under(r, "/home/u/") == 1);  // bin/python3 once; python is not a python3 name
  const Json* v = interpreter(r, "/home/u/venv/bin/python3");
  REQUIRE(v);
  CHECK((*v)["found_by"] == "VIRTUAL_ENV");
  CHECK(r["python3_on_path"] == "/home/u/venv/bin/python3");
  REQUIRE(r["torch"].size() == 1);
  CHECK(r["torch"][0]["interpreters"] == Json::array({"/home/u/venv/bin/python3"}));
  CHECK(r["site_packages_searched"] == Json::array({"/home/u/venv/lib/python3.12/site-packages"}));
}

TEST_CASE("python: venvs in the home and one level below it", "[python][discovery]") {
  MemoryMachine m = as_u({{"PATH", "/usr/bin"}});
  venv(*m.fs, "/home/u/.venv");
  venv(*m.fs, "/home/u/proj/venv", kRocmTorch);
  venv(*m.fs, "/home/u/other/.venv", kCpuTorch);
  venv(*m.fs, "/home/u/myenv");            // ~/X that is itself a venv
  venv(*m.fs, "/mnt/data/venv");           // reached through ~/data -> /mnt/data
  venv(*m.fs, "/home/u/a/b/venv");         // two levels down: not looked for
  venv(*m.fs, "/home/u/.cache/x/venv");    // hidden: not looked through
  venv(*m.fs, "/root/venv", kRocmTorch);   // another user's home
  m.fs->symlink("/home/u/data", "/mnt/data")
      .symlink("/home/u/loop", "loop")     // a symlink loop is skipped, not followed
      .file("/home/u/notes.txt", "x");
  Json r = m.run(probe_python);

  for (const char* path : {"/home/u/.venv/bin/python3", "/home/u/proj/venv/bin/python3", "/home/u/other/.venv/bin/python3",
                           "/home/u/myenv/bin/python3", "/home/u/data/venv/bin/python3"}) {
    const Json* py = interpreter(r, path);
    INFO(path);
    REQUIRE(py);
    CHECK((*py)["found_by"] == "home venv");
    CHECK((*py)["kind"] == "venv");
  }
  CHECK_FALSE(interpreter(r, "/home/u/a/b/venv/bin/python3"));
  CHECK_FALSE(interpreter(r, "/home/u/.cache/x/venv/bin/python3"));
  CHECK_FALSE(interpreter(r, "/root/venv/bin/python3"));
  CHECK(r["torch"].size() == 2);
  const Json* t = torch_in(r, "/home/u/proj/venv/lib/python3.12/site-packages");
  REQUIRE(t);
  CHECK((*t)["interpreters"] == Json::array({"/home/u/proj/venv/bin/python3"}));
  CHECK(r["not_searched"] == Json::array());
}

TEST_CASE("python: under sudo the home is SUDO_USER's from /etc/passwd, not HOME", "[python][discovery]") {
  MemoryMachine m(Env{{"PATH", "/usr/bin"}, {"HOME", "/root"}, {"SUDO_USER", "alice"}});
  m.machine.user.known = true;
  m.machine.user.name = "root";
  m.fs->file("/etc/passwd", "root:x:0:0:root:/root:/bin/bash\nalice:x:1001:1001::/srv/alice:/bin/bash\n")
      .file("/usr/bin/python3.12", kElf)
      .symlink("/usr/bin/python3", "python3.12")
      .dir("/usr/lib/python3.12")
      .file("/srv/alice/.local/lib/python3.12/site-packages/torch/version.py", kRocmTorch)
      .file("/root/.local/lib/python3.12/site-packages/torch/version.py", kCpuTorch);
  venv(*m.fs, "/srv/alice/venv", kCpuTorch);
  Json r = m.run(probe_python);
  const Json* v = interpreter(r, "/srv/alice/venv/bin/python3");
  REQUIRE(v);
  CHECK((*v)["found_by"] == "home venv");
  CHECK_FALSE(torch_in(r, "/root/.local/lib/python3.12/site-packages"));
  // alice's ~/.local is imported by the system Python, not by her venv
  // (include-system-site-packages = false keeps the user site out too).
  const Json* user_site = torch_in(r, "/srv/alice/.local/lib/python3.12/site-packages");
  REQUIRE(user_site);
  CHECK((*user_site)["interpreters"] == Json::array({"/usr/bin/python3", "/usr/bin/python3.12"}));
  CHECK((*torch_in(r, "/srv/alice/venv/lib/python3.12/site-packages"))["interpreters"] ==
        Json::array({"/srv/alice/venv/bin/python3"}));

  SECTION("a sudo user /etc/passwd does not know has no home rocmdoc can tell") {
    m.machine.set_env({{"PATH", "/usr/bin"}, {"HOME", "/root"}, {"SUDO_USER", "ldapuser"}}, {"*"});
    Json l = m.run(probe_python);
    CHECK(any_mentions(l["not_searched"], "the home of ldapuser is unknown"));
    CHECK_FALSE(torch_in(l, "/root/.local/lib/python3.12/site-packages"));
  }
}

TEST_CASE("python: a venv with the system site-packages imports them too", "[python][discovery]") {
  MemoryMachine m = as_u({{"PATH", "/usr/bin"}});
  m.fs->file("/usr/local/lib/python3.12/dist-packages/torch/version.py", kRocmTorch);
  venv(*m.fs, "/home/u/shared", nullptr, true);
  venv(*m.fs, "/home/u/isolated", nullptr, false);
  m.fs->file("/home/u/.local/lib/python3.12/site-packages/torch/version.py", kCpuTorch);
  Json r = m.run(probe_python);
  const Json* sys = torch_in(r, "/usr/local/lib/python3.12/dist-packages");
  REQUIRE(sys);
  CHECK((*sys)["interpreters"] == Json::array({"/home/u/shared/bin/python3", "/usr/bin/python3", "/usr/bin/python3.12"}));
  const Json* user = torch_in(r, "/home/u/.local/lib/python3.12/site-packages");
  REQUIRE(user);
  CHECK((*user)["interpreters"] == Json::array({"/home/u/shared/bin/python3", "/usr/bin/python3", "/usr/bin/python3.12"}));
}

TEST_CASE("python: conda and mamba installs in the home, with their envs", "[python][discovery]") {
  MemoryMachine m = as_u({{"PATH", "/usr/bin"}});
  for (const char* base : {"/home/u/miniconda3", "/home/u/miniforge3"}) {
    m.fs->dir(std::string(base) + "/conda-meta");
    prefix_python(*m.fs, base, "3.12");
  }
  m.fs->dir("/home/u/miniforge3/envs/torch/conda-meta");
  prefix_python(*m.fs, "/home/u/miniforge3/envs/torch", "3.11", kRocmTorch);
  m.fs->dir("/home/u/miniforge3/envs/empty");  // no bin/: not an interpreter
  m.fs->dir("/home/u/anaconda3/envs").fail("/home/u/anaconda3/envs", "permission denied");
  Json r = m.run(probe_python);
  for (const char* path : {"/home/u/miniconda3/bin/python3", "/home/u/miniforge3/bin/python3",
                           "/home/u/miniforge3/envs/torch/bin/python3"}) {
    const Json* py = interpreter(r, path);
    INFO(path);
    REQUIRE(py);
    CHECK((*py)["found_by"] == "conda env");
    CHECK((*py)["kind"] == "conda");
  }
  CHECK(count_under(r, "/home/u/miniforge3/envs/empty") == 0);
  const Json* t = torch_in(r, "/home/u/miniforge3/envs/torch/lib/python3.11/site-packages");
  REQUIRE(t);
  CHECK((*t)["interpreters"] ==
        Json::array({"/home/u/miniforge3/envs/torch/bin/python3", "/home/u/miniforge3/envs/torch/bin/python3.11"}));
  CHECK(r["not_searched"] == Json::array({"/home/u/anaconda3/envs: permission denied"}));
}

TEST_CASE("python: pyenv versions, and the one a shim runs", "[python][discovery]") {
  MemoryMachine m = as_u({{"PATH", "/home/u/.pyenv/shims:/usr/bin"}});
  m.fs->file("/home/u/.pyenv/shims/python3", kShim);
  prefix_python(*m.fs, "/home/u/.pyenv/versions/3.11.9", "3.11", kCpuTorch);
  prefix_python(*m.fs, "/home/u/.pyenv/versions/3.12.4", "3.12", kRocmTorch);
  const std::string v11 = "/home/u/.pyenv/versions/3.11.9/lib/python3.11/site-packages";
  const std::string v12 = "/home/u/.pyenv/versions/3.12.4/lib/python3.12/site-packages";

  SECTION("the version file chooses") {
    m.fs->file("/home/u/.pyenv/version", "# global\n\n3.12.4 extra words\n3.11.9\n");
    Json r = m.run(probe_python);
    const Json* shim = interpreter(r, "/home/u/.pyenv/shims/python3");
    REQUIRE(shim);
    CHECK((*shim)["runs"] == "/home/u/.pyenv/versions/3.12.4/bin/python3");
    CHECK((*shim)["runs_set_by"] == "/home/u/.pyenv/version");
    CHECK((*shim)["version"] == "3.12");
    const Json* ver = interpreter(r, "/home/u/.pyenv/versions/3.11.9/bin/python3");
    REQUIRE(ver);
    CHECK((*ver)["found_by"] == "pyenv version");
    CHECK((*ver)["kind"] == "pyenv");
    CHECK((*ver)["runs"].is_null());
    CHECK((*torch_in(r, v12))["interpreters"] ==
          Json::array({"/home/u/.pyenv/shims/python3", "/home/u/.pyenv/versions/3.12.4/bin/python3",
                       "/home/u/.pyenv/versions/3.12.4/bin/python3.12"}));
    CHECK((*torch_in(r, v11))["interpreters"] ==
          Json::array({"/home/u/.pyenv/versions/3.11.9/bin/python3", "/home/u/.pyenv/versions/3.11.9/bin/python3.11"}));
  }
  SECTION("PYENV_VERSION wins over the version file") {
    m.fs->file("/home/u/.pyenv/version", "3.12.4\n");
    m.machine.set_env({{"PATH", "/home/u/.pyenv/shims:/usr/bin"}, {"HOME", "/home/u"}, {"PYENV_VERSION", "3.11.9"}}, {"*"});
    Json r = m.run(probe_python);
    const Json* shim = interpreter(r, "/home/u/.pyenv/shims/python3");
    REQUIRE(shim);
    CHECK((*shim)["runs"] == "/home/u/.pyenv/versions/3.11.9/bin/python3");
    CHECK((*shim)["runs_set_by"] == "PYENV_VERSION");
    CHECK((*shim)["version"] == "3.11");
    CHECK((*torch_in(r, v11))["interpreters"][0] == "/home/u/.pyenv/shims/python3");
  }
  SECTION("a version file naming a missing version: the shim fails, and imports nothing") {
    m.fs->file("/home/u/.pyenv/version", "3.9.18\n");
    Json r = m.run(probe_python);
    const Json* shim = interpreter(r, "/home/u/.pyenv/shims/python3");
    REQUIRE(shim);
    REQUIRE(is_unknown((*shim)["runs"]));
    CHECK(unknown_reason((*shim)["runs"]) ==
          "pyenv version 3.9.18 (set by /home/u/.pyenv/version) is not installed: /home/u/.pyenv/versions/3.9.18 "
          "does not exist, so the shim fails instead of running Python");
    CHECK(is_unknown((*shim)["version"]));
    CHECK((*shim)["runs_set_by"] == "/home/u/.pyenv/version");
    for (auto& t : r["torch"]) CHECK_FALSE(any_mentions(t["interpreters"], "/shims/"));
    // The versions themselves are still found.
    CHECK(interpreter(r, "/home/u/.pyenv/versions/3.12.4/bin/python3"));
  }
  SECTION("PYENV_VERSION not recorded") {
    m.machine.set_env({{"PATH", "/home/u/.pyenv/shims:/usr/bin"}, {"HOME", "/home/u"}}, {"PATH", "HOME", "SUDO", "VIRTUAL", "CONDA"});
    Json r = m.run(probe_python);
    const Json* shim = interpreter(r, "/home/u/.pyenv/shims/python3");
    REQUIRE(shim);
    CHECK(is_unknown((*shim)["runs"]));
    CHECK(is_unknown((*shim)["runs_set_by"]));
  }
}

TEST_CASE("python: pyenv version files as pyenv reads them", "[python][discovery]") {
  CHECK(parse_pyenv_version_file("3.12.4\n") == std::vector<std::string>{"3.12.4"});
  CHECK(parse_pyenv_version_file("# c\n\n  3.11.9  # why\r\nsystem\n") == std::vector<std::string>{"3.11.9", "system"});
  CHECK(parse_pyenv_version_file("..\n../../etc\nminiconda3-latest/envs/x\n").empty());
  CHECK(parse_pyenv_version_file(std::string("\0\0\x01\x02", 4)).empty());
  CHECK(parse_pyenv_version_file("").empty());
}

TEST_CASE("python: the venv rocmdoc install made, from its journal", "[python][discovery]") {
  MemoryMachine m = as_u({{"PATH", "/usr/bin"}});
  const std::string journal =
      "{\"format\": 1, \"plan_key\": \"install ubuntu-24.04 rocm-7.2.4 torch\", \"started_at\": \"\", "
      "\"reboot_requested_in_boot\": \"\", \"done\": [{\"step\": \"venv-pkg\"}, {\"step\": \"venv\"}, {\"step\": \"torch\"}]}";

  SECTION("found where the install puts it, by the install") {
    m.fs->file("/var/lib/rocmdoc/install.json", journal);
    venv(*m.fs, "/home/u/rocm-venv", kRocmTorch);  // also a ~/X venv: found once, by the journal
    Json r = m.run(probe_python);
    const Json* v = interpreter(r, "/home/u/rocm-venv/bin/python3");
    REQUIRE(v);
    CHECK((*v)["found_by"] == "rocmdoc install");
    CHECK(count_under(r, "/home/u/rocm-venv/") == 1);
    CHECK((*torch_in(r, "/home/u/rocm-venv/lib/python3.12/site-packages"))["interpreters"] ==
          Json::array({"/home/u/rocm-venv/bin/python3"}));
    CHECK(r["not_searched"] == Json::array());
  }
  SECTION("the journal has the venv done, but it is not at the default path") {
    m.fs->file("/var/lib/rocmdoc/install.json", journal);
    Json r = m.run(probe_python);
    CHECK(r["not_searched"] ==
          Json::array({"/var/lib/rocmdoc/install.json has the venv step done (it does not keep --venv), but "
                       "/home/u/rocm-venv, the default, holds no bin/python3"}));
  }
  SECTION("an install stopped before the venv step: a ~/X venv, not the install's") {
    m.fs->file("/var/lib/rocmdoc/install.json", "{\"format\": 1, \"plan_key\": \"k\", \"done\": [{\"step\": \"apt-lock\"}]}");
    venv(*m.fs, "/home/u/rocm-venv");
    Json r = m.run(probe_python);
    CHECK((*interpreter(r, "/home/u/rocm-venv/bin/python3"))["found_by"] == "home venv");
    CHECK(r["not_searched"] == Json::array());
  }
  SECTION("a journal that is not one") {
    m.fs->file("/var/lib/rocmdoc/install.json", "{\"format\": 2}");
    Json r = m.run(probe_python);
    CHECK(r["not_searched"] == Json::array({"the venv rocmdoc install made: /var/lib/rocmdoc/install.json: not a journal of "
                                            "format 1"}));
  }
  SECTION("an unreadable journal") {
    m.fs->file("/var/lib/rocmdoc/install.json", journal).fail("/var/lib/rocmdoc/install.json", "permission denied");
    Json r = m.run(probe_python);
    REQUIRE(r["not_searched"].size() == 1);
    CHECK(any_mentions(r["not_searched"], "the venv rocmdoc install made: /var/lib/rocmdoc/install.json: permission denied"));
  }
}

TEST_CASE("python: a home that cannot be read is said, not guessed", "[python][discovery][malformed]") {
  SECTION("the home itself") {
    MemoryMachine m = as_u({{"PATH", "/usr/bin"}});
    venv(*m.fs, "/home/u/venv", kRocmTorch);
    m.fs->fail("/home/u", "permission denied");
    Json r = m.run(probe_python);
    CHECK(count_under(r, "/home/u") == 0);
    CHECK(r["not_searched"] ==
          Json::array({"~/.local, venvs, conda and pyenv in the home: /home/u: permission denied"}));
  }
  SECTION("a directory in it") {
    MemoryMachine m = as_u({{"PATH", "/usr/bin"}});
    venv(*m.fs, "/home/u/proj/venv", kRocmTorch);
    venv(*m.fs, "/home/u/ok/venv");
    m.fs->fail("/home/u/proj/venv", "permission denied");
    Json r = m.run(probe_python);
    CHECK(interpreter(r, "/home/u/ok/venv/bin/python3"));
    CHECK_FALSE(interpreter(r, "/home/u/proj/venv/bin/python3"));
    CHECK(r["not_searched"] == Json::array({"/home/u/proj/venv: /home/u/proj/venv/bin: permission denied"}));
  }
  SECTION("a recording that did not keep the home") {
    MemoryMachine m(Env{{"PATH", "/usr/bin"}});
    m.machine.user.known = true;
    m.machine.user.name = "u";
    m.fs->file("/etc/passwd", kPasswd).dir("/usr/bin");
    Json r = m.run(probe_python);
    CHECK(r["not_searched"] == Json::array({"~/.local, venvs, conda and pyenv in the home: /home/u: not in this recording"}));
    MemoryMachine live(Env{{"PATH", "/usr/bin"}});
    live.machine.live = true;
    live.machine.user.known = true;
    live.machine.user.name = "u";
    live.fs->file("/etc/passwd", kPasswd);
    CHECK(live.run(probe_python)["not_searched"] == Json::array());
  }
}
