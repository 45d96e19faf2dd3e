// check on the distributions AMD does not list, as users run it: the
// report names the distribution and what to use instead, and never calls a
// distribution it recognises unknown.
#include "catch.h"
#include "base/text.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {
// The report's line that starts with `prefix`, "" when there is none.
std::string line_starting(const std::string& out, const std::string& prefix) {
  for (auto& line : split_lines(out))
    if (line.rfind(prefix, 0) == 0) return line;
  return "";
}
}  // namespace

TEST_CASE("check recognises Arch Linux, a rolling release, and says what to use instead", "[cli][check][distro]") {
  auto r = run_rocmdoc({"check", "--root", machine_root("arch-distro-rocm")});
  INFO(r.out);
  CHECK(r.out.find("the distribution is not known") == std::string::npos);
  std::string finding = line_starting(r.out, "    ! distro-not-listed-by-amd: ");
  // Arch's own ROCm is what this machine runs: named as installed, not as packages to install.
  CHECK(finding.find("AMD does not support Arch Linux; use Arch Linux's own ROCm packages, installed here, or ") !=
        std::string::npos);
  CHECK(finding.find("pacman -S") == std::string::npos);
  // For this machine's RX 7900 XTX: no distribution 10.1.0 lists for Instinct GPUs only.
  CHECK(finding.find(", or a distribution ROCm 10.1.0 lists for gfx1100 (Ubuntu ") != std::string::npos);
  CHECK(finding.find("Debian") == std::string::npos);
  CHECK(line_starting(r.out, "[?] ROCm — ")
            .find("[?] ROCm — the distribution's ROCm 7.2.0 installed (AMD's lists do not cover it); no target "
                  "release: no ROCm release lists Arch Linux, a rolling release without VERSION_ID (AMD lists "
                  "distribution versions) (") == 0);
}

TEST_CASE("check finds a distribution's ROCm mixed with AMD's repository outside apt", "[cli][check][distro]") {
  // Fedora's rocm-hip and rocm-runtime, and AMD's RHEL 9 repository in /etc/yum.repos.d/rocm.repo.
  auto r = run_rocmdoc({"check", "-v", "--root", machine_root("fedora43-mixed-amd-repo")});
  INFO(r.out);
  CHECK(r.out.find("    ✗ distro-rocm-packages-mixed-with-amd: rocm-hip 6.4.2-3.fc43 is Fedora Linux 43 (Workstation "
                   "Edition)'s own build, next to AMD's ROCm packages or repository\n") != std::string::npos);
  // Fedora is not on AMD's lists: keeping Fedora's own comes first, by the repository's id, and
  // nothing removes Fedora's packages (the 2026-12-06 audit: "dnf remove rocm-runtime" came first).
  CHECK(r.out.find("           $ sudo dnf config-manager setopt ROCm-6.4.1.enabled=0\n") != std::string::npos);
  CHECK(r.out.find("dnf remove") == std::string::npos);
  // The evidence names the repository: its file, section and URL.
  CHECK(r.out.find("        rocm.rpm_repos = [{\"file\":\"/etc/yum.repos.d/rocm.repo\",\"line\":1,"
                   "\"id\":\"ROCm-6.4.1\",\"name\":\"ROCm6.4.1\",\"manager\":\"dnf\","
                   "\"baseurl\":\"https://repo.radeon.com/rocm/el9/6.4.1/main\",\"enabled\":true,\"enabled_by\":null,\"kind\":\"rocm\","
                   "\"release\":\"6.4.1\"}]\n") != std::string::npos);
  // With only Fedora's repositories the same packages are no problem, and the check is made, not skipped
  // for want of /etc/apt.
  auto own = run_rocmdoc({"check", "-v", "--root", machine_root("fedora43-distro-rocm")});
  INFO(own.out);
  CHECK(own.out.find("    ✓ distro-rocm-packages-mixed-with-amd\n") != std::string::npos);
  // Arch: pacman.conf names only Arch's own repositories.
  auto arch = run_rocmdoc({"check", "-v", "--root", machine_root("arch-distro-rocm")});
  INFO(arch.out);
  CHECK(arch.out.find("    ✓ distro-rocm-packages-mixed-with-amd\n") != std::string::npos);
}

TEST_CASE("check says whether the GPU is in the list the distribution's own ROCm is built for", "[cli][check][distro]") {
  // Arch's rocblas is built for rocBLAS's default list, gfx1100 among it.
  auto arch = run_rocmdoc({"check", "--root", machine_root("arch-distro-rocm")});
  INFO(arch.out);
  CHECK(arch.out.find("    • distro-rocm-gpu-built: Arch Linux's own ROCm 7.2.0 is built for gfx1100 (the GPU at "
                      "0000:03:00.0)\n") != std::string::npos);
  CHECK(arch.out.find("confidence low). Not confirmed: that Arch's rocblas 7.2.0-1 PKGBUILD") != std::string::npos);
  // Fedora 43: rocm-rpm-macros' default list has gfx1100; the list is medium confidence and says why.
  auto fedora = run_rocmdoc({"check", "-v", "--root", machine_root("fedora43-distro-rocm")});
  INFO(fedora.out);
  CHECK(fedora.out.find("    • distro-rocm-gpu-built: Fedora Linux 43's own ROCm 6.4.2 is built for gfx1100 (the GPU at ") !=
        std::string::npos);
  CHECK(fedora.out.find("confidence medium). Not confirmed: the GPU targets, read in openSUSE's copy of "
                        "rocm-rpm-macros' macros.rocm") != std::string::npos);
  CHECK(fedora.out.find("    ✓ distro-rocm-gpu-not-built") != std::string::npos);
}
