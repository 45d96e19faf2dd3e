// The "ROCm on Radeon" track (issue 14, part 2): an RX 7900 XTX on ROCm
// 5.7.1 is supported through AMD's separate Radeon documents, which the
// matrix carries as `track: radeon` entries with their own sources. check
// must say so (and that the track's own table is unconfirmed), not that
// 5.7.1 does not support gfx1100.
#include <set>
#include <string>

#include "catch.h"
#include "rules/knowledge.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {

const Knowledge& knowledge() {
  static Knowledge k = load_knowledge({"", ""});
  return k;
}

// The recorded RX 7900 XTX desktop as if Ubuntu 22.04 with ROCm `release`
// installed (AMD's 5.7 installs live under /opt/rocm-5.7.x).
Json rx7900xtx_with(const std::string& release) {
  Json f = facts_for_root(machine_root("ubuntu2404-rx7900xtx"));
  f["distro"]["version_id"] = "22.04";
  f["distro"]["codename"] = "jammy";
  f["rocm"]["default"] = "/opt/rocm-" + release;
  f["rocm"]["installs"] = Json::array({{{"path", "/opt/rocm"}, {"link_target", "/opt/rocm-" + release}, {"version", release + "-98"}},
                                       {{"path", "/opt/rocm-" + release}, {"version", release + "-98"}}});
  return f;
}

const Finding* fired(const CheckReport& r, const std::string& id) {
  for (auto& o : r.outcomes)
    if (o.rule->id == id && o.verdict == Verdict::fired && !o.findings.empty()) return &o.findings.front();
  return nullptr;
}

}  // namespace

TEST_CASE("the matrix: 5.7.1 supports gfx1100 only through the Radeon track, with its own sources", "[radeon-track]") {
  REQUIRE(knowledge().errors.empty());
  const Matrix& m = *knowledge().matrix;
  CHECK(m.gpu_support("5.7.1", "gfx1100").json() == "supported");
  const ReleaseGpu* t = m.gpu_track("5.7.1", "gfx1100");
  REQUIRE(t);
  CHECK(*t->track == "radeon");
  CHECK(*t->product == "Radeon RX 7900 XTX");
  CHECK(t->sources == MatrixTexts{"rocm_on_radeon_5_7"});
  REQUIRE(t->unconfirmed);
  // 6.4.1's own table lists gfx1100: no track to name there. 5.7.0's
  // documents name neither the card nor the track.
  CHECK(m.gpu_support("6.4.1", "gfx1100").json() == "supported");
  CHECK(m.gpu_track("6.4.1", "gfx1100") == nullptr);
  CHECK(m.gpu_support("5.7.0", "gfx1100").json() == "not_listed");
  CHECK(m.gpu_track("5.7.0", "gfx1100") == nullptr);
}

TEST_CASE("check: an RX 7900 XTX on ROCm 5.7.1 is supported through ROCm on Radeon, and says what is unconfirmed",
          "[radeon-track]") {
  CheckReport r = run_check(rx7900xtx_with("5.7.1"), knowledge(), std::nullopt);
  CHECK(r.facts["target"]["rocm"] == "5.7.1");
  CHECK(fired(r, "installed-rocm-does-not-list-gpu") == nullptr);
  const Finding* f = fired(r, "gpu-supported-through-radeon-track");
  REQUIRE(f);
  CHECK(f->title ==
        "ROCm 5.7.1 supports the Radeon RX 7900 XTX (gfx1100, the GPU at 0000:03:00.0) through AMD's \"ROCm on Radeon\" "
        "documents, not its main support table");
  CHECK(f->why.find("unconfirmed: the \"ROCm on Radeon\" 5.7 compatibility table itself") != std::string::npos);
  const Json& track = r.facts["gpus"][0]["support_track"];
  CHECK(track["track"] == "radeon");
  CHECK(track["sources"] == Json::array({"rocm_on_radeon_5_7"}));
}

TEST_CASE("check: on 5.7.0 and on 6.4.1 the Radeon track is not named", "[radeon-track]") {
  // 5.7.0: AMD's documents list no gfx1100 product and no Radeon track.
  CheckReport old = run_check(rx7900xtx_with("5.7.0"), knowledge(), std::nullopt);
  CHECK(fired(old, "installed-rocm-does-not-list-gpu") != nullptr);
  CHECK(fired(old, "gpu-supported-through-radeon-track") == nullptr);
  CheckReport listed = run_check(rx7900xtx_with("6.4.1"), knowledge(), std::nullopt);
  CHECK(fired(listed, "gpu-supported-through-radeon-track") == nullptr);
  CHECK(listed.facts["gpus"][0]["support_track"].is_null());
}
