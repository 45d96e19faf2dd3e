#include "catch.h"
#include "probe_test_support.h"
#include "probe/rocm/apt.h"
#include "probe/rocm/installs.h"
#include "probe/rocm/packages.h"
#include "probe/rocm/rocblas_kernels.h"
#include "test_support.h"

using namespace rocmdoc;
using rocmdoc::test::MemoryMachine;

namespace {

DpkgPackage package(std::string name, std::string version, std::string maintainer) {
  DpkgPackage p;
  p.name = std::move(name);
  p.version = std::move(version);
  p.maintainer = std::move(maintainer);
  p.status = "install ok installed";
  return p;
}

const char* kAmdMaintainer = "ROCm Dev Support <rocm-dev.support@amd.com>";

bool mentions(const Json& fact, const std::string& text) { return unknown_reason(fact).find(text) != std::string::npos; }

}  // namespace

TEST_CASE("rocm: ROCm package names, AMD's and Debian's", "[rocm]") {
  for (const char* name : {"rocm-core", "rocminfo", "rocm-smi-lib", "hip-runtime-amd", "hipblas", "hsa-rocr",
                           "miopen-hip", "rccl", "rocblas", "amdgpu-dkms", "amdgpu-dkms-firmware", "amdgpu-install",
                           "libhsa-runtime64-1", "libhsakmt1", "librocm-smi64-1", "libamdhip64-5", "python3-torch",
                           "libdrm-amdgpu1", "librocblas0", "libdrm-amdgpu-amdgpu1", "amdrocm10.1",
                           "amdrocm10.1-gfx1100", "amdsmi", "libamd-smi26", "libamd-smi0"})
    CHECK(is_rocm_package_name(name));
  for (const char* name : {"rocksdb-tools", "libdrm2", "python3-numpy", "amdgpu", "", "roc", "xserver-xorg-video-amdgpu",
                           "libamd3" /* SuiteSparse's AMD ordering, not AMD's */})
    CHECK_FALSE(is_rocm_package_name(name));
}

TEST_CASE("rocm: package origin from maintainer and version shape", "[rocm]") {
  SECTION("AMD's build: both signs") {
    auto o = classify_package_origin(package("rocm-core", "6.4.1.60401-83~24.04", kAmdMaintainer));
    CHECK(o.origin == "amd");
    CHECK(o.evidence.size() == 2);
  }
  SECTION("AMD's driver packages, epoch and eight-digit release numbers") {
    CHECK(classify_package_origin(package("amdgpu-dkms", "1:6.8.5.60200-2009582.24.04", "")).origin == "amd");
    CHECK(classify_package_origin(package("amdgpu-install", "30.30.1.0.30300100-2303411.24.04", "")).origin == "amd");
  }
  SECTION("Debian's and Ubuntu's") {
    CHECK(classify_package_origin(package("rocminfo", "5.2.3-2", "ROCm Team <debian-ai@lists.debian.org>")).origin ==
          "distro");
    CHECK(classify_package_origin(package("libhsakmt1", "5.7.1-2ubuntu1", "")).origin == "distro");
    CHECK(classify_package_origin(
              package("rocminfo", "5.7.1-3", "Ubuntu Developers <ubuntu-devel-discuss@lists.ubuntu.com>"))
              .origin == "distro");
  }
  SECTION("no sign at all: undecided, with the reason") {
    auto o = classify_package_origin(package("rocm-smi", "5.2.3-2", "Someone <me@example.org>"));
    CHECK(o.origin.empty());
    CHECK(o.why_unknown.find("neither the maintainer") != std::string::npos);
  }
  SECTION("signs that disagree: undecided") {
    auto o = classify_package_origin(package("rocm-core", "6.4.1.60401-83", "X <x@lists.debian.org>"));
    CHECK(o.origin.empty());
    CHECK(o.why_unknown.find("disagree") != std::string::npos);
  }
  SECTION("a lookalike address is not AMD's") {
    CHECK(classify_package_origin(package("rocm-core", "6.4.1-1", "X <x@notamd.com>")).origin.empty());
  }
}

TEST_CASE("rocm: packages from dpkg status, installed and half-way", "[rocm]") {
  MemoryMachine m;
  m.fs->file("/var/lib/dpkg/status",
             "Package: rocm-core\nStatus: install ok installed\nArchitecture: amd64\n"
             "Maintainer: ROCm Dev Support <rocm-dev.support@amd.com>\nVersion: 6.4.1.60401-83~24.04\n\n"
             "Package: bash\nStatus: install ok installed\nVersion: 5.2-1\n\n"
             "Package: amdgpu-dkms\nStatus: install ok half-configured\nVersion: 1:6.8.5.60200-2009582.24.04\n\n"
             "Package: hipcc\nStatus: hold ok installed\nVersion: 1.1.1.60401-83~24.04\n\n"
             "Package: rocm-gone\nStatus: deinstall ok config-files\nVersion: 1\n\n"
             "Package: libdrm-amdgpu1\nStatus: install ok installed\nSource: libdrm (2.4.114-1)\n"
             "Maintainer: Debian X Strike Force <debian-x@lists.debian.org>\nVersion: 2.4.114-1+b1\n");
  Json r = m.run(probe_rocm);
  REQUIRE(r["packages"].is_array());
  REQUIRE(r["packages"].size() == 3);
  CHECK(r["packages"][0]["name"] == "hipcc");
  CHECK(r["packages"][0]["status"] == "hold ok installed");
  CHECK(r["packages"][0]["origin"] == "amd");
  CHECK(r["packages"][1]["name"] == "libdrm-amdgpu1");
  CHECK(r["packages"][1]["source"] == "libdrm");
  CHECK(r["packages"][1]["origin"] == "distro");
  CHECK(r["packages"][2]["name"] == "rocm-core");
  CHECK(r["packages"][2]["architecture"] == "amd64");
  REQUIRE(r["packages_incomplete"].size() == 1);
  CHECK(r["packages_incomplete"][0]["name"] == "amdgpu-dkms");
  CHECK(r["packages_incomplete"][0]["status"] == "install ok half-configured");
}

TEST_CASE("rocm: dpkg status that cannot tell", "[rocm][malformed]") {
  SECTION("absent") {
    MemoryMachine m;
    Json r = m.run(probe_rocm);
    CHECK(mentions(r["packages"], "/var/lib/dpkg/status: no such file"));
  }
  SECTION("empty") {
    MemoryMachine m;
    m.fs->file("/var/lib/dpkg/status", "");
    CHECK(mentions(m.run(probe_rocm)["packages"], "no package stanzas"));
  }
  SECTION("binary") {
    MemoryMachine m;
    m.fs->file("/var/lib/dpkg/status", std::string("Package: \0\0\0\x01\x02\x03\x04", 16));
    CHECK(mentions(m.run(probe_rocm)["packages"], "binary"));
  }
  SECTION("permission denied") {
    MemoryMachine m;
    m.fs->file("/var/lib/dpkg/status", "Package: x\n").fail("/var/lib/dpkg/status", "permission denied");
    CHECK(mentions(m.run(probe_rocm)["packages_incomplete"], "permission denied"));
  }
  SECTION("larger than the 64 MiB limit: refused, not parsed") {
    MemoryMachine m;
    m.fs->file("/var/lib/dpkg/status", std::string(64 * 1024 * 1024 + 1, 'x'));
    CHECK(mentions(m.run(probe_rocm)["packages"], "larger than"));
  }
  SECTION("a version-less package") {
    MemoryMachine m;
    m.fs->file("/var/lib/dpkg/status", "Package: rocm-core\nStatus: install ok installed\n");
    Json r = m.run(probe_rocm);
    REQUIRE(r["packages"].size() == 1);
    CHECK(is_unknown(r["packages"][0]["version"]));
    CHECK(is_unknown(r["packages"][0]["origin"]));
  }
}

TEST_CASE("rocm: installs under /opt and the default link", "[rocm]") {
  MemoryMachine m;
  m.fs->file("/opt/rocm-6.4.1/.info/version", "6.4.1\n")
      .file("/opt/rocm-5.7.0/.info/version", "5.7.0-63\n")
      .dir("/opt/rocm-7.14.0/core-7.14.0")
      .symlink("/opt/rocm-7.14.0/core", "core-7.14.0")
      .file("/opt/rocm-7.14.0/core-7.14.0/.info/version", "7.14.0\n")
      .file("/opt/rocm-notes.txt", "not an install")
      .dir("/opt/google")
      .symlink("/opt/rocm", "/etc/alternatives/rocm")
      .symlink("/etc/alternatives/rocm", "/opt/rocm-6.4.1");
  Json r = m.run(probe_rocm);
  REQUIRE(r["installs"].size() == 4);
  CHECK(r["installs"][0]["path"] == "/opt/rocm");
  CHECK(r["installs"][0]["link_target"] == "/etc/alternatives/rocm");
  CHECK(r["installs"][0]["resolved"] == "/opt/rocm-6.4.1");
  CHECK(r["installs"][0]["version"] == "6.4.1");
  CHECK(r["installs"][1]["path"] == "/opt/rocm-5.7.0");
  CHECK(r["installs"][1]["version"] == "5.7.0-63");
  CHECK(r["installs"][1]["link_target"].is_null());
  CHECK(r["installs"][3]["path"] == "/opt/rocm-7.14.0");
  CHECK(r["installs"][3]["version"] == "7.14.0");
  CHECK(r["installs"][3]["version_source"] == "/opt/rocm-7.14.0/core/.info/version");
  CHECK(r["default"] == "/opt/rocm-6.4.1");
}

TEST_CASE("rocm: installs that cannot tell", "[rocm][malformed]") {
  SECTION("no /opt: nothing installed there") {
    MemoryMachine m;
    Json r = m.run(probe_rocm);
    CHECK(r["installs"] == Json::array());
    CHECK(r["default"].is_null());
  }
  SECTION("/opt unreadable") {
    MemoryMachine m;
    m.fs->dir("/opt").fail("/opt", "permission denied");
    Json r = m.run(probe_rocm);
    CHECK(mentions(r["installs"], "permission denied"));
    CHECK(is_unknown(r["default"]));
  }
  SECTION("a dangling /opt/rocm link is kept, the default is unknown") {
    MemoryMachine m;
    m.fs->symlink("/opt/rocm", "rocm-6.3.0");
    Json r = m.run(probe_rocm);
    REQUIRE(r["installs"].size() == 1);
    CHECK(r["installs"][0]["link_target"] == "rocm-6.3.0");
    CHECK(is_unknown(r["installs"][0]["resolved"]));
    CHECK(is_unknown(r["installs"][0]["version"]));
    CHECK(is_unknown(r["default"]));
  }
  SECTION("/opt/rocm as a plain directory is its own default") {
    MemoryMachine m;
    m.fs->dir("/opt/rocm");
    Json r = m.run(probe_rocm);
    CHECK(r["default"] == "/opt/rocm");
    CHECK(mentions(r["installs"][0]["version"], "/opt/rocm/.info/version: no such file"));
    CHECK(r["installs"][0]["version_source"].is_null());
  }
  SECTION("version files: garbage, empty, binary, huge") {
    CHECK(parse_rocm_info_version("/v", "6.4.1-83\n") == "6.4.1-83");
    CHECK(parse_rocm_info_version("/v", "  6.4.1\r\n") == "6.4.1");
    CHECK(mentions(parse_rocm_info_version("/v", ""), "/v: empty"));
    CHECK(mentions(parse_rocm_info_version("/v", "\n\n"), "empty"));
    CHECK(mentions(parse_rocm_info_version("/v", "hello world"), "not a version"));
    CHECK(mentions(parse_rocm_info_version("/v", std::string("6.4\0\x01\x02\x03\x04", 8)), "binary"));
    CHECK(mentions(parse_rocm_info_version("/v", std::string(100000, '6')), "not a version"));
    MemoryMachine m;
    m.fs->file("/opt/rocm-6.0.0/.info/version", std::string(70000, '6'));
    CHECK(mentions(m.run(probe_rocm)["installs"][0]["version"], "larger than"));
  }
}

TEST_CASE("rocm: rocBLAS's kernel files name the gfx targets it has code for", "[rocm]") {
  CHECK(rocblas_targets_in_names({"TensileLibrary_lazy_gfx1100.dat", "TensileLibrary_lazy_gfx90a.dat",
                                  "Kernels.so-000-gfx1100.hsaco", "TensileManifest.txt",
                                  "TensileLibrary_Type_HH_Contraction_l_Ailk_Bljk_Cijk_Dijk_gfx1030.co",
                                  "TensileLibrary_gfx803.co", "TensileLibrary_lazy_gfx1100.dat.zlib", "TensileLibrary_.dat",
                                  "notTensileLibrary_lazy_gfx942.dat"}) ==
        Json::array({"gfx1030", "gfx1100", "gfx803", "gfx90a"}));
  CHECK(rocblas_targets_in_names({}) == Json::array());

  MemoryMachine m;
  m.fs->file("/opt/rocm-6.2.0/.info/version", "6.2.0\n")
      .file("/opt/rocm-6.2.0/lib/rocblas/library/TensileLibrary_lazy_gfx1030.dat", "")
      .file("/opt/rocm-6.2.0/lib/rocblas/library/TensileLibrary_lazy_gfx1100.dat", "")
      .file("/opt/rocm-6.3.0/.info/version", "6.3.0\n")
      .dir("/opt/rocm-6.4.0/lib/rocblas/library")
      .file("/opt/rocm-6.4.0/.info/version", "6.4.0\n")
      .dir("/opt/rocm-6.5.0/lib/rocblas/library")
      .fail("/opt/rocm-6.5.0/lib/rocblas/library", "permission denied");
  Json r = m.run(probe_rocm);
  REQUIRE(r["installs"].size() == 4);
  CHECK(r["installs"][0]["rocblas_gfx"] == Json::array({"gfx1030", "gfx1100"}));
  CHECK(r["installs"][1]["rocblas_gfx"].is_null());           // no rocBLAS installed there
  CHECK(r["installs"][2]["rocblas_gfx"] == Json::array());    // the directory, and no kernels in it
  CHECK(mentions(r["installs"][3]["rocblas_gfx"], "permission denied"));
}

TEST_CASE("rocm: ollama's bundled ROCm and the override its service starts with", "[rocm]") {
  SECTION("none installed") {
    MemoryMachine m;
    CHECK(m.run(probe_rocm)["bundles"] == Json::array());
  }
  SECTION("lib/ollama/rocm from the install script, the override in a drop-in") {
    MemoryMachine m;
    m.fs->file("/usr/local/lib/ollama/rocm/rocblas/library/TensileLibrary_lazy_gfx1100.dat", "")
        .file("/usr/local/lib/ollama/rocm/rocblas/library/TensileLibrary_lazy_gfx1030.dat", "")
        .file("/etc/systemd/system/ollama.service", "[Service]\nExecStart=/usr/local/bin/ollama serve\n"
                                                    "Environment=\"PATH=/usr/bin\"\n")
        .file("/etc/systemd/system/ollama.service.d/override.conf",
              "[Service]\nEnvironment=\"HSA_OVERRIDE_GFX_VERSION=11.0.0\" \"OLLAMA_HOST=0.0.0.0\"\n");
    Json b = m.run(probe_rocm)["bundles"];
    REQUIRE(b.size() == 1);
    CHECK(b[0]["app"] == "ollama");
    CHECK(b[0]["path"] == "/usr/local/lib/ollama/rocm");
    CHECK(b[0]["rocblas_gfx"] == Json::array({"gfx1030", "gfx1100"}));
    CHECK(b[0]["service_hsa_override"] == "11.0.0");
  }
  SECTION("the older layout under /usr, no override, an unreadable drop-in directory") {
    MemoryMachine m;
    m.fs->file("/usr/lib/ollama/rocblas/library/TensileLibrary_lazy_gfx1030.dat", "");
    CHECK(m.run(probe_rocm)["bundles"][0]["service_hsa_override"].is_null());
    MemoryMachine unreadable;
    unreadable.fs->file("/usr/lib/ollama/rocblas/library/TensileLibrary_lazy_gfx1030.dat", "")
        .dir("/etc/systemd/system/ollama.service.d")
        .fail("/etc/systemd/system/ollama.service.d", "permission denied");
    CHECK(mentions(unreadable.run(probe_rocm)["bundles"][0]["service_hsa_override"], "permission denied"));
  }
  SECTION("unit lines: quoted, unquoted, the last one wins, other names are not it") {
    CHECK(unit_hsa_override("Environment=HSA_OVERRIDE_GFX_VERSION=10.3.0\n") == "10.3.0");
    CHECK(unit_hsa_override("Environment=\"HSA_OVERRIDE_GFX_VERSION=9.0.0\"\nEnvironment=\"HSA_OVERRIDE_GFX_VERSION=10.3.0\"\n") ==
          "10.3.0");
    CHECK(unit_hsa_override("Environment = \"HSA_OVERRIDE_GFX_VERSION=11.0.0\"\n") == "11.0.0");  // blanks around '='
    CHECK(unit_hsa_override("Environment=HSA_OVERRIDE_GFX_VERSION=\"10.3.0\"\n") == "10.3.0");     // a quote inside the word
    CHECK(unit_hsa_override("Environment=\"MY_HSA_OVERRIDE_GFX_VERSION=10.3.0\"\n").is_null());
    CHECK(unit_hsa_override("Environment=\"OLLAMA_FLAGS=--x HSA_OVERRIDE_GFX_VERSION=10.3.0\"\n").is_null());  // inside another value
    CHECK(unit_hsa_override("# Environment=HSA_OVERRIDE_GFX_VERSION=10.3.0\n").is_null());
    CHECK(unit_hsa_override("Environment=HSA_OVERRIDE_GFX_VERSION=\n").is_null());  // empty: unset to ROCm and ollama
    CHECK(unit_hsa_override("Environment=\n", "10.3.0").is_null());                  // an empty Environment= clears the earlier files'
    CHECK(unit_hsa_override("ExecStart=/usr/bin/ollama serve\n", "10.3.0") == "10.3.0");
    CHECK(mentions(unit_hsa_override("EnvironmentFile=/etc/ollama.env\n"), "/etc/ollama.env"));
    CHECK(unit_hsa_override("").is_null());
  }
  SECTION("ollama's rocm_v<N> directories, counted by the lazy index files only, as ollama counts them") {
    MemoryMachine m;
    m.fs->file("/usr/local/lib/ollama/rocm_v7_2/rocblas/library/TensileLibrary_lazy_gfx1100.dat", "")
        .file("/usr/local/lib/ollama/rocm_v7_2/rocblas/library/TensileLibrary_Type_HH_gfx1031.co", "")
        .file("/usr/lib/systemd/system/ollama.service", "[Service]\nEnvironment=HSA_OVERRIDE_GFX_VERSION=10.3.0\n")
        .symlink("/etc/systemd/system/ollama.service.d/override.conf", "/dev/null");
    Json b = m.run(probe_rocm)["bundles"];
    REQUIRE(b.size() == 1);
    CHECK(b[0]["path"] == "/usr/local/lib/ollama/rocm_v7_2");
    CHECK(b[0]["rocblas_gfx"] == Json::array({"gfx1100"}));
    CHECK(b[0]["service_hsa_override"] == "10.3.0");  // the packaged unit; the masked drop-in sets nothing
  }
}

TEST_CASE("rocm: one-line apt sources", "[rocm]") {
  auto e = parse_one_line_source(
      "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/rocm/apt/6.4.1 noble main");
  REQUIRE(e);
  CHECK(e->enabled);
  CHECK(e->type == "deb");
  CHECK(e->uri == "https://repo.radeon.com/rocm/apt/6.4.1");
  CHECK(e->suite == "noble");
  CHECK(e->components == std::vector<std::string>{"main"});
  CHECK(e->option("signed-by") == "/etc/apt/keyrings/rocm.gpg");
  auto disabled = parse_one_line_source("  ## deb-src [ arch=amd64 ] http://repo.radeon.com/amdgpu/6.4.1/ubuntu jammy main # old");
  REQUIRE(disabled);
  CHECK_FALSE(disabled->enabled);
  CHECK(disabled->type == "deb-src");
  CHECK(disabled->options == std::vector<std::string>{"arch=amd64"});
  CHECK(disabled->components == std::vector<std::string>{"main"});
  for (const char* junk : {"", "#", "# See http://help.ubuntu.com", "deb", "deb [arch=amd64 https://x y", "deb https://x",
                           "rpm https://repo.radeon.com/x y z", "debhttps://x y"})
    CHECK_FALSE(parse_one_line_source(junk));
  CHECK(is_amd_repository_uri("https://repo.radeon.com/rocm/apt/6.4.1"));
  CHECK(is_amd_repository_uri("http://user@REPO.RADEON.COM:80/amdgpu"));
  CHECK(is_amd_repository_uri("https://repo.amd.com/rocm/packages/ubuntu2404"));
  CHECK_FALSE(is_amd_repository_uri("https://repo.radeon.com.evil.example/rocm"));
  CHECK_FALSE(is_amd_repository_uri("https://mirror.example/repo.radeon.com/rocm"));
  CHECK_FALSE(is_amd_repository_uri("repo.radeon.com"));
}

TEST_CASE("rocm: apt sources, pins and ld.so.conf of a machine", "[rocm]") {
  MemoryMachine m;
  m.fs->file("/etc/apt/sources.list", "deb http://deb.debian.org/debian bookworm main\n")
      .file("/etc/apt/sources.list.d/rocm.list",
            "# ROCm\n"
            "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/rocm/apt/6.4.1 noble main\n"
            "#deb [arch=amd64] https://repo.radeon.com/rocm/apt/6.3 noble main\n")
      .file("/etc/apt/sources.list.d/amdgpu.sources",
            "Types: deb deb-src\nURIs: https://repo.radeon.com/amdgpu/6.4.1/ubuntu\nSuites: noble\n"
            "Components: main proprietary\nEnabled: no\nSigned-By:\n -----BEGIN PGP PUBLIC KEY BLOCK-----\n .\n abc\n\n"
            "Types: deb\nURIs: http://archive.ubuntu.com/ubuntu\nSuites: noble\n")
      .file("/etc/apt/sources.list.d/notes.txt", "deb https://repo.radeon.com/ignored x y\n")
      .file("/etc/apt/preferences.d/rocm-pin-600", "Package: *\nPin: release o=repo.radeon.com\nPin-Priority: 600\n")
      .file("/etc/apt/preferences.d/other", "Package: firefox\nPin: release o=LP-PPA-mozillateam\nPin-Priority: 1001\n")
      .file("/etc/apt/preferences.d/rocm.bak", "Package: *\nPin: release o=repo.radeon.com\nPin-Priority: 1\n")
      .file("/etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n")
      .file("/etc/ld.so.conf.d/10-rocm-opencl.conf", "/opt/rocm-6.4.1/lib\n")
      .file("/etc/ld.so.conf.d/rocm.conf", "# ROCm\n/opt/rocm/lib\n/opt/rocm/lib64 # trailing\n")
      .file("/etc/ld.so.conf.d/x86_64-linux-gnu.conf", "/usr/lib/x86_64-linux-gnu\n");
  Json r = m.run(probe_rocm);
  Json s = r["apt_sources"];
  REQUIRE(s.size() == 4);
  CHECK(s[0]["file"] == "/etc/apt/sources.list.d/amdgpu.sources");
  CHECK(s[0]["format"] == "deb822");
  CHECK(s[0]["line"] == 1);
  CHECK(s[0]["type"] == "deb");
  CHECK(s[0]["components"] == Json::array({"main", "proprietary"}));
  CHECK(s[0]["enabled"] == false);
  CHECK(s[0]["signed_by"] == "(inline key)");
  CHECK(s[1]["type"] == "deb-src");
  CHECK(s[2]["file"] == "/etc/apt/sources.list.d/rocm.list");
  CHECK(s[2]["line"] == 2);
  CHECK(s[2]["format"] == "one-line");
  CHECK(s[2]["uri"] == "https://repo.radeon.com/rocm/apt/6.4.1");
  CHECK(s[2]["suite"] == "noble");
  CHECK(s[2]["enabled"] == true);
  CHECK(s[2]["signed_by"] == "/etc/apt/keyrings/rocm.gpg");
  CHECK(s[3]["line"] == 3);
  CHECK(s[3]["enabled"] == false);
  CHECK(s[3]["signed_by"].is_null());
  REQUIRE(r["apt_pins"].size() == 1);
  CHECK(r["apt_pins"][0]["file"] == "/etc/apt/preferences.d/rocm-pin-600");
  CHECK(r["apt_pins"][0]["pin"] == "release o=repo.radeon.com");
  CHECK(r["apt_pins"][0]["priority"] == 600);
  CHECK(r["apt_pins"][0]["package"] == "*");
  Json ld = r["ld_so_conf"];
  REQUIRE(ld.size() == 2);
  CHECK(ld[0]["file"] == "/etc/ld.so.conf.d/10-rocm-opencl.conf");
  CHECK(ld[1]["paths"] == Json::array({"/opt/rocm/lib", "/opt/rocm/lib64"}));
}

TEST_CASE("rocm: apt and ld.so.conf files that cannot tell", "[rocm][malformed]") {
  SECTION("no /etc/apt: unknown, not an empty list") {
    MemoryMachine m;
    Json r = m.run(probe_rocm);
    CHECK(mentions(r["apt_sources"], "/etc/apt: no such directory"));
    CHECK(is_unknown(r["apt_pins"]));
    CHECK(is_unknown(r["ld_so_conf"]));
  }
  SECTION("/etc/apt as a file") {
    MemoryMachine m;
    m.fs->file("/etc/apt", "");
    CHECK(mentions(m.run(probe_rocm)["apt_pins"], "/etc/apt: not a directory"));
  }
  SECTION("an empty /etc/apt: no AMD sources") {
    MemoryMachine m;
    m.fs->dir("/etc/apt").file("/etc/ld.so.conf", "");
    Json r = m.run(probe_rocm);
    CHECK(r["apt_sources"] == Json::array());
    CHECK(r["apt_pins"] == Json::array());
    CHECK(r["ld_so_conf"] == Json::array());
  }
  SECTION("an unreadable or binary file makes the list unknown") {
    MemoryMachine m;
    m.fs->file("/etc/apt/sources.list.d/rocm.list", "deb https://repo.radeon.com/rocm/apt/6.4 noble main\n")
        .fail("/etc/apt/sources.list.d/rocm.list", "permission denied")
        .file("/etc/apt/preferences.d/rocm", std::string("\0\0\0\0\x01\x02", 6))
        .file("/etc/ld.so.conf.d/rocm.conf", "/opt/rocm/lib")
        .fail("/etc/ld.so.conf.d/rocm.conf", "permission denied");
    Json r = m.run(probe_rocm);
    CHECK(mentions(r["apt_sources"], "rocm.list: permission denied"));
    CHECK(mentions(r["apt_pins"], "binary"));
    CHECK(mentions(r["ld_so_conf"], "permission denied"));
  }
  SECTION("garbage lines and stanzas are skipped") {
    MemoryMachine m;
    m.fs->file("/etc/apt/sources.list", "deb [broken https://repo.radeon.com/x y\nzzz\n\n\n")
        .file("/etc/apt/sources.list.d/x.sources",
              "Types: deb\nURIs: https://repo.radeon.com/rocm/apt/6.4\nEnabled: maybe\nSuites: noble\n\n"
              "URIs: https://repo.radeon.com/rocm/apt/6.4\n\n: junk\n not a field\n")
        .file("/etc/apt/preferences.d/rocm", "Package: *\nPin: origin repo.radeon.com\nPin-Priority: high\n\nPin:\n");
    Json r = m.run(probe_rocm);
    REQUIRE(r["apt_sources"].size() == 1);
    CHECK(mentions(r["apt_sources"][0]["enabled"], "x.sources:3: Enabled is not yes or no"));
    CHECK(r["apt_sources"][0]["components"] == Json::array());
    REQUIRE(r["apt_pins"].size() == 1);
    CHECK(mentions(r["apt_pins"][0]["priority"], "Pin-Priority is not a number"));
  }
}

TEST_CASE("rocm: the real Debian 12 capture with Debian's ROCm 5.2", "[rocm][machines]") {
  Json facts = rocmdoc::test::facts_for_root(rocmdoc::test::machine_root("debian12-vm-distro-rocm"));
  Json r = facts["rocm"];
  CHECK(r["installs"] == Json::array());
  CHECK(r["default"].is_null());
  REQUIRE(r["packages"].is_array());
  std::vector<std::string> names;
  for (auto& p : r["packages"]) {
    names.push_back(p["name"]);
    INFO(p["name"]);
    CHECK(p["origin"] == "distro");
    CHECK(p["status"] == "install ok installed");
  }
  CHECK(names == std::vector<std::string>{"libdrm-amdgpu1", "libhsa-runtime64-1", "libhsakmt1", "librocm-smi64-1",
                                          "python3-torch", "rocm-smi", "rocminfo"});
  CHECK(r["packages"][1]["version"] == "5.2.3-3");
  CHECK(r["packages"][1]["source"] == "rocr-runtime");
  CHECK(r["packages_incomplete"] == Json::array());
  // The capture kept neither /etc/apt nor /etc/ld.so.conf*: not "none".
  CHECK(is_unknown(r["apt_sources"]));
  CHECK(is_unknown(r["ld_so_conf"]));
}

TEST_CASE("rocm: the OpenCL runtimes registered with the ICD loader", "[rocm]") {
  SECTION("each .icd file with the library it names, sorted; other files ignored") {
    MemoryMachine m;
    m.fs->file("/etc/ld.so.conf", "")
        .file("/etc/OpenCL/vendors/rusticl.icd", "libRusticlOpenCL.so.1\n")
        .file("/etc/OpenCL/vendors/amdocl64_60200_66.icd", "libamdocl64.so\r\n")
        .file("/etc/OpenCL/vendors/mesa.icd", "/usr/lib/x86_64-linux-gnu/libMesaOpenCL.so.1")
        .file("/etc/OpenCL/vendors/README", "not read by the loaders");
    Json icds = m.run(probe_rocm)["opencl_icds"];
    REQUIRE(icds.size() == 3);
    CHECK(icds[0] == Json{{"file", "/etc/OpenCL/vendors/amdocl64_60200_66.icd"}, {"library", "libamdocl64.so"}});
    CHECK(icds[1] == Json{{"file", "/etc/OpenCL/vendors/mesa.icd"},
                          {"library", "/usr/lib/x86_64-linux-gnu/libMesaOpenCL.so.1"}});
    CHECK(icds[2]["library"] == "libRusticlOpenCL.so.1");
  }
  SECTION("no directory: none registered, where /etc was recorded") {
    MemoryMachine m;
    m.fs->file("/etc/ld.so.conf", "");
    CHECK(m.run(probe_rocm)["opencl_icds"] == Json::array());
  }
  SECTION("no directory and no /etc/ld.so.conf(.d): a tree that did not keep /etc cannot tell") {
    MemoryMachine m;
    CHECK(mentions(m.run(probe_rocm)["opencl_icds"], "/etc was not recorded"));
  }
  SECTION("a recorded directory is read even where the tree kept no /etc/ld.so.conf") {
    MemoryMachine m;
    m.fs->file("/etc/OpenCL/vendors/amdocl64.icd", "libamdocl64.so");
    CHECK(m.run(probe_rocm)["opencl_icds"].size() == 1);
  }
  SECTION("openSUSE's directory after /etc's") {
    MemoryMachine m;
    m.fs->file("/etc/ld.so.conf", "")
        .file("/usr/share/OpenCL/vendors/rusticl.icd", "libRusticlOpenCL.so.1")
        .file("/etc/OpenCL/vendors/z.icd", "libamdocl64.so");
    Json icds = m.run(probe_rocm)["opencl_icds"];
    REQUIRE(icds.size() == 2);
    CHECK(icds[0]["file"] == "/etc/OpenCL/vendors/z.icd");
    CHECK(icds[1]["file"] == "/usr/share/OpenCL/vendors/rusticl.icd");
  }
  SECTION("an unreadable directory is unknown; an unreadable, empty or binary file is an unknown library") {
    MemoryMachine m;
    m.fs->file("/etc/ld.so.conf", "")
        .file("/etc/OpenCL/vendors/a.icd", "libamdocl64.so")
        .fail("/etc/OpenCL/vendors/a.icd", "permission denied")
        .file("/etc/OpenCL/vendors/b.icd", "\nlibamdocl64.so\n")
        .file("/etc/OpenCL/vendors/c.icd", std::string("\0\x01\x02\x03", 4));
    Json icds = m.run(probe_rocm)["opencl_icds"];
    REQUIRE(icds.size() == 3);
    CHECK(mentions(icds[0]["library"], "permission denied"));
    CHECK(mentions(icds[1]["library"], "first line is empty"));  // the loaders would open no library
    CHECK(mentions(icds[2]["library"], "binary"));
    MemoryMachine locked;
    locked.fs->file("/etc/ld.so.conf", "").file("/etc/OpenCL/vendors/a.icd", "x").fail("/etc/OpenCL/vendors", "permission denied");
    CHECK(mentions(locked.run(probe_rocm)["opencl_icds"], "permission denied"));
  }
}
