#include "catch.h"
#include "probe_test_support.h"
#include "probe/python/interpreters.h"
#include "probe/python/torch.h"
#include "test_support.h"

using namespace rocmdoc;
using rocmdoc::test::MemoryMachine;
using Env = std::map<std::string, std::string>;

namespace {

const char* kRocmVersionPy =
    "from typing import Optional\n\n"
    "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
    "__version__ = '2.5.1+rocm6.2'\n"
    "debug = False\n"
    "cuda: Optional[str] = None\n"
    "git_version = 'a8d6afb511a69687bbb2b7e88a3cf67917e1697e'\n"
    "hip: Optional[str] = '6.2.41133-dd7f95766'\n";
const char* kCudaVersionPy =
    "__version__ = '2.5.0+cu124'\ndebug = False\ncuda: Optional[str] = '12.4'\nhip: Optional[str] = None\n"
    "xpu: Optional[str] = None\n";
const char* kElf = "\x7f" "ELF\x02\x01\x01\0\0\0";

bool mentions(const Json& fact, const std::string& text) { return unknown_reason(fact).find(text) != std::string::npos; }

const Json* interpreter(const Json& section, const std::string& path) {
  for (auto& py : section["interpreters"])
    if (py["path"] == path) return &py;
  return nullptr;
}

const Json* torch_in(const Json& section, const std::string& site_packages) {
  for (auto& t : section["torch"])
    if (t["site_packages"] == site_packages) return &t;
  return nullptr;
}

}  // namespace

TEST_CASE("python: torch/version.py as pytorch writes it", "[python]") {
  Json rocm = parse_torch_version_py("/v.py", kRocmVersionPy);
  CHECK(rocm["version"] == "2.5.1+rocm6.2");
  CHECK(rocm["hip"] == "6.2.41133-dd7f95766");
  CHECK(rocm["cuda"].is_null());
  CHECK(rocm["build"] == "rocm");
  Json cuda = parse_torch_version_py("/v.py", kCudaVersionPy);
  CHECK(cuda["cuda"] == "12.4");
  CHECK(cuda["build"] == "cuda");
  // Older files: plain assignments, double quotes, trailing comments.
  Json old = parse_torch_version_py("/v.py", "__version__ = \"1.13.0a0\"\ndebug = False\ncuda = None  # cpu\n"
                                             "git_version = 'Unknown'\nhip = None\n");
  CHECK(old["version"] == "1.13.0a0");
  CHECK(old["build"] == "cpu");
  Json xpu = parse_torch_version_py("/v.py", "__version__ = '2.7.0+xpu'\ncuda = None\nhip = None\nxpu = '20250001'\n");
  CHECK(xpu["build"] == "xpu");
}

TEST_CASE("python: torch/version.py that cannot tell", "[python][malformed]") {
  SECTION("empty") {
    Json v = parse_torch_version_py("/v.py", "");
    CHECK(mentions(v["version"], "/v.py: no __version__ line"));
    CHECK(is_unknown(v["hip"]));
    CHECK(is_unknown(v["build"]));
  }
  SECTION("truncated before hip") {
    Json v = parse_torch_version_py("/v.py", "__version__ = '2.5.1+rocm6.2'\ncuda: Optional[str] = None\nhip: Opt");
    CHECK(v["version"] == "2.5.1+rocm6.2");
    CHECK(mentions(v["hip"], "no hip line"));
    CHECK(is_unknown(v["build"]));
  }
  SECTION("binary") {
    Json v = parse_torch_version_py("/v.py", std::string("\0\0\0\x01\x02hip = None", 15));
    CHECK(mentions(v["build"], "binary"));
  }
  SECTION("wrong types and expressions") {
    Json v = parse_torch_version_py("/v.py", "__version__ = None\ncuda = get_cuda()\nhip = 6.2\n");
    CHECK(mentions(v["version"], "__version__ is None"));
    CHECK(mentions(v["cuda"], "cuda is not a literal: \"get_cuda()\""));
    CHECK(mentions(v["hip"], "hip is not a literal"));
    CHECK(is_unknown(v["build"]));
  }
  SECTION("an unterminated string, an escape, an empty string, junk after the value") {
    Json v = parse_torch_version_py("/v.py", "__version__ = '2.5\ncuda = 'a\\'b'\nhip = ''\nxpu = 'x' + 'y'\n");
    CHECK(is_unknown(v["version"]));
    CHECK(is_unknown(v["cuda"]));
    CHECK(mentions(v["hip"], "empty string"));
    CHECK(is_unknown(v["build"]));
  }
  SECTION("lookalike names and indented or compared lines are not the fields") {
    Json v = parse_torch_version_py("/v.py", "__version__ = '2.0'\ncuda_version = '12.8'\n  hip = '6.0'\n"
                                             "if hip == '6.0': pass\ncuda = None\nhip = None\n");
    CHECK(v["cuda"].is_null());
    CHECK(v["hip"].is_null());
    CHECK(v["build"] == "cpu");
  }
  SECTION("both hip and cuda set") {
    Json v = parse_torch_version_py("/v.py", "__version__ = '2'\ncuda = '12.1'\nhip = '6.0'\n");
    CHECK(mentions(v["build"], "more than one"));
  }
  SECTION("an unrendered template") {
    Json v = parse_torch_version_py("/v.py", "__version__ = '{{VERSION}}'\ncuda = '{{CUDA_VERSION}}'\nhip = None\n");
    CHECK(v["build"] == "cuda");  // as written; the template is not a real install
  }
  SECTION("huge") {
    std::string big(300000, '#');
    big += "\n__version__ = '2.1'\ncuda = None\nhip = None\n";
    CHECK(parse_torch_version_py("/v.py", big)["build"] == "cpu");
  }
}

TEST_CASE("python: version names and paths", "[python]") {
  CHECK(python_version_of_name("python3.12") == "3.12");
  CHECK(python_version_of_name("python3.9") == "3.9");
  for (const char* name : {"python3", "python3.", "python3.12-config", "python3.12m", "python3.x", "python2.7", ""})
    CHECK(python_version_of_name(name).empty());
  CHECK(python_version_in_path("/usr/local/lib/python3.11/dist-packages") == "3.11");
  CHECK(python_version_in_path("/usr/lib/python3/dist-packages").empty());
  CHECK(python_version_from_pyvenv_cfg("/c", "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n") ==
        "3.12");
  CHECK(python_version_from_pyvenv_cfg("/c", "home = /usr/bin\nvirtualenv = 20.25.0\nversion_info = 3.10.12.final.0\n") ==
        "3.10");
  CHECK(mentions(python_version_from_pyvenv_cfg("/c", "version = 20.0.1\n"), "/c: no version"));
  CHECK(mentions(python_version_from_pyvenv_cfg("/c", ""), "no version"));
  CHECK(mentions(python_version_from_pyvenv_cfg("/c", "version = 3\nversion_info = three.twelve\n"), "no version"));
  CHECK(mentions(python_version_from_pyvenv_cfg("/c", std::string("\0\0\0\x01", 4)), "binary"));
}

TEST_CASE("python: a Debian system with pip's torch beside the distribution's", "[python]") {
  MemoryMachine m(Env{{"PATH", "/usr/local/bin:/usr/bin:/bin:relative::/nonexistent"}, {"HOME", "/home/u"}});
  m.fs->file("/usr/bin/python3.12", kElf)
      .symlink("/usr/bin/python3", "python3.12")
      .file("/usr/bin/python3-config", "#!/bin/sh\n")
      .symlink("/bin", "usr/bin")
      .dir("/usr/lib/python3.12")
      .file("/usr/lib/python3/dist-packages/torch/version.py", "__version__ = '2.1.2'\ncuda = None\nhip = None\n")
      .file("/usr/local/lib/python3.12/dist-packages/torch/version.py", kCudaVersionPy)
      .file("/home/u/.local/lib/python3.12/site-packages/torch/version.py", kRocmVersionPy)
      .dir("/home/u/.local/lib/python3.12/site-packages/numpy");
  Json r = m.run(probe_python);
  REQUIRE(r["interpreters"].size() == 2);
  const Json* py3 = interpreter(r, "/usr/bin/python3");
  REQUIRE(py3);
  CHECK((*py3)["resolved"] == "/usr/bin/python3.12");
  CHECK((*py3)["version"] == "3.12");
  CHECK((*py3)["kind"] == "system");
  CHECK((*py3)["found_by"] == "PATH");
  CHECK(r["python3_on_path"] == "/usr/bin/python3");
  REQUIRE(r["torch"].size() == 3);
  const Json* debian = torch_in(r, "/usr/lib/python3/dist-packages");
  REQUIRE(debian);
  CHECK((*debian)["build"] == "cpu");
  CHECK((*debian)["python_version"] == "3.12");  // /usr/bin/python3 tells
  const Json* pip = torch_in(r, "/usr/local/lib/python3.12/dist-packages");
  REQUIRE(pip);
  CHECK((*pip)["build"] == "cuda");
  const Json* user = torch_in(r, "/home/u/.local/lib/python3.12/site-packages");
  REQUIRE(user);
  CHECK((*user)["build"] == "rocm");
  CHECK((*user)["python_version"] == "3.12");
  CHECK(r["not_searched"] == Json::array());
}

TEST_CASE("python: venvs, conda and pyenv", "[python]") {
  MemoryMachine m(Env{{"PATH", "/home/u/.pyenv/shims:/usr/bin"}, {"HOME", "/home/u"}});
  m.options.python_paths = {"/home/u/venv", "/opt/conda/bin/python3", "/home/u/missing/python3", "venv2"};
  m.fs->file("/usr/bin/python3.12", kElf)
      .symlink("/usr/bin/python3", "python3.12")
      // A venv on the system Python.
      .file("/home/u/venv/pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n")
      .symlink("/home/u/venv/bin/python3", "/usr/bin/python3")
      .symlink("/home/u/venv/bin/python", "python3")
      .symlink("/home/u/venv/lib64", "lib")
      .file("/home/u/venv/lib/python3.12/site-packages/torch/version.py", kRocmVersionPy)
      // conda.
      .dir("/opt/conda/conda-meta")
      .file("/opt/conda/bin/python3.10", kElf)
      .symlink("/opt/conda/bin/python3", "python3.10")
      .file("/opt/conda/lib/python3.10/site-packages/torch/version.py", kCudaVersionPy)
      // pyenv: a shim on PATH, and the versions it may run.
      .file("/home/u/.pyenv/shims/python3", "#!/usr/bin/env bash\nset -e\nexec \"/home/u/.pyenv/libexec/pyenv\" exec \"$program\" \"$@\"\n")
      .file("/home/u/.pyenv/versions/3.11.7/bin/python3.11", kElf)
      .file("/home/u/.pyenv/versions/3.11.7/lib/python3.11/site-packages/torch/version.py",
            "__version__ = '2.4.0'\ncuda = None\nhip = None\n");
  Json r = m.run(probe_python);
  const Json* venv = interpreter(r, "/home/u/venv/bin/python3");
  REQUIRE(venv);
  CHECK((*venv)["kind"] == "venv");
  CHECK((*venv)["version"] == "3.12");
  CHECK((*venv)["found_by"] == "--python");
  CHECK((*venv)["resolved"] == "/usr/bin/python3.12");
  const Json* conda = interpreter(r, "/opt/conda/bin/python3");
  REQUIRE(conda);
  CHECK((*conda)["kind"] == "conda");
  CHECK((*conda)["version"] == "3.10");
  const Json* shim = interpreter(r, "/home/u/.pyenv/shims/python3");
  REQUIRE(shim);
  CHECK((*shim)["kind"] == "pyenv");
  // No PYENV_VERSION and no ~/.pyenv/version: pyenv runs "system", the
  // python3 PATH gives after the shims.
  CHECK((*shim)["runs_set_by"] == "default");
  CHECK((*shim)["runs"] == "/usr/bin/python3");
  CHECK((*shim)["version"] == "3.12");
  CHECK(r["python3_on_path"] == "/home/u/.pyenv/shims/python3");
  const Json* missing = interpreter(r, "/home/u/missing/python3");
  REQUIRE(missing);
  CHECK(is_unknown((*missing)["resolved"]));
  CHECK(is_unknown((*missing)["version"]));
  CHECK(r["not_searched"][0] == "--python venv2: not an absolute path");

  REQUIRE(torch_in(r, "/home/u/venv/lib/python3.12/site-packages"));
  CHECK((*torch_in(r, "/home/u/venv/lib/python3.12/site-packages"))["build"] == "rocm");
  REQUIRE(torch_in(r, "/opt/conda/lib/python3.10/site-packages"));
  CHECK((*torch_in(r, "/opt/conda/lib/python3.10/site-packages"))["python_version"] == "3.10");
  REQUIRE(torch_in(r, "/home/u/.pyenv/versions/3.11.7/lib/python3.11/site-packages"));
  CHECK(r["torch"].size() == 3);
  // Each directory once, whatever path led to it (lib64 -> lib).
  CHECK(r["site_packages_searched"] == Json::array({"/home/u/.pyenv/versions/3.11.7/lib/python3.11/site-packages",
                                                    "/home/u/venv/lib/python3.12/site-packages",
                                                    "/opt/conda/lib/python3.10/site-packages"}));
}

// Fixes name python.torch[0] ("start the program with <its interpreter>",
// "<its interpreter> -m pip install ..."): the torch the user chose, else
// the ROCm build, not whichever site-packages sorts first.
TEST_CASE("python: the torch a fix should name comes first", "[python]") {
  auto machine = [](Env env) {
    auto m = std::make_unique<MemoryMachine>(std::move(env));
    m->fs->file("/usr/bin/python3.12", kElf)
        .symlink("/usr/bin/python3", "python3.12")
        .dir("/usr/lib/python3.12")
        // pip's CUDA torch in the user site, which /usr/bin/python3 imports.
        .file("/home/u/.local/lib/python3.12/site-packages/torch/version.py", kCudaVersionPy)
        // A CPU torch in a venv one level below the home.
        .file("/home/u/cpu/venv/pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n")
        .symlink("/home/u/cpu/venv/bin/python3", "/usr/bin/python3")
        .file("/home/u/cpu/venv/lib/python3.12/site-packages/torch/version.py", "__version__ = '2.4.0+cpu'\ncuda = None\nhip = None\n")
        // The ROCm torch in another, whose path sorts last.
        .file("/home/u/work/venv/pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n")
        .symlink("/home/u/work/venv/bin/python3", "/usr/bin/python3")
        .file("/home/u/work/venv/lib/python3.12/site-packages/torch/version.py", kRocmVersionPy);
    return m;
  };
  auto sites = [](const Json& r) {
    std::vector<std::string> out;
    for (auto& t : r["torch"]) out.push_back(t["site_packages"].get<std::string>());
    return out;
  };
  SECTION("nothing chosen: the ROCm build first, then PATH's before a home venv's") {
    auto m = machine(Env{{"PATH", "/usr/bin"}, {"HOME", "/home/u"}});
    Json r = m->run(probe_python);
    CHECK(sites(r) == std::vector<std::string>{"/home/u/work/venv/lib/python3.12/site-packages",
                                               "/home/u/.local/lib/python3.12/site-packages",
                                               "/home/u/cpu/venv/lib/python3.12/site-packages"});
    CHECK(r["torch"][0]["interpreters"] == Json::array({"/home/u/work/venv/bin/python3"}));
  }
  SECTION("an activated venv first, whatever its build") {
    auto m = machine(Env{{"PATH", "/home/u/cpu/venv/bin:/usr/bin"}, {"HOME", "/home/u"},
                         {"VIRTUAL_ENV", "/home/u/cpu/venv"}});
    Json r = m->run(probe_python);
    REQUIRE(r["torch"].size() == 3);
    CHECK(r["torch"][0]["site_packages"] == "/home/u/cpu/venv/lib/python3.12/site-packages");
    CHECK(r["torch"][1]["site_packages"] == "/home/u/work/venv/lib/python3.12/site-packages");
  }
}

TEST_CASE("python: environment that cannot tell", "[python][malformed]") {
  SECTION("PATH and HOME not recorded") {
    MemoryMachine m;
    m.machine.set_env({}, {"HSA"});
    m.fs->file("/usr/bin/python3.11", kElf);
    Json r = m.run(probe_python);
    CHECK(mentions(r["python3_on_path"], "did not keep PATH"));
    REQUIRE(r["interpreters"].size() == 1);
    CHECK(r["interpreters"][0]["found_by"] == "common location");
    REQUIRE(r["not_searched"].size() == 4);
    CHECK(r["not_searched"][0] == "VIRTUAL_ENV: the recording of this machine did not keep VIRTUAL_ENV");
    CHECK(r["not_searched"][1] == "CONDA_PREFIX: the recording of this machine did not keep CONDA_PREFIX");
    CHECK(r["not_searched"][2] == "PATH: the recording of this machine did not keep PATH");
    CHECK(r["not_searched"][3] == "~/.local, venvs, conda and pyenv in the home: the recording of this machine did not keep HOME");
  }
  SECTION("PATH unset") {
    MemoryMachine m;
    m.fs->dir("/usr/bin");
    Json r = m.run(probe_python);
    CHECK(r["python3_on_path"].is_null());
    CHECK(r["interpreters"] == Json::array());
  }
  SECTION("a live machine with nothing is simply empty; a recording with nothing is unknown") {
    MemoryMachine recorded(Env{{"PATH", "/usr/bin"}});
    Json r = recorded.run(probe_python);
    CHECK(is_unknown(r["interpreters"]));
    CHECK(is_unknown(r["python3_on_path"]));
    CHECK(is_unknown(r["torch"]));
    MemoryMachine live(Env{{"PATH", "/usr/bin"}});
    live.machine.live = true;
    Json l = live.run(probe_python);
    CHECK(l["interpreters"] == Json::array());
    CHECK(l["python3_on_path"].is_null());
    CHECK(l["torch"] == Json::array());
  }
  SECTION("dangling links, unreadable directories and version files") {
    MemoryMachine m(Env{{"PATH", "/usr/bin:/secret"}});
    m.fs->symlink("/usr/bin/python3", "python3.13")
        .dir("/secret")
        .fail("/secret", "permission denied")
        .file("/usr/lib/python3/dist-packages/torch/version.py", "x")
        .fail("/usr/lib/python3/dist-packages/torch/version.py", "permission denied")
        .dir("/usr/local/lib/python3.12/dist-packages/torch");
    Json r = m.run(probe_python);
    REQUIRE(r["interpreters"].size() == 1);
    CHECK(is_unknown(r["interpreters"][0]["resolved"]));
    CHECK(r["python3_on_path"] == "/usr/bin/python3");
    CHECK(r["not_searched"][0].get<std::string>().find("/secret") != std::string::npos);
    REQUIRE(r["torch"].size() == 2);
    CHECK(r["torch"][0]["site_packages"] == "/usr/lib/python3/dist-packages");
    CHECK(mentions(r["torch"][0]["build"], "permission denied"));
    CHECK(mentions(r["torch"][1]["version"], "torch/version.py: no such file"));
  }
  SECTION("a huge version.py is refused, not read") {
    MemoryMachine m(Env{{"PATH", "/usr/bin"}});
    m.fs->file("/usr/lib/python3/dist-packages/torch/version.py", std::string(1 << 20, '#'));
    Json r = m.run(probe_python);
    REQUIRE(r["torch"].size() == 1);
    CHECK(mentions(r["torch"][0]["version"], "larger than"));
  }
}

TEST_CASE("python: the real Debian 12 capture with Debian's CPU torch", "[python][machines]") {
  Json facts = rocmdoc::test::facts_for_root(rocmdoc::test::machine_root("debian12-vm-distro-rocm"));
  Json p = facts["python"];
  REQUIRE(p["torch"].is_array());
  REQUIRE(p["torch"].size() == 1);
  Json t = p["torch"][0];
  CHECK(t["site_packages"] == "/usr/lib/python3/dist-packages");
  CHECK(t["version"] == "1.13.0a0");
  CHECK(t["cuda"].is_null());
  CHECK(t["hip"].is_null());
  CHECK(t["build"] == "cpu");
  // No interpreter was recorded to say which Python 3 reads dist-packages.
  CHECK(is_unknown(t["python_version"]));
  CHECK(p["site_packages_searched"] == Json::array({"/usr/lib/python3/dist-packages"}));
  // PATH names /home/user/.pyenv/shims first, but the capture kept none of
  // PATH's directories: neither "no interpreters" nor "no python3".
  CHECK(is_unknown(p["interpreters"]));
  CHECK(is_unknown(p["python3_on_path"]));
  CHECK(unknown_reason(p["python3_on_path"]).find("/home/user/.pyenv/shims") != std::string::npos);
}
