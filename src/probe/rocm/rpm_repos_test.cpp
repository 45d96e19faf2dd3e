#include "catch.h"
#include "probe_test_support.h"
#include "probe/rocm/rpm_repos.h"

using namespace rocmdoc;
using rocmdoc::test::MemoryMachine;

namespace {
Json rpm_repos(MemoryMachine& m) { return m.run(probe_rocm)["rpm_repos"]; }
bool mentions(const Json& fact, const std::string& text) { return unknown_reason(fact).find(text) != std::string::npos; }
}  // namespace

TEST_CASE("rpm repos: the kind and release an AMD URL names", "[rocm][rpm-repos]") {
  CHECK(amd_repository_kind("https://repo.radeon.com/rocm/rhel9/6.4.1/main") == "rocm");
  CHECK(amd_repository_release("https://repo.radeon.com/rocm/rhel9/6.4.1/main") == "6.4.1");
  CHECK(amd_repository_release("https://repo.radeon.com/rocm/zyp/6.4.1/main") == "6.4.1");
  CHECK(amd_repository_release("https://repo.radeon.com/rocm/el9/6.2/main") == "6.2");
  // The driver's repository: its release comes before the OS version.
  CHECK(amd_repository_kind("https://repo.radeon.com/amdgpu/6.4.1/rhel/9.6/main/x86_64/") == "amdgpu");
  CHECK(amd_repository_release("https://repo.radeon.com/amdgpu/6.4.1/rhel/9.6/main/x86_64/") == "6.4.1");
  CHECK(amd_repository_release("https://repo.radeon.com/rocm/rhel9/latest/main") == "latest");
  CHECK(amd_repository_release("https://repo.radeon.com/rocm/rhel9/$releasever/main") == "");
  CHECK(amd_repository_kind("https://repo.radeon.com") == "");
}

TEST_CASE("rpm repos: AMD's sections of dnf's and zypper's .repo files", "[rocm][rpm-repos]") {
  MemoryMachine m;
  m.fs->file("/etc/yum.repos.d/fedora.repo",
             "[fedora]\nname=Fedora $releasever - $basearch\n"
             "metalink=https://mirrors.fedoraproject.org/metalink?repo=fedora-$releasever&arch=$basearch\n"
             "enabled=1\n")
      .file("/etc/yum.repos.d/rocm.repo",
            "[ROCm-6.4.1]\nname=ROCm6.4.1\nbaseurl=https://repo.radeon.com/rocm/rhel9/6.4.1/main\nenabled=1\n"
            "priority=50\ngpgcheck=1\n\n"
            "[ROCm-6.3.3]\nbaseurl=https://repo.radeon.com/rocm/rhel9/6.3.3/main\nenabled = 0\n")
      .file("/etc/yum.repos.d/amdgpu.repo",
            "[amdgpu]\nname=amdgpu\nbaseurl=https://repo.radeon.com/amdgpu/6.4.1/rhel/9.6/main/x86_64/\n")
      .file("/etc/yum.repos.d/rocm.repo.rpmsave", "[old]\nbaseurl=https://repo.radeon.com/rocm/rhel9/5.7/main\n")
      .file("/etc/zypp/repos.d/rocm.repo",
            "[rocm]\nname=rocm\nbaseurl=https://repo.radeon.com/rocm/zyp/6.4.1/main\nenabled=1\n\n"
            "[handmade]\nbaseurl=https://repo.radeon.com/rocm/zyp/6.4.0/main\n");
  Json r = rpm_repos(m);
  REQUIRE(r.is_array());
  REQUIRE(r.size() == 5);
  // dnf's directory first, each file's sections in order; the .rpmsave copy is not read.
  CHECK(r[0]["file"] == "/etc/yum.repos.d/amdgpu.repo");
  CHECK(r[0]["kind"] == "amdgpu");
  CHECK(r[0]["enabled"] == true);  // dnf's default
  CHECK(r[1]["file"] == "/etc/yum.repos.d/rocm.repo");
  CHECK(r[1]["line"] == 1);
  CHECK(r[1]["id"] == "ROCm-6.4.1");
  CHECK(r[1]["name"] == "ROCm6.4.1");
  CHECK(r[1]["manager"] == "dnf");
  CHECK(r[1]["baseurl"] == "https://repo.radeon.com/rocm/rhel9/6.4.1/main");
  CHECK(r[1]["kind"] == "rocm");
  CHECK(r[1]["release"] == "6.4.1");
  CHECK(r[1]["enabled"] == true);
  CHECK(r[2]["id"] == "ROCm-6.3.3");
  CHECK(r[2]["line"] == 8);
  CHECK(r[2]["enabled"] == false);
  CHECK(r[2]["name"].is_null());
  CHECK(r[3]["manager"] == "zypper");
  CHECK(r[3]["release"] == "6.4.1");
  // zypper without enabled=: not guessed.
  CHECK(mentions(r[4]["enabled"], "/etc/zypp/repos.d/rocm.repo:6: [handmade] has no enabled= line"));
}

TEST_CASE("rpm repos: no AMD repository, and files that cannot tell", "[rocm][rpm-repos][malformed]") {
  SECTION("only the distribution's repositories: an empty list") {
    MemoryMachine m;
    m.fs->file("/etc/yum.repos.d/fedora.repo", "[fedora]\nmetalink=https://mirrors.fedoraproject.org/metalink\n");
    CHECK(rpm_repos(m) == Json::array());
  }
  SECTION("neither directory: unknown, not an empty list") {
    MemoryMachine m;
    CHECK(mentions(rpm_repos(m), "/etc/yum.repos.d and /etc/zypp/repos.d: no such directory"));
  }
  SECTION("an unreadable or binary .repo file makes the list unknown") {
    MemoryMachine m;
    m.fs->file("/etc/yum.repos.d/rocm.repo", "[rocm]\nbaseurl=https://repo.radeon.com/rocm/rhel9/6.4.1/main\n")
        .fail("/etc/yum.repos.d/rocm.repo", "permission denied")
        .file("/etc/zypp/repos.d/x.repo", std::string("\0\x01\x02[x]", 6));
    Json r = rpm_repos(m);
    CHECK(mentions(r, "rocm.repo: permission denied"));
    CHECK(mentions(r, "/etc/zypp/repos.d/x.repo: binary content"));
  }
  SECTION("an unreadable directory makes the list unknown") {
    MemoryMachine m;
    m.fs->dir("/etc/zypp/repos.d").fail("/etc/yum.repos.d", "permission denied");
    CHECK(mentions(rpm_repos(m), "permission denied"));
  }
  SECTION("an enabled= that is not a boolean, a URL list with commas, garbage lines") {
    MemoryMachine m;
    m.fs->file("/etc/yum.repos.d/rocm.repo",
               "garbage\n[rocm\n[rocm]\nbaseurl=https://mirror.example.org/x, https://repo.radeon.com/rocm/el9/6.2/main\n"
               "enabled=maybe\n");
    Json r = rpm_repos(m);
    REQUIRE(r.size() == 1);
    CHECK(r[0]["baseurl"] == "https://repo.radeon.com/rocm/el9/6.2/main");
    CHECK(mentions(r[0]["enabled"], "rocm.repo:5: enabled is not a boolean: \"maybe\""));
  }
}

// dnf5's `config-manager setopt ID.enabled=0` writes an override and leaves
// the .repo file alone: the repository is disabled all the same.
TEST_CASE("rpm repos: dnf5's overrides decide enabled", "[rocm][rpm-repos]") {
  auto machine = [] {
    auto m = std::make_unique<MemoryMachine>();
    m->fs->file("/etc/yum.repos.d/rocm.repo",
                "[rocm]\nname=ROCm\nbaseurl=https://repo.radeon.com/rocm/el9/6.4.1/main\nenabled=1\n\n"
                "[amdgraphics]\nbaseurl=https://repo.radeon.com/graphics/6.4.1/el/9/main/x86_64/\nenabled=1\n")
        .file("/etc/zypp/repos.d/rocm.repo", "[rocm]\nbaseurl=https://repo.radeon.com/rocm/zyp/6.4.1/main\nenabled=1\n");
    return m;
  };
  SECTION("setopt's file disables one repository; zypper's are not dnf's") {
    auto m = machine();
    m->fs->file("/etc/dnf/repos.override.d/99-config_manager.repo", "# Generated by dnf5 config-manager.\n[rocm]\nenabled=0\n");
    Json r = rpm_repos(*m);
    REQUIRE(r.size() == 3);
    CHECK(r[0]["id"] == "rocm");
    CHECK(r[0]["enabled"] == false);
    CHECK(r[0]["enabled_by"] == "/etc/dnf/repos.override.d/99-config_manager.repo:3");
    CHECK(r[1]["id"] == "amdgraphics");
    CHECK(r[1]["enabled"] == true);
    CHECK(r[1]["enabled_by"].is_null());
    CHECK(r[2]["manager"] == "zypper");
    CHECK(r[2]["enabled"] == true);
  }
  SECTION("globs, file order, and /etc masking /usr/share") {
    auto m = machine();
    m->fs->file("/usr/share/dnf5/repos.override.d/50-vendor.repo", "[rocm]\nenabled=0\n")
        .file("/usr/share/dnf5/repos.override.d/20-masked.repo", "[amd*]\nenabled=0\n\n[*]\nenabled=0\n")
        .file("/etc/dnf/repos.override.d/20-masked.repo", "[amd*]\nenabled=1\n")
        .file("/etc/dnf/repos.override.d/70-mine.repo", "[roc?]\nenabled=yes\n")
        .file("/etc/dnf/repos.override.d/notes.txt", "[*]\nenabled=0\n")
        .dir("/etc/dnf/repos.override.d/subdir.repo");  // not a file: skipped, as dnf5 skips it
    Json r = rpm_repos(*m);
    REQUIRE(r.size() == 3);
    CHECK(r[0]["enabled"] == true);  // 50-vendor off, then 70-mine's [roc?] on
    CHECK(r[0]["enabled_by"] == "/etc/dnf/repos.override.d/70-mine.repo:2");
    // /etc's 20-masked alone: /usr/share's file of that name (amd* off, * off) is masked.
    CHECK(r[1]["enabled"] == true);
    CHECK(r[1]["enabled_by"] == "/etc/dnf/repos.override.d/20-masked.repo:2");
  }
  SECTION("an override that cannot be read leaves dnf's enabled unknown") {
    auto m = machine();
    m->fs->file("/etc/dnf/repos.override.d/99-config_manager.repo", "[rocm]\nenabled=0\n")
        .fail("/etc/dnf/repos.override.d/99-config_manager.repo", "permission denied");
    Json r = rpm_repos(*m);
    REQUIRE(r.size() == 3);
    CHECK(mentions(r[0]["enabled"], "99-config_manager.repo: permission denied"));
    CHECK(r[2]["enabled"] == true);  // zypper's
  }
}
