// The "ROCm on Radeon" track (issue 14): an RX 7900 XTX on ROCm 5.7.1, or on
// one of the track's own releases (6.1.3, 6.2.3, 6.3.4, 6.4.4), is supported
// through AMD's separate Radeon documents, which the matrix carries as
// `track: radeon` entries and a release's `radeon_track` with their own
// sources. check must say so (and what of it is unconfirmed), name the
// track's pages and PyTorch wheels for the release, and say under WSL which
// releases the track supports there, not that the release does not support
// gfx1100.
#include <set>
#include <string>
#include <vector>

#include "catch.h"
#include "rules/knowledge.h"
#include "rules/matrix.h"
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

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The same machine seen from inside WSL2: the GPU reaches it through /dev/dxg.
Json under_wsl(Json f) {
  f["platform"]["kind"] = "wsl2";
  f["platform"]["wsl"] = {{"dev_dxg", true}, {"proc_version_microsoft", true}};
  return f;
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

TEST_CASE("the matrix: the track's own releases list their Radeon cards as track entries, with sources", "[radeon-track]") {
  REQUIRE(knowledge().errors.empty());
  const Matrix& m = *knowledge().matrix;
  for (const char* release : {"6.1.3", "6.2.3", "6.3.4", "6.4.4"}) {
    INFO(release);
    const Release* r = m.find_release(release);
    REQUIRE(r);
    CHECK(m.gpu_support(release, "gfx1100").json() == "supported");
    const ReleaseGpu* t = m.gpu_track(release, "gfx1100");
    REQUIRE(t);
    CHECK(*t->product == "Radeon RX 7900 XTX");
    CHECK_FALSE(t->sources.empty());
    REQUIRE(t->unconfirmed);  // no table of the track's own was read
    CHECK(contains(std::string(*t->unconfirmed), "was not read"));
    REQUIRE(r->radeon_track);
    CHECK_FALSE(r->radeon_track->sources.empty());
    // Neither AMD's release history nor a tag dates the track's own releases.
    if (!r->date) CHECK(contains(std::string(*r->unconfirmed), "date"));
  }
  // 6.1.3's pages are AMD's own link; its WSL beta and the GPUs named for it
  // are AMD staff statements.
  const Release& r613 = *m.find_release("6.1.3");
  CHECK(*r613.radeon_track->docs == "https://rocm.docs.amd.com/projects/radeon/en/docs-6.1.3/");
  REQUIRE(r613.radeon_track->wsl);
  CHECK(r613.radeon_track->wsl->status == "beta");
  CHECK(r613.radeon_track->wsl->gpus.size() == 6);
  CHECK(r613.distros.empty());  // not known: the track's table was not read
  // 6.4.4 is a Radeon and Ryzen release: RDNA 4, "select" RDNA 3 and gfx1151.
  CHECK(m.gpu_track("6.4.4", "gfx1201") != nullptr);
  CHECK(m.gpu_track("6.4.4", "gfx1101") != nullptr);
  CHECK(m.gpu_track("6.4.4", "gfx1151") != nullptr);
  // 6.4.1's own table lists gfx1201; the track's RX 9070 entries add products, not a track to name.
  CHECK(m.gpu_support("6.4.1", "gfx1201").json() == "supported");
  CHECK(m.gpu_track("6.4.1", "gfx1201") == nullptr);
  REQUIRE(m.find_release("6.4.1")->radeon_track);
  CHECK(*m.find_release("6.4.1")->radeon_track->driver == "Radeon Software for Linux 25.10.1");
  CHECK(m.find_release("6.4.1")->radeon_track->wsl->status == "none");
  // The wheels the track points to, per release.
  REQUIRE(m.radeon_wheel("6.1.3"));
  CHECK(*m.radeon_wheel("6.1.3")->torch == "2.1.2");
  REQUIRE(m.radeon_wheel("6.2.3"));
  CHECK(m.radeon_wheel("6.2.3")->find_links == "https://repo.radeon.com/rocm/manylinux/rocm-rel-6.2.3/");
  CHECK(m.radeon_wheel("6.2.4") == nullptr);
}

TEST_CASE("the matrix: the track's pages read on 2026-12-04 (docs-6.3 WSL, docs-6.4.2, radeon-ryzen docs-7.0.2)",
          "[radeon-track]") {
  REQUIRE(knowledge().errors.empty());
  const Matrix& m = *knowledge().matrix;
  auto cites = [](const MatrixTexts& sources, const std::string& id) {
    for (auto& s : sources)
      if (std::string(s) == id) return true;
    return false;
  };
  // 6.3.4's WSL support: AMD's own docs-6.3 pages have a WSL PyTorch page, next to the staff statement.
  const Release& r634 = *m.find_release("6.3.4");
  REQUIRE(r634.radeon_track);
  CHECK(r634.radeon_track->confidence == "medium");
  CHECK(cites(r634.radeon_track->sources, "radeon_docs_6_3_wsl_pytorch"));
  CHECK(r634.radeon_track->wsl->status == "supported");
  // 6.4.2 and 7.0.2 have pages of the track; their tables were not found, so driver and WSL stay unknown.
  for (const char* release : {"6.4.2", "7.0.2"}) {
    INFO(release);
    const Release* r = m.find_release(release);
    REQUIRE(r);
    REQUIRE(r->radeon_track);
    CHECK_FALSE(r->radeon_track->driver.has_value());
    CHECK_FALSE(r->radeon_track->wsl.has_value());
    REQUIRE(r->radeon_track->unconfirmed);
    CHECK(contains(std::string(*r->radeon_track->unconfirmed), "were not read"));
  }
  CHECK(*m.find_release("6.4.2")->radeon_track->docs == "https://rocm.docs.amd.com/projects/radeon/en/docs-6.4.2/");
  CHECK(*m.find_release("7.0.2")->radeon_track->docs == "https://rocm.docs.amd.com/projects/radeon-ryzen/en/docs-7.0.2/");
  // 6.4.2 has no WSL support rocmdoc knows of: the WSL releases are still the track's three.
  CheckReport r = run_check(under_wsl(rx7900xtx_with("6.4.1")), knowledge(), std::nullopt);
  const Finding* f = fired(r, "wsl-release-without-radeon-wsl-support");
  REQUIRE(f);
  CHECK(contains(f->steps.at(0).text, "(6.1.3, 6.2.3, 6.3.4)"));
}

TEST_CASE("the matrix: every Radeon track entry names its sources, and says what is unconfirmed where it is not high",
          "[radeon-track]") {
  const Matrix& m = *knowledge().matrix;
  size_t entries = 0;
  for (auto& r : m.releases()) {
    for (auto& g : r.gpus) {
      if (!g.track) continue;
      ++entries;
      INFO(r.version << " " << g.gfx << " " << (g.product ? *g.product : "-"));
      CHECK_FALSE(g.sources.empty());
      CHECK(g.unconfirmed);  // every track entry so far rests on something other than the track's own table
    }
    if (r.radeon_track) {
      INFO(r.version);
      CHECK_FALSE(r.radeon_track->sources.empty());
      if (r.radeon_track->confidence != "high") CHECK(r.radeon_track->unconfirmed);
    }
  }
  CHECK(entries >= 30);
}

TEST_CASE("check: the recorded RX 7900 XTX machines on 5.7.1 and 6.1.3 get the Radeon track's answer", "[radeon-track][machines]") {
  SECTION("ROCm 5.7.1: the track's current pages, no Radeon wheels known") {
    CheckReport r = run_check(facts_for_root(machine_root("ubuntu2204-rx7900xtx-rocm571")), knowledge(), std::nullopt);
    CHECK(r.facts["target"]["rocm"] == "5.7.1");
    CHECK(fired(r, "installed-rocm-does-not-list-gpu") == nullptr);
    const Finding* f = fired(r, "gpu-supported-through-radeon-track");
    REQUIRE(f);
    REQUIRE(f->steps.size() == 1);
    CHECK(contains(f->steps[0].text, "https://rocm.docs.amd.com/projects/radeon/en/latest/docs/compatibility.html"));
    CHECK(fired(r, "radeon-track-pytorch-wheels") == nullptr);
    CHECK(r.facts["target"]["radeon_track"].is_null());
  }
  SECTION("ROCm 6.1.3, a release of the track only: its pages, its wheels, what is unconfirmed") {
    CheckReport r = run_check(facts_for_root(machine_root("ubuntu2204-rx7900xtx-rocm613"), {"/home/alex/venv/bin/python"}),
                              knowledge(), std::nullopt);
    CHECK(r.facts["target"]["rocm"] == "6.1.3");
    CHECK(r.facts["target"]["in_matrix"] == true);
    CHECK(fired(r, "installed-rocm-does-not-list-gpu") == nullptr);
    const Finding* f = fired(r, "gpu-supported-through-radeon-track");
    REQUIRE(f);
    CHECK(f->title ==
          "ROCm 6.1.3 supports the Radeon RX 7900 XTX (gfx1100, the GPU at 0000:03:00.0) through AMD's \"ROCm on Radeon\" "
          "documents, not its main support table");
    CHECK(contains(f->why, "unconfirmed: the track's own 6.1.3 Linux table was not read"));
    REQUIRE(f->steps.size() == 1);
    CHECK(contains(f->steps[0].text, "https://rocm.docs.amd.com/projects/radeon/en/docs-6.1.3/"));
    const Finding* w = fired(r, "radeon-track-pytorch-wheels");
    REQUIRE(w);
    CHECK(w->title ==
          "AMD built PyTorch 2.1.2 for ROCm 6.1.3 on Radeon: https://repo.radeon.com/rocm/manylinux/rocm-rel-6.1.3/ (Python 3.10)");
    const Json& track = r.facts["gpus"][0]["support_track"];
    CHECK(track["sources"] == Json::array({"radeon_docs_link_6_1_3", "issue_3402"}));
    CHECK(track["torch_wheels"]["python"] == Json::array({"3.10"}));
    CHECK(r.facts["target"]["radeon_track"]["wsl"]["status"] == "beta");
  }
}

TEST_CASE("check: on the other releases of the track, gfx1100 is the track's, with its wheels where known", "[radeon-track]") {
  for (const char* release : {"6.2.3", "6.3.4", "6.4.4"}) {
    INFO(release);
    CheckReport r = run_check(rx7900xtx_with(release), knowledge(), std::nullopt);
    CHECK(r.facts["target"]["rocm"] == release);
    CHECK(fired(r, "installed-rocm-does-not-list-gpu") == nullptr);
    const Finding* f = fired(r, "gpu-supported-through-radeon-track");
    REQUIRE(f);
    CHECK(contains(f->why, "unconfirmed: "));
    CHECK(contains(f->steps.at(0).text, std::string("https://rocm.docs.amd.com/projects/radeon")));
  }
  CheckReport r634 = run_check(rx7900xtx_with("6.3.4"), knowledge(), std::nullopt);
  const Finding* w = fired(r634, "radeon-track-pytorch-wheels");
  REQUIRE(w);
  CHECK(contains(w->title, "PyTorch 2.4.0 for ROCm 6.3.4"));
  CHECK(contains(w->title, "(Python 3.12)"));
}

TEST_CASE("check under WSL: which releases the Radeon track supports there", "[radeon-track]") {
  SECTION("6.1.3, the WSL beta: the GPUs AMD named for it") {
    CheckReport r = run_check(under_wsl(rx7900xtx_with("6.1.3")), knowledge(), std::nullopt);
    const Finding* f = fired(r, "wsl-release-with-radeon-wsl-support");
    REQUIRE(f);
    CHECK(f->title == "ROCm 6.1.3 has WSL support (beta) in AMD's \"ROCm on Radeon\" documents");
    CHECK(contains(f->why, "Radeon RX 7900 XTX, Radeon RX 7900 XT, Radeon RX 7900 GRE, Radeon PRO W7900"));
    CHECK(fired(r, "wsl-release-without-radeon-wsl-support") == nullptr);
  }
  SECTION("6.2.3: supported, no GPU list read") {
    CheckReport r = run_check(under_wsl(rx7900xtx_with("6.2.3")), knowledge(), std::nullopt);
    const Finding* f = fired(r, "wsl-release-with-radeon-wsl-support");
    REQUIRE(f);
    CHECK(contains(f->why, "none named in the sources rocmdoc's matrix read"));
  }
  SECTION("6.4.1: no WSL support; the releases that have it") {
    CheckReport r = run_check(under_wsl(rx7900xtx_with("6.4.1")), knowledge(), std::nullopt);
    CHECK(fired(r, "wsl-release-with-radeon-wsl-support") == nullptr);
    const Finding* f = fired(r, "wsl-release-without-radeon-wsl-support");
    REQUIRE(f);
    CHECK(f->title == "ROCm 6.4.1 has no WSL support: AMD's WSL builds are of other releases");
    CHECK(contains(f->steps.at(0).text, "(6.1.3, 6.2.3, 6.3.4)"));
  }
  SECTION("bare metal: neither") {
    CheckReport r = run_check(rx7900xtx_with("6.4.1"), knowledge(), std::nullopt);
    CHECK(fired(r, "wsl-release-without-radeon-wsl-support") == nullptr);
    CHECK(fired(r, "wsl-release-with-radeon-wsl-support") == nullptr);
  }
}

namespace {

const char* kTrackRelease = R"(schema: 1
as_of: "2026-12-01"
sources: {staff: an AMD staff comment}
releases:
- version: "6.1.3"
  date: null
  line: production
  architectures: [x86_64]
  distros: []
  gpus: [{gfx: gfx1100, product: RX 7900 XTX, family: radeon, support: supported, track: radeon, confidence: low, unconfirmed: table not read, sources: [staff]}]
  radeon_track: {docs: "https://x/docs-6.1.3/", driver: null, wsl: {status: beta, gpus: [RX 7900 XTX]}, confidence: medium, sources: [staff]}
  install: null
  confidence: low
  unconfirmed: release date not found
  sources: [staff]
)";

// The load errors of kTrackRelease with `from` replaced by `to`.
std::vector<std::string> track_errors(const std::string& from, const std::string& to) {
  std::string text = kTrackRelease;
  if (!from.empty()) {
    auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
  }
  std::vector<LoadError> errors;
  Matrix::load({{"m/rocm-releases.yaml", text}}, errors);
  std::vector<std::string> out;
  for (auto& e : errors) out.push_back(e.str());
  return out;
}

}  // namespace

TEST_CASE("a release's radeon_track loads strictly: a wrong WSL status, an unknown key or no sources is an error at its place",
          "[radeon-track][matrix]") {
  std::vector<LoadError> errors;
  Matrix m = Matrix::load({{"m/rocm-releases.yaml", kTrackRelease}}, errors);
  REQUIRE(errors.empty());
  REQUIRE(m.find_release("6.1.3")->radeon_track);
  CHECK(m.find_release("6.1.3")->radeon_track->wsl->status == "beta");
  CHECK_FALSE(m.find_release("6.1.3")->radeon_track->driver);

  // The release with the bad entry is not loaded, so the matrix also says it has no releases.
  auto status = track_errors("status: beta", "status: maybe");
  REQUIRE(status.size() == 2);
  CHECK(status[1] == "rules/matrix: no ROCm releases in the matrix");
  CHECK(status[0].find("m/rocm-releases.yaml:11:") == 0);
  CHECK(contains(status[0], "'status' is one of beta, supported, none (not 'maybe')"));
  auto key = track_errors("driver: null", "drivr: null");
  REQUIRE(key.size() == 2);
  CHECK(contains(key[0], "unknown key 'drivr'"));
  auto sources = track_errors(", confidence: medium, sources: [staff]}", ", confidence: medium}");
  REQUIRE(sources.size() == 2);
  CHECK(contains(sources[0], "missing 'sources'"));
}
