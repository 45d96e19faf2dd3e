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
  CHECK(finding.find("AMD does not support Arch Linux; use Arch Linux's own ROCm packages from [extra] "
                     "(sudo pacman -S rocm-hip-runtime to run HIP programs, rocm-hip-sdk to build them") !=
        std::string::npos);
  CHECK(finding.find(", or a distribution ROCm 10.1.0 lists (Ubuntu ") != std::string::npos);
  CHECK(line_starting(r.out, "[?] ROCm — ") ==
        "[?] ROCm — no target release: no ROCm release lists Arch Linux, a rolling release without VERSION_ID "
        "(AMD lists distribution versions) (6 could not be checked)");
}
