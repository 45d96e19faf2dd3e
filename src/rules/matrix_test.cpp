// The matrix: its queries on a small in-memory matrix, strict loading with
// file:line:column, and one smoke test of the shipped files.
#include "catch.h"
#include "rules/derived_facts.h"
#include "rules/knowledge.h"
#include "rules/matrix.h"

using namespace rocmdoc;

namespace {

const char* kReleases = R"(schema: 1
as_of: "2026-01-01"
sources: {doc: the release notes}
releases:
- version: "6.4.1"
  date: "2025-05-21"
  line: production
  architectures: [x86_64]
  distros:
  - {id: ubuntu, version: "24.04", point_versions: ["24.04.2"], kernels: [{series: "6.8", kind: ga}, {series: "6.11", kind: hwe}]}
  - {id: ubuntu, version: "22.04", kernels: []}
  gpus:
  - {gfx: gfx1100, product: RX 7900 XTX, family: radeon, support: supported}
  - {gfx: gfx906, product: null, family: null, support: deprecated}
  install: null
  confidence: high
  sources: [doc]
- version: "6.2.4"
  date: null
  line: production
  architectures: []
  distros: [{id: ubuntu, version: "22.04", kernels: [{series: "6.5", kind: hwe}]}]
  gpus: [{gfx: gfx1100, product: RX 7900 XTX, family: radeon, support: supported}]
  install: {amdgpu_install_dir: "6.2.4", amdgpu_install_pkg: null, verified: false}
  confidence: low
  sources: [doc]
- version: "7.0.0"
  line: production
  architectures: [x86_64]
  distros: []
  gpus: []
  install: null
  confidence: low
  unconfirmed: no lists read yet
  sources: [doc]
- version: "7.9.0"
  line: preview
  architectures: []
  distros: [{id: ubuntu, version: "24.04", kernels: []}]
  gpus: [{gfx: gfx1100, support: supported}]
  install: null
  confidence: low
  sources: [doc]
)";

const char* kGpus = R"(schema: 1
as_of: "2026-01-02"
sources: {ids: amdgpu.ids}
gfx_targets:
- {gfx: gfx1100, kfd_target_version: 110000, architecture: RDNA3, apu: false, products: [RX 7900 XTX], confidence: high, sources: [ids]}
devices:
- {device_id: "0x744C", asic: NAVI31, gfx: gfx1100, names: [Radeon RX 7900 XTX], apu: false, confidence: high, sources: [ids]}
- {device_id: "0x1234", asic: UNKNOWN, gfx: null, names: [], apu: true, confidence: low, sources: [ids]}
- {device_id: "0x67DF", asic: POLARIS10, gfx: gfx803, names: [Radeon RX 470, Radeon RX 580, Radeon Pro WX 7100], apu: false, confidence: high, sources: [ids]}
- {device_id: "0x9999", asic: OTHER, gfx: gfx1030, names: [Radeon RX 580], apu: false, confidence: low, sources: [ids]}
)";

const char* kOverrides = R"(schema: 1
as_of: "2026-01-01"
sources: {forum: a forum thread}
overrides:
- {gfx: gfx90c, value: "9.0.12", runs_as: gfx90c, outcome: fails, caveats: crashes, confidence: low, sources: [forum]}
- {gfx: gfx90c, value: "9.0.0", runs_as: gfx900, outcome: works_with_caveats, caveats: slow, confidence: low, sources: [forum]}
- {gfx: gfx1200, value: null, runs_as: null, outcome: unknown, caveats: none known, confidence: low, sources: [forum]}
)";

const char* kWheels = R"(schema: 1
as_of: "2026-01-01"
sources: {index: download.pytorch.org}
wheels:
- {torch: "2.4.1", rocm: "6.1", channel: release, index_url: "https://x/rocm6.1", python: ["3.12"], torchvision: "0.19.1",
   torchaudio: "2.4.1", gfx: [gfx1100], gfx_confidence: high, confidence: high, sources: [index]}
- {torch: "2.5.1", rocm: "6.2", channel: release, index_url: "https://x/rocm6.2", python: null, torchvision: null,
   torchaudio: null, gfx: null, gfx_confidence: low, gfx_absent: [gfx1031], confidence: low, unconfirmed: gfx list not read,
   sources: [index]}
- {torch: "2.6.0", rocm: "9.9", channel: release, index_url: "https://x/rocm9.9", python: null, torchvision: null,
   torchaudio: null, gfx: [gfx942, gfx1100], gfx_confidence: low, gfx_absent: [gfx803], confidence: low,
   unconfirmed: gfx list from a PR description, sources: [index]}
)";

struct Loaded {
  Matrix matrix;
  std::vector<LoadError> errors;
};

Loaded load(std::vector<RuleFile> files) {
  Loaded l;
  l.matrix = Matrix::load(files, l.errors);
  return l;
}

const Matrix& small() {
  static Loaded l = load({{"m/rocm-releases.yaml", kReleases},
                          {"m/gpus.yaml", kGpus},
                          {"m/hsa-override.yaml", kOverrides},
                          {"m/pytorch.yaml", kWheels}});
  for (auto& e : l.errors) INFO(e.str());
  REQUIRE(l.errors.empty());
  return l.matrix;
}

// A release's first row for a distribution version (rows: Release::distro_rows).
const MatrixDistro* first_row(const Release* r, std::string_view distro, std::string_view version_id) {
  auto rows = r->distro_rows(distro, version_id);
  return rows.empty() ? nullptr : rows.front();
}

// The errors of the small matrix with `from` replaced by `to` in one file.
std::vector<std::string> errors_with(const char* text, const std::string& from, const std::string& to) {
  std::string changed = text;
  auto at = changed.find(from);
  REQUIRE(at != std::string::npos);
  changed.replace(at, from.size(), to);
  Loaded l = load({{"m/x.yaml", changed}, {"m/rocm-releases.yaml", kReleases}});
  std::vector<std::string> out;
  for (auto& e : l.errors) out.push_back(e.str());
  return out;
}

}  // namespace

TEST_CASE("the matrix maps PCI ids to gfx targets as the kernel does", "[matrix]") {
  const Matrix& m = small();
  REQUIRE(m.device("0x744c"));
  CHECK(m.device("0x744c")->gfx == "gfx1100");
  CHECK(m.device("0x744C")->names == MatrixTexts{"Radeon RX 7900 XTX"});  // ids compare case-insensitively
  CHECK_FALSE(m.device("0x1234")->gfx);                             // listed, gfx not known
  CHECK(m.device("0x0000") == nullptr);
  CHECK(m.gfx_target("gfx1100")->kfd_target_version == 110000);
  CHECK(m.gfx_target("gfx90a") == nullptr);
  CHECK(m.as_of() == "2026-01-02");  // the newest file's
}

TEST_CASE("release support is three-valued: listed, not listed, or not known", "[matrix]") {
  const Matrix& m = small();
  CHECK(m.gpu_support("6.4.1", "gfx1100").json() == "supported");
  CHECK(m.gpu_support("6.4.1", "gfx906").json() == "deprecated");
  CHECK(m.gpu_support("6.4.1", "gfx1031").json() == "not_listed");
  CHECK(m.gpu_support("7.0.0", "gfx1100").is_unknown());  // an empty list: not known
  CHECK(m.gpu_support("7.0.0", "gfx1100").why().find("unconfirmed: no lists read yet") != std::string::npos);
  CHECK(m.gpu_support("1.0", "gfx1100").is_unknown());
  CHECK(m.distro_support("6.4.1", "ubuntu", "24.04").is_true());
  CHECK(m.distro_support("6.4.1", "ubuntu", "24.04.2").is_true());  // a point release
  CHECK(m.distro_support("6.4.1", "ubuntu", "20.04").is_false());
  CHECK(m.distro_support("7.0.0", "ubuntu", "24.04").is_unknown());
  CHECK(m.kernel_support("6.4.1", "ubuntu", "24.04", "6.8.0-45-generic").is_true());
  CHECK(m.kernel_support("6.4.1", "ubuntu", "24.04", "6.11.0-19-generic").is_true());
  CHECK(m.kernel_support("6.4.1", "ubuntu", "24.04", "6.15.0-061500-generic").is_false());
  CHECK(m.kernel_support("6.4.1", "ubuntu", "22.04", "6.8.0-45-generic").is_unknown());  // no kernels listed
  CHECK(m.kernel_support("6.4.1", "debian", "12", "6.1.0").is_unknown());
  CHECK(m.lists_gpu("6.4.1", "ubuntu", "22.04", "apu", "").is_true());  // its kernels are not known: nobody left out
  CHECK(m.lists_gpu("6.4.1", "debian", "12", "radeon", "").is_false());
  CHECK(m.lists_gpu("7.0.0", "ubuntu", "24.04", "radeon", "").is_unknown());  // no distribution list
}

TEST_CASE("the newest production release that lists the GPU and the distribution wins", "[matrix]") {
  const Matrix& m = small();
  CHECK(m.newest_release_for("gfx1100", "ubuntu", "24.04") == "6.4.1");  // 7.9.0 is a preview
  CHECK(m.newest_release_for("gfx1100", "ubuntu", "22.04") == "6.4.1");
  CHECK(m.newest_release_for("gfx1031", "ubuntu", "24.04").is_null());
  CHECK(m.releases_for_gfx("gfx1100") == Json::array({"6.4.1", "6.2.4"}));
  Json r = m.release("6.2.4");
  CHECK(r["date"].is_null());
  CHECK(r["distros"] == Json::array({"ubuntu 22.04"}));
  CHECK(m.release("6.3.0").is_null());
}

TEST_CASE("the override suggested is the best reported one, and wheel gfx lists are three-valued", "[matrix]") {
  const Matrix& m = small();
  CHECK(m.hsa_override("gfx90c")->value == "9.0.0");  // 9.0.12 is reported to fail
  CHECK_FALSE(m.hsa_override("gfx1200")->value);       // no value applies
  CHECK(m.hsa_override("gfx1100") == nullptr);
  CHECK(m.hsa_override_reported("gfx90c", "9.0.12") == "fails");
  CHECK(m.hsa_override_reported("gfx90c", "10.3.0").is_null());
  CHECK(m.torch_wheel_has_gfx("2.4.1+rocm6.1", "gfx1100").is_true());
  CHECK(m.torch_wheel_has_gfx("2.4.1+rocm6.1", "gfx1031").is_false());
  CHECK(m.torch_wheel_has_gfx("2.5.1+rocm6.2", "gfx1031").is_false());   // listed as absent
  CHECK(m.torch_wheel_has_gfx("2.5.1+rocm6.2", "gfx1100").is_unknown());  // no list known
  CHECK(m.torch_wheel_has_gfx("2.5.1", "gfx1100").is_unknown());          // not a ROCm wheel
  CHECK(m.torch_wheel_has_gfx("2.9.0+rocm7.0", "gfx1100").is_unknown());  // not in the matrix
  // A list of low confidence: in it is there; left out of it is not known,
  // unless the target is known to be absent.
  CHECK(m.torch_wheel_has_gfx("2.6.0+rocm9.9", "gfx1100").is_true());
  Value low = m.torch_wheel_has_gfx("2.6.0+rocm9.9", "gfx1030");
  CHECK(low.is_unknown());
  CHECK(low.why() == "torch 2.6.0+rocm9.9's gfx list, which does not name gfx1030, is of low confidence (unconfirmed: gfx "
                     "list from a PR description)");
  CHECK(m.torch_wheel_has_gfx("2.6.0+rocm9.9", "gfx803").is_false());
}

TEST_CASE("the matrix functions answer from the records", "[matrix]") {
  std::map<std::string, Function> f;
  small().add_functions(f);
  Json facts = Json::object();
  EvalContext ctx(facts, f);
  auto call = [&](const char* name, std::vector<Value> args) { return f.at(name).call(args, ctx); };
  CHECK(call("gpu_gfx", {Value::of("0x744c")}).json() == "gfx1100");
  CHECK(call("gpu_gfx", {Value::of("0x1234")}).json().is_null());
  CHECK(call("gfx_kfd_value", {Value::of("gfx1100")}).json() == 110000);
  CHECK(call("hsa_override_value", {Value::of("gfx90c")}).json() == "9.0.0");
  CHECK(call("hsa_override_value", {Value::of("gfx1200")}).json().is_null());
  CHECK(call("rocm_architectures", {Value::of("6.4.1")}).json() == Json::array({"x86_64"}));
  CHECK(call("rocm_architectures", {Value::of("6.2.4")}).is_unknown());
  // The newest kernel series any distribution row of a release lists: what a
  // kernel at or above is not too old for (kernel-too-old-for-rocm-runtime).
  CHECK(call("rocm_newest_kernel_series", {Value::of("6.4.1")}).json() == "6.11");  // 6.11 > 6.8, as versions
  CHECK(call("rocm_newest_kernel_series", {Value::of("7.9.0")}).is_unknown());       // its rows list no kernel
  CHECK(call("rocm_newest_kernel_series", {Value::of("1.2.3")}).is_unknown());
  CHECK(call("rocm_newest_kernel_series", {Value::of(Json(nullptr))}).is_unknown());
  CHECK(call("newest_rocm", {}).json() == "7.0.0");
  CHECK(call("rocm_release_known", {Value::of("7.9.0")}).is_true());
  CHECK(call("torch_rocm_wheel_for_python", {Value::of("3.12")}).is_true());
  CHECK(call("torch_rocm_wheel_for_python", {Value::of("3.9")}).is_false());
}

// A word only some values of which mean anything fails when the rule loads,
// with its place, rather than as an unknown at every run.
TEST_CASE("rocm_releases_for_gfx's line, written as a literal, is checked at load", "[matrix]") {
  std::map<std::string, Function> f = builtin_functions();  // len()
  small().add_functions(f);
  Vocabulary v;
  v.functions = &f;
  v.is_fact = [](const std::string&) { return true; };
  // As a for_each rule over gpus parses it: `it` is a GPU.
  auto parses = [&](const std::string& text, ParseError* error) { return parse_expression(text, v, "gpus", error).ok(); };
  ParseError e;
  CHECK(parses("len(rocm_releases_for_gfx(it.gfx, 'core_sdk')) > 0", &e));
  CHECK(parses("len(rocm_releases_for_gfx(it.gfx)) > 0", &e));
  CHECK(parses("len(rocm_releases_for_gfx(it.gfx, it.line)) > 0", &e));  // not a literal: judged when run
  REQUIRE_FALSE(parses("len(rocm_releases_for_gfx(it.gfx, 'core-sdk')) > 0", &e));
  CHECK(e.message == "rocm_releases_for_gfx(): the line is \"production\" or \"core_sdk\", not \"core-sdk\"");
  CHECK(e.column == 5);
}

TEST_CASE("without a GPU a fix names the newest torch's index with the widest GPU list", "[matrix]") {
  auto widest = [](const std::string& wheels) {
    Loaded l = load({{"m/rocm-releases.yaml", kReleases}, {"m/pytorch.yaml", wheels}});
    for (auto& e : l.errors) INFO(e.str());
    REQUIRE(l.errors.empty());
    std::map<std::string, Function> f;
    l.matrix.add_functions(f);
    Json facts = Json::object();
    EvalContext ctx(facts, f);
    return f.at("widest_torch_index").call({}, ctx);
  };
  auto wheel = [](const char* torch, const char* rocm, const char* channel, const char* gfx) {
    return std::string("- {torch: \"") + torch + "\", rocm: \"" + rocm + "\", channel: " + channel +
           ", index_url: \"https://x/" + torch + "-rocm" + rocm + "\", python: null, torchvision: null, torchaudio: null, gfx: " +
           gfx + ", gfx_confidence: high, confidence: high, sources: [index]}\n";
  };
  std::string head = "schema: 1\nas_of: \"2026-01-02\"\nsources: {index: x}\nwheels:\n";
  // An older torch with more targets, and a test build, do not count; of the
  // newest release the wider wheel wins over the newer ROCm series.
  std::string wheels = head + wheel("2.13.0", "7.2", "release", "[gfx900, gfx906, gfx908, gfx90a, gfx1100]") +
                       wheel("2.14.0", "7.14", "release", "[gfx90a, gfx1100]") +
                       wheel("2.14.0", "7.2", "release", "[gfx906, gfx90a, gfx1100]") +
                       wheel("2.15", "7.14", "test", "[gfx900, gfx906, gfx908, gfx90a, gfx1100, gfx1200]");
  CHECK(widest(wheels).json() == "https://x/2.14.0-rocm7.2");
  // As wide: the newer series.
  wheels = head + wheel("2.14.0", "7.2", "release", "[gfx90a, gfx1100]") + wheel("2.14.0", "7.14", "release", "[gfx90a, gfx1100]");
  CHECK(widest(wheels).json() == "https://x/2.14.0-rocm7.14");
  // No release wheel at all: unknown, never a guessed URL.
  CHECK(widest(head + wheel("2.15", "7.14", "test", "null")).is_unknown());
}

namespace {

// A machine with an RX 7900 XTX (0x744c: gfx1100 by the matrix, no KFD node)
// on `distro` `version_id`, with /opt/rocm at ROCm `installed` ("" for none).
Json machine(const std::string& version_id, const std::string& installed, const std::string& distro = "ubuntu") {
  Json f = Json::object();
  f["distro"] = {{"id", distro}, {"version_id", version_id}};
  f["pci"] = {{"gpus", Json::array({{{"address", "0000:03:00.0"}, {"vendor", "amd"}, {"device_id", "0x744c"}, {"name", "Navi 31"}}})}};
  f["kfd"] = {{"gpus", Json::array()}};
  if (installed.empty())
    f["rocm"] = {{"default", nullptr}, {"installs", Json::array()}};
  else
    f["rocm"] = {{"default", "/opt/rocm-" + installed},
                 {"installs", Json::array({{{"path", "/opt/rocm"}, {"version", installed + "-120"}}})}};
  return f;
}

Json target_of(Json facts, const std::optional<std::string>& rocm = std::nullopt) {
  add_derived_facts(facts, small(), rocm);
  return facts["target"];
}

}  // namespace

TEST_CASE("the target is the installed release, and the newest for the GPU is named beside it", "[matrix][target]") {
  Json t = target_of(machine("22.04", "6.2.4"));
  CHECK(t["rocm"] == "6.2.4");  // "6.2.4-120" without its build number
  CHECK(t["chosen_by"] == "installed");
  CHECK(t["in_matrix"] == true);
  CHECK(t["installed"] == "6.2.4");
  CHECK(t["newest_for_gpu"] == "6.4.1");
  CHECK(t["for_gpu"] == "0000:03:00.0");
  CHECK(t["kernels"] == Json::array({"6.5 (HWE)"}));
  CHECK(t["kernel_packages"] == Json::array({"linux-generic-hwe-22.04"}));
  // The rocm6.2 wheel's gfx list is not read: it is the release's index all the same.
  CHECK(t["torch_index"] == "https://x/rocm6.2");
  CHECK(t["torch"] == "2.5.1");

  // --rocm checks another; the installed release is still named.
  t = target_of(machine("22.04", "6.2.4"), "6.4.1");
  CHECK(t["rocm"] == "6.4.1");
  CHECK(t["chosen_by"] == "--rocm");
  CHECK(t["installed"] == "6.2.4");
  CHECK(unknown_reason(t["kernels"]) == "the matrix lists no kernels for ROCm 6.4.1 on ubuntu 22.04");
}

TEST_CASE("listed_kernels names the first package of a series newer than the running kernel, the one GRUB would boot",
          "[matrix]") {
  // ROCm 6.4.1 on Ubuntu 24.04 lists GA 6.8 and HWE 6.11.
  auto newer = [](const Matrix& m, const std::string& running) {
    Matrix::ListedKernels k = m.listed_kernels("6.4.1", "ubuntu", "24.04", running);
    REQUIRE(k.unknown_why.empty());
    return std::pair{k.newer_package, k.newer_package_series};
  };
  using P = std::pair<std::string, std::string>;
  CHECK(newer(small(), "6.10.0-5-generic") == P{"linux-generic-hwe-24.04", "6.11"});
  CHECK(newer(small(), "6.8.0-45-generic") == P{"linux-generic-hwe-24.04", "6.11"});
  // Older than both: the first in the matrix's order.
  CHECK(newer(small(), "6.2.0-39-generic") == P{"linux-generic", "6.8"});
  // In the newest listed series, newer than all, or no series: none.
  CHECK(newer(small(), "6.11.0-29-generic") == P{});
  CHECK(newer(small(), "6.15.0-061500-generic") == P{});
  CHECK(newer(small(), "custom") == P{});

  // A newer series without a package (no GA/HWE kind) is passed over for
  // the next newer one that has one; where none has, there is none, though
  // the older ones still have theirs.
  std::string releases = kReleases;
  std::string from = R"({series: "6.8", kind: ga}, {series: "6.11", kind: hwe}])";
  auto at = releases.find(from);
  REQUIRE(at != std::string::npos);
  releases.replace(at, from.size(), R"({series: "7.0", kind: unspecified}, {series: "6.8", kind: ga}, {series: "6.11", kind: hwe}])");
  Loaded l = load({{"m/rocm-releases.yaml", releases}, {"m/gpus.yaml", kGpus}});
  REQUIRE(l.errors.empty());
  CHECK(newer(l.matrix, "6.10.0-5-generic") == P{"linux-generic-hwe-24.04", "6.11"});
  CHECK(newer(l.matrix, "6.12.0-1-generic") == P{});
  Matrix::ListedKernels k = l.matrix.listed_kernels("6.4.1", "ubuntu", "24.04", "6.12.0-1-generic");
  CHECK(k.packages == std::vector<std::string>{"linux-generic-hwe-24.04", "linux-generic"});
  CHECK(k.running_newer.is_false());
}

TEST_CASE("an installed release the matrix does not know stays the target, and its lists are unknown", "[matrix][target]") {
  Json t = target_of(machine("24.04", "6.3.3"));
  CHECK(t["rocm"] == "6.3.3");
  CHECK(t["chosen_by"] == "installed");
  CHECK(t["in_matrix"] == false);
  CHECK_FALSE(t.contains("release_date"));
  CHECK(unknown_reason(t["kernels"]) == "ROCm 6.3.3 is not in the matrix (as of 2026-01-02)");
  CHECK(is_unknown(t["torch_index"]));
  CHECK(t["newest_for_gpu"] == "6.4.1");
}

TEST_CASE("without an install the target is the newest release for the GPU and distribution", "[matrix][target]") {
  Json t = target_of(machine("24.04", ""));
  CHECK(t["rocm"] == "6.4.1");
  CHECK(t["chosen_by"] == "matrix");
  CHECK(t["installed"] == nullptr);
  CHECK(t["kernels"] == Json::array({"6.8 (GA)", "6.11 (HWE)"}));
  CHECK(t["kernel_packages"] == Json::array({"linux-generic", "linux-generic-hwe-24.04"}));
  // Running a kernel between them: the newer series first, since GRUB boots
  // the newest kernel installed and the GA package would change nothing.
  Json between = machine("24.04", "");
  between["kernel"] = {{"release", "6.10.0-5-generic"}};
  t = target_of(between);
  CHECK(t["kernels"] == Json::array({"6.11 (HWE)", "6.8 (GA)"}));
  CHECK(t["kernel_packages"] == Json::array({"linux-generic-hwe-24.04", "linux-generic"}));
  // Older than both, or a release without a series: the matrix's order.
  between["kernel"]["release"] = "6.2.0-39-generic";
  CHECK(target_of(between)["kernel_packages"] == Json::array({"linux-generic", "linux-generic-hwe-24.04"}));
  CHECK(target_of(between)["kernel_newer_than_listed"] == false);
  between["kernel"]["release"] = "custom";
  CHECK(target_of(between)["kernel_packages"] == Json::array({"linux-generic", "linux-generic-hwe-24.04"}));
  CHECK(unknown_reason(target_of(between)["kernel_newer_than_listed"]) ==
        "the running kernel's series is not known (custom)");
  // Newer than every listed series (a mainline 6.15): the newest listed
  // first, and the fact that says a listed kernel beside it is not what GRUB
  // boots.
  between["kernel"]["release"] = "6.15.0-061500-generic";
  t = target_of(between);
  CHECK(t["kernels"] == Json::array({"6.11 (HWE)", "6.8 (GA)"}));
  CHECK(t["kernel_packages"] == Json::array({"linux-generic-hwe-24.04", "linux-generic"}));
  CHECK(t["kernel_newer_than_listed"] == true);
  // In a listed series, even its newest: not newer than the list.
  between["kernel"]["release"] = "6.11.0-29-generic";
  CHECK(target_of(between)["kernel_newer_than_listed"] == false);

  // An install whose version cannot be read is not guessed at.
  Json f = machine("24.04", "6.2.4");
  f["rocm"]["installs"][0]["version"] = unknown("/opt/rocm/.info/version: permission denied");
  t = target_of(f);
  CHECK(t["chosen_by"] == "matrix");
  CHECK(t["rocm"] == "6.4.1");
  CHECK(unknown_reason(t["installed"]) == "/opt/rocm/.info/version: permission denied");

  // A distribution the release does not list has no kernels to name.
  f = machine("24.04", "");
  f["distro"]["id"] = "rhel";
  t = target_of(f, "6.4.1");
  CHECK(unknown_reason(t["kernels"]) == "ROCm 6.4.1 does not list rhel 24.04");
}

TEST_CASE("the target's PyTorch index is the newest release wheel built for the GPU", "[matrix][target]") {
  Json t = target_of(machine("24.04", ""), "6.1.3");
  CHECK(t["torch_index"] == "https://x/rocm6.1");
  CHECK(t["torch"] == "2.4.1");
  // gfx1031 is known to be absent from the rocm6.2 wheel, and no other fits.
  Json f = machine("22.04", "");
  f["kfd"]["gpus"] = Json::array({{{"pci_address", "0000:03:00.0"}, {"gfx", "gfx1031"}}});
  t = target_of(f, "6.2.4");
  CHECK(unknown_reason(t["torch_index"]) ==
        "no PyTorch release wheel in the matrix (as of 2026-01-02) is built for ROCm 6.2.4 and gfx1031");
}

TEST_CASE("a misspelt key, a wrong type or a missing field in the matrix is a load error with its place", "[matrix]") {
  CHECK(errors_with(kGpus, "asic: NAVI31", "asci: NAVI31") ==
        std::vector<std::string>{"m/x.yaml:7:25: unknown key 'asci' (allowed: device_id, asic, gfx, gfx_disputed, names, "
                                 "apu, pci_ids_name, revision_names, confidence, unconfirmed, sources)"});
  CHECK(errors_with(kGpus, "kfd_target_version: 110000", "kfd_target_version: \"110000\"") ==
        std::vector<std::string>{"m/x.yaml:5:38: 'kfd_target_version' must be a whole number"});
  CHECK(errors_with(kGpus, "apu: true", "apu: [true]") ==
        std::vector<std::string>{"m/x.yaml:8:67: 'apu' must be text"});
  auto missing = errors_with(kReleases, "  line: preview\n", "");
  REQUIRE(missing.size() == 1);
  CHECK(missing[0] == "m/x.yaml:36:3: missing 'line'");
  auto number = errors_with(kReleases, "version: \"6.2.4\"", "version: 624");
  REQUIRE(number.size() == 1);
  INFO(number[0]);
  CHECK(number[0].find("m/x.yaml:18:12: 'version' must be text") == 0);
  CHECK(errors_with(kOverrides, "outcome: fails", "outcome: broken") ==
        std::vector<std::string>{"m/x.yaml:5:60: 'outcome' is one of works, works_with_caveats, fails, unknown (not 'broken')"});
  CHECK(errors_with(kWheels, "sources: [index]}\n- {torch", "sources: [idx]}\n- {torch") ==
        std::vector<std::string>{"m/x.yaml:6:91: unknown source 'idx' (define it under 'sources')"});
  // A deeper typo, in a distribution's kernel row.
  auto deep = errors_with(kReleases, "{series: \"6.5\", kind: hwe}", "{series: \"6.5\", knd: hwe}");
  REQUIRE(deep.size() == 1);
  INFO(deep[0]);
  CHECK(deep[0].find("m/x.yaml:22:70: unknown key 'knd'") == 0);
  CHECK(errors_with(kGpus, "schema: 1", "schema: 2") ==
        std::vector<std::string>{"m/x.yaml:1:1: a matrix file starts with 'schema: 1'"});
}

TEST_CASE("every bad entry is reported, and the good ones still load", "[matrix]") {
  // kGpus has ten lines; the two bad entries are lines 11 and 12.
  std::string text = kGpus;
  text += "- {device_id: \"0x1\", asic: A, gfx: g, names: [], apu: false, confidence: sure, sources: [ids]}\n";
  text += "- {device_id: \"0x2\", asic: A, gfx: g, names: [], apu: false, confidence: high}\n";
  Loaded l = load({{"m/g.yaml", text}, {"m/rocm-releases.yaml", kReleases}});
  REQUIRE(l.errors.size() == 2);
  CHECK(l.errors[0].str().find("m/g.yaml:11:") == 0);
  CHECK(l.errors[1].str() == "m/g.yaml:12:3: missing 'sources'");
  CHECK(l.matrix.device("0x744c"));
}

TEST_CASE("the shipped matrix loads strictly and answers for a common GPU", "[matrix][shipped]") {
  std::vector<LoadError> errors;
  Matrix m = Matrix::load(files_under(embedded_rule_files(), "matrix"), errors);
  for (auto& e : errors) INFO(e.str());
  REQUIRE(errors.empty());
  REQUIRE(m.device("0x744c"));
  CHECK(m.device("0x744c")->gfx == "gfx1100");  // RX 7900 XTX
  CHECK(m.newest_release_for("gfx1100", "ubuntu", "24.04").is_string());
  CHECK_FALSE(m.as_of().empty());
}

// The kernel's kgd2kfd_probe() maps a GC IP version to the KFD target; the
// matrix carries that as gc_ip, and check reads a GPU's target from it when
// no KFD node answers.
TEST_CASE("a GC version from IP discovery gives its target where the version alone decides", "[matrix][shipped]") {
  std::vector<LoadError> errors;
  Matrix m = Matrix::load(files_under(embedded_rule_files(), "matrix"), errors);
  REQUIRE(errors.empty());
  auto gfx = [&](std::string_view v) { const GfxTarget* t = m.gfx_for_gc_version(v); return t ? std::string(t->gfx) : "none"; };
  CHECK(gfx("11.0.0") == "gfx1100");
  CHECK(gfx("11.0.3") == "gfx1101");  // the kernel's note: compiler 11.0.1, hardware 11.0.3
  CHECK(gfx("10.3.7") == "gfx1036");  // the second version of a target
  CHECK(gfx("12.0.1") == "gfx1201");
  CHECK(gfx("9.4.4") == "gfx942");
  CHECK(gfx("9.4.3") == "none");  // gfx940, gfx941 or gfx942 by revision and APU flag
  CHECK(gfx("11.0") == "none");
  CHECK(gfx("99.0.0") == "none");
  // Every target but Polaris (older than IP discovery) has its versions.
  for (auto& t : m.gfx_targets())
    if (t.gfx != "gfx803") CHECK((!t.gc_versions.empty() || !t.gc_versions_conditional.empty()));
}

TEST_CASE("a gc_ip that is not versions with bracketed conditions is an error at its place", "[matrix]") {
  const std::string from = "confidence: high, sources: [ids]}\ndevices:";
  auto with = [&](const std::string& gc) {
    return errors_with(kGpus, from, "gc_ip: \"" + gc + "\", confidence: high, sources: [ids]}\ndevices:");
  };
  CHECK(with("11.0.0").empty());
  CHECK(with("9.4.3 (rev_id>=1) / 9.4.4").empty());
  auto bad = with("11.0");
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].find("m/x.yaml:5:") == 0);
  CHECK(bad[0].find("'gc_ip' lists versions MAJOR.MINOR.REVISION") != std::string::npos);
  CHECK(with("").size() == 1);
  CHECK(with("11..0").size() == 1);
  auto loose = with("9.4.3 rev 1");
  REQUIRE(loose.size() == 1);
  CHECK(loose[0].find("a condition after the version goes in brackets: '9.4.3 rev 1'") != std::string::npos);
}

TEST_CASE("one plain GC version on two targets is an error, a conditional one is not", "[matrix]") {
  const std::string from = "confidence: high, sources: [ids]}\ndevices:";
  auto with = [&](const std::string& first, const std::string& second) {
    return errors_with(kGpus, from,
                       "gc_ip: \"" + first + "\", confidence: high, sources: [ids]}\n"
                       "- {gfx: gfx1101, kfd_target_version: 110001, architecture: RDNA3, apu: false, products: [RX 7800 XT], "
                       "gc_ip: \"" + second + "\", confidence: high, sources: [ids]}\ndevices:");
  };
  CHECK(with("11.0.0", "11.0.3").empty());
  CHECK(with("9.4.3 (rev_id>=1)", "9.4.3 (apu)").empty());  // both say when
  CHECK(with("11.0.0", "11.0.0 (apu)").empty());  // said on purpose: the version alone then decides nothing
  auto twice = with("11.0.3", "11.0.3");
  REQUIRE(twice.size() == 1);
  CHECK(twice[0].find("m/x.yaml:6:") == 0);
  CHECK(twice[0].find("'gc_ip' 11.0.3 is also gfx1100's") != std::string::npos);
}

TEST_CASE("a GPU's product name as people write it gives its gfx target", "[matrix]") {
  const Matrix& m = small();
  for (auto name : {"RX 7900 XTX", "rx7900xtx", "AMD Radeon RX 7900 XTX", "7900 XTX", "Radeon 7900XTX"})
    CHECK(m.gfx_for_product_name(name) == std::optional<std::string>("gfx1100"));
  CHECK(m.gfx_for_product_name("RX470") == std::optional<std::string>("gfx803"));
  CHECK(m.gfx_for_product_name("Radeon Pro WX 7100") == std::optional<std::string>("gfx803"));
  // Two targets under one name (here a made-up second RX 580): no answer rather than a guess.
  CHECK_FALSE(m.gfx_for_product_name("RX 580"));
  CHECK_FALSE(m.gfx_for_product_name("RX 9999"));
  CHECK_FALSE(m.gfx_for_product_name("Radeon"));
  CHECK_FALSE(m.gfx_for_product_name(""));
}

TEST_CASE("kernel rows AMD lists for one GPU family count for that family only", "[matrix]") {
  RuleSources sources;
  sources.local_rules_dir = "";
  sources.catalogue = false;
  Knowledge k = load_knowledge(sources);
  REQUIRE(k.errors.empty());
  const Matrix& m = *k.matrix;
  // ROCm 10.1.0 on Ubuntu 24.04: GA 6.8 for Instinct, HWE 7.0 for Radeon and Ryzen.
  CHECK(m.kernel_support("10.1.0", "ubuntu", "24.04", "6.8.0-45-generic", "instinct").is_true());
  CHECK(m.kernel_support("10.1.0", "ubuntu", "24.04", "6.8.0-45-generic", "apu").is_false());
  CHECK(m.kernel_support("10.1.0", "ubuntu", "24.04", "6.8.0-45-generic", "radeon").is_false());
  CHECK(m.kernel_support("10.1.0", "ubuntu", "24.04", "7.0.0-15-generic", "apu").is_true());
  CHECK(m.kernel_support("10.1.0", "ubuntu", "24.04", "6.8.0-45-generic").is_true());  // no family: every row
  // 22.04 lists no kernel for Ryzen APUs: not known, never "not listed".
  CHECK(m.kernel_support("10.1.0", "ubuntu", "22.04", "6.8.0-45-generic", "apu").is_unknown());
  Json apu = {{"apu", true}, {"architecture", "RDNA3.5"}}, mi = {{"apu", false}, {"architecture", "CDNA3"}},
       rx = {{"apu", false}, {"architecture", "RDNA3"}}, unknown_arch = {{"apu", false}, {"architecture", nullptr}};
  CHECK(gpu_family(&apu) == "apu");
  CHECK(gpu_family(&mi) == "instinct");
  CHECK(gpu_family(&rx) == "radeon");
  CHECK(gpu_family(&unknown_arch).is_null());
  CHECK(gpu_family(nullptr).is_null());
  // The one question check and install ask of a release: does it list this
  // distribution for this family?
  CHECK(m.lists_gpu("10.1.0", "ubuntu", "22.04", "apu", "").is_false());
  CHECK(m.lists_gpu("10.1.0", "ubuntu", "22.04", "radeon", "").is_true());
  CHECK(m.lists_gpu("10.1.0", "ubuntu", "22.04", "", "").is_true());  // family not known: nobody left out
  // AMD lists Ubuntu 22.04 in 10.x for every Instinct GPU but the MI350P
  // (limited_to.except_products), judged by the PCI device id: the MI350P
  // (0x75a8) is left out, its siblings of the same target are not.
  for (const char* release : {"10.1.0", "10.0.0", "7.14.1", "7.14.0"}) {
    INFO(release);
    CHECK(m.lists_gpu(release, "ubuntu", "22.04", "instinct", "gfx950", "0x75a8").is_false());  // MI350P
    CHECK(m.lists_gpu(release, "ubuntu", "22.04", "instinct", "gfx950", "0x75a3").is_true());   // MI355X
    CHECK(m.lists_gpu(release, "ubuntu", "22.04", "instinct", "gfx950", "").is_true());  // device not known
    CHECK(m.lists_gpu(release, "ubuntu", "22.04", "radeon", "gfx1100", "0x744c").is_true());  // RX 7900 XT/XTX
    CHECK(m.lists_gpu(release, "ubuntu", "24.04", "instinct", "gfx950", "0x75a8").is_true());
    CHECK(m.gpu_left_out(release, "ubuntu", "22.04", "instinct", "gfx950", "0x75a8") ==
          "ROCm " + std::string(release) + " lists Ubuntu 22.04 not for the Instinct MI350P");
    CHECK(m.gpu_left_out(release, "ubuntu", "22.04", "instinct", "gfx950", "0x75a3").empty());
  }
  // The rules ask the same through rocm_kernel_supported's device id
  // (target.gpu_device_id): no kernel of 22.04's row is the MI350P's.
  std::map<std::string, Function> f;
  m.add_functions(f);
  Json none = Json::object();
  EvalContext ctx(none, f);
  auto kernel_for = [&](const char* device) {
    return f.at("rocm_kernel_supported")
        .call({Value::of("10.1.0"), Value::of("ubuntu"), Value::of("22.04"), Value::of("5.15.0-100-generic"),
               Value::of("instinct"), Value::of("gfx950"), Value::of(device)},
              ctx);
  };
  CHECK(kernel_for("0x75a8").is_unknown());
  CHECK(kernel_for("0x75a8").why().find("not for the Instinct MI350P") != std::string::npos);
  CHECK_FALSE(kernel_for("0x75a3").is_unknown());
  CHECK(m.lists_gpu("10.1.0", "ubuntu", "24.04", "apu", "").is_true());
  CHECK(m.lists_gpu("10.1.0", "ubuntu", "20.04", "radeon", "").is_false());
  CHECK(m.lists_gpu("1.0", "ubuntu", "24.04", "radeon", "").is_unknown());
  // Only the Core SDK line lists Strix Halo (gfx1151): on Ubuntu 24.04 it does for
  // Ryzen APUs; on 22.04 its kernel rows leave APUs out, so no release fits.
  CHECK(m.newest_release_for("gfx1151", "ubuntu", "24.04", "apu") == "10.1.0");
  CHECK(m.newest_release_for("gfx1151", "ubuntu", "22.04", "apu").is_null());
}

TEST_CASE("a device whose target sources disagree on names the targets, with gfx null and what is unconfirmed",
          "[matrix]") {
  const std::string from = "asic: UNKNOWN, gfx: null,";
  CHECK(errors_with(kGpus, from, "asic: UNKNOWN, gfx: null, gfx_disputed: [gfx1152, gfx1153], unconfirmed: which says what,")
            .empty());
  auto one = [](const std::vector<std::string>& errors, const std::string& what) {
    REQUIRE(errors.size() == 1);
    INFO(errors[0]);
    CHECK(errors[0].find(what) != std::string::npos);
  };
  one(errors_with(kGpus, from, "asic: UNKNOWN, gfx: gfx1152, gfx_disputed: [gfx1152, gfx1153], unconfirmed: u,"),
      "'gfx' must be null where 'gfx_disputed' names the targets sources disagree on");
  one(errors_with(kGpus, from, "asic: UNKNOWN, gfx: null, gfx_disputed: [gfx1152], unconfirmed: u,"),
      "'gfx_disputed' names at least two targets");
  one(errors_with(kGpus, from, "asic: UNKNOWN, gfx: null, gfx_disputed: [gfx1152, gfx1153],"),
      "'gfx_disputed' needs an 'unconfirmed'");
}

TEST_CASE("a product name a limit names must be a product of some device", "[matrix]") {
  const std::string row = "{id: ubuntu, version: \"22.04\", kernels: []}";
  auto with_products = [&](const std::string& products) {
    std::string text = kReleases;
    text.replace(text.find(row), row.size(),
                 "{id: ubuntu, version: \"22.04\", kernels: [], limited_to: {gfx: [gfx1100], products: " + products + "}}");
    return load({{"m/x.yaml", text}, {"m/gpus.yaml", kGpus}});
  };
  CHECK(with_products("[Radeon RX 7900 XTX]").errors.empty());
  CHECK(with_products("[AMD Radeon RX 580]").errors.empty());  // one of a device's several names
  Loaded typo = with_products("[Radeon RX 7900 XTX, Radeon RX 79OO XT]");
  REQUIRE(typo.errors.size() == 1);
  CHECK(typo.errors[0].str().rfind("m/x.yaml:11:", 0) == 0);
  CHECK(typo.errors[0].str().find("'Radeon RX 79OO XT' is no product of a device in gpus.yaml") != std::string::npos);
}

// Several rows for one distribution version (Release::distro_rows): the GPU
// is listed where any row lists it, a kernel where any row for the GPU lists
// it, and a row for it without kernels leaves the others' gaps unknown.
TEST_CASE("every row of a distribution version counts, not the first", "[matrix]") {
  const std::string row = "{id: ubuntu, version: \"22.04\", kernels: []}";
  auto with_rows = [&](const std::string& rows) {
    std::string text = kReleases;
    text.replace(text.find(row), row.size(), rows);
    Loaded l = load({{"m/x.yaml", text}, {"m/gpus.yaml", kGpus}});
    for (auto& e : l.errors) INFO(e.str());
    REQUIRE(l.errors.empty());
    return l;
  };
  // First an Instinct-only row, then one for every GPU with another kernel.
  Loaded two = with_rows(
      "{id: ubuntu, version: \"22.04\", point_versions: [\"22.04.4\"], kernels: [{series: \"6.5\", kind: hwe}], "
      "limited_to: {families: [instinct]}}\n"
      "  - {id: ubuntu, version: \"22.04\", point_versions: [\"22.04.5\"], kernels: [{series: \"6.8\", kind: hwe}]}");
  const Matrix& m = two.matrix;
  CHECK(m.lists_gpu("6.4.1", "ubuntu", "22.04", "radeon", "gfx1100").is_true());
  CHECK(m.gpu_left_out("6.4.1", "ubuntu", "22.04", "radeon", "gfx1100") == "");
  CHECK(m.kernel_support("6.4.1", "ubuntu", "22.04", "6.8.0-49-generic", "radeon", "gfx1100").is_true());
  CHECK(m.kernel_support("6.4.1", "ubuntu", "22.04", "6.5.0-45-generic", "radeon", "gfx1100").is_false());
  CHECK(m.kernel_support("6.4.1", "ubuntu", "22.04", "6.5.0-45-generic", "instinct", "gfx942").is_true());
  // Only the limited row: left out, with its reason.
  Loaded one = with_rows(
      "{id: ubuntu, version: \"22.04\", kernels: [{series: \"6.5\", kind: hwe}], limited_to: {families: [instinct]}}");
  CHECK(one.matrix.lists_gpu("6.4.1", "ubuntu", "22.04", "radeon", "gfx1100").is_false());
  CHECK(one.matrix.gpu_left_out("6.4.1", "ubuntu", "22.04", "radeon", "gfx1100") ==
        "ROCm 6.4.1 lists ubuntu 22.04 only for instinct GPUs");
  Value left = one.matrix.kernel_support("6.4.1", "ubuntu", "22.04", "6.5.0-45-generic", "radeon", "gfx1100");
  CHECK(left.is_unknown());
  CHECK(left.why().find("only for instinct GPUs, so none of its kernels is for this GPU") != std::string::npos);
  // A limited row with kernels beside a row for every GPU without any: listed
  // for the GPU, its kernels not known, never "only for instinct".
  Loaded mixed = with_rows(
      "{id: ubuntu, version: \"22.04\", kernels: [{series: \"6.5\", kind: hwe}], limited_to: {families: [instinct]}}\n"
      "  - {id: ubuntu, version: \"22.04\", kernels: []}");
  CHECK(mixed.matrix.lists_gpu("6.4.1", "ubuntu", "22.04", "radeon", "gfx1100").is_true());
  Value gap = mixed.matrix.kernel_support("6.4.1", "ubuntu", "22.04", "6.5.0-45-generic", "radeon", "gfx1100");
  CHECK(gap.is_unknown());
  CHECK(gap.why() == "the matrix lists no kernels for ROCm 6.4.1 on ubuntu 22.04");
}

TEST_CASE("a distribution row's limited_to is read, and a bad one is an error at its place", "[matrix]") {
  const std::string row = "{id: ubuntu, version: \"22.04\", kernels: []}";
  auto with_limit = [&](const std::string& limit) {
    std::string text = kReleases;
    text.replace(text.find(row), row.size(), "{id: ubuntu, version: \"22.04\", kernels: [], limited_to: " + limit + "}");
    return load({{"m/x.yaml", text}});
  };
  Loaded good = with_limit("{families: [radeon], gfx: [gfx1100]}");
  for (auto& e : good.errors) INFO(e.str());
  REQUIRE(good.errors.empty());
  const Release* r641 = good.matrix.find_release("6.4.1");
  REQUIRE(r641);
  const MatrixDistro* d = first_row(r641, "ubuntu", "22.04");
  REQUIRE(d);
  CHECK(d->limited_families == MatrixTexts{"radeon"});
  CHECK(d->limited_gfx == MatrixTexts{"gfx1100"});
  REQUIRE(first_row(r641, "ubuntu", "24.04"));
  CHECK(first_row(r641, "ubuntu", "24.04")->limited_gfx.empty());

  auto error = [&](const std::string& limit) {
    Loaded l = with_limit(limit);
    REQUIRE(l.errors.size() == 1);
    std::string e = l.errors[0].str();
    CHECK(e.rfind("m/x.yaml:11:", 0) == 0);  // the 6.4.1 row's line
    return e;
  };
  auto has = [](const std::string& e, const std::string& what) {
    INFO(e);
    return e.find(what) != std::string::npos;
  };
  CHECK(has(error("{families: [cdna]}"), "'families' is one of instinct, radeon, apu (not 'cdna')"));
  CHECK(has(error("{gfx: [MI300X]}"), "'gfx' lists gfx targets (\"gfx942\"), not 'MI300X'"));
  CHECK(has(error("{}"), "'limited_to' names no GPU family and no gfx target"));
  CHECK(has(error("{products: [Instinct MI300X]}"), "'limited_to' names no GPU family and no gfx target"));
  CHECK(has(error("{gfx: [gfx942], product: [Instinct MI300X]}"),
            "unknown key 'product' (allowed: families, gfx, products, except_products)"));
  CHECK(has(error("{gfx: [gfx942], products: [Instinct MI300X], except_products: [Instinct MI300A]}"),
            "'limited_to' names 'products' and 'except_products': give one list"));
  CHECK(has(error("{except_products: [Instinct MI350P]}"), "'limited_to' names no GPU family and no gfx target"));
  Loaded products = with_limit("{gfx: [gfx942], products: [Instinct MI300X, Instinct MI300A]}");
  REQUIRE(products.errors.empty());
  const MatrixDistro* p = first_row(products.matrix.find_release("6.4.1"), "ubuntu", "22.04");
  REQUIRE(p);
  CHECK(p->limited_products == MatrixTexts{"Instinct MI300X", "Instinct MI300A"});
  CHECK(p->limited_gfx == MatrixTexts{"gfx942"});
  Loaded excepted = with_limit("{families: [instinct, radeon], except_products: [Instinct MI350P]}");
  REQUIRE(excepted.errors.empty());
  const MatrixDistro* x = first_row(excepted.matrix.find_release("6.4.1"), "ubuntu", "22.04");
  REQUIRE(x);
  CHECK(x->excepted_products == MatrixTexts{"Instinct MI350P"});
  CHECK(x->limited_products.empty());
  CHECK(has(error("[radeon]"), "'limited_to' must map families and/or gfx to lists"));
}

TEST_CASE("a row limited_to some GPUs lists the distribution for those only, for check and install alike", "[matrix]") {
  // The small matrix's 6.4.1 with AMD's kind of limits, and 6.2.4 listing
  // Rocky Linux 9.6 without one.
  std::string text = kReleases;
  auto insert_after = [&](const std::string& at, const std::string& what) {
    size_t where = text.find(at);
    REQUIRE(where != std::string::npos);
    text.insert(where + at.size(), what);
  };
  insert_after("  - {id: ubuntu, version: \"22.04\", kernels: []}\n",
               "  - {id: rocky, version: \"9\", kernels: [{series: \"5.14\", kind: ga}], limited_to: {gfx: [gfx942]}}\n"
               "  - {id: debian, version: \"12\", kernels: [{series: \"6.1\", kind: ga}], limited_to: {families: [instinct]}}\n");
  insert_after("  - {gfx: gfx906, product: null, family: null, support: deprecated}\n",
               "  - {gfx: gfx942, product: Instinct MI300X, family: instinct, support: supported}\n");
  insert_after("  distros: [{id: ubuntu, version: \"22.04\", kernels: [{series: \"6.5\", kind: hwe}]}",
               ", {id: rocky, version: \"9.6\", kernels: []}");
  Loaded l = load({{"m/rocm-releases.yaml", text}});
  for (auto& e : l.errors) INFO(e.str());
  REQUIRE(l.errors.empty());
  const Matrix& m = l.matrix;
  CHECK(m.lists_gpu("6.4.1", "rocky", "9.6", "radeon", "gfx1100").is_false());
  CHECK(m.lists_gpu("6.4.1", "rocky", "9.6", "instinct", "gfx942").is_true());
  CHECK(m.lists_gpu("6.4.1", "rocky", "9.6", "instinct", "gfx90a").is_false());
  CHECK(m.lists_gpu("6.4.1", "rocky", "9.6", "", "").is_true());  // no GPU named: the row counts
  CHECK(m.lists_gpu("6.4.1", "debian", "12", "radeon", "gfx1100").is_false());
  CHECK(m.lists_gpu("6.4.1", "debian", "12", "instinct", "gfx942").is_true());
  CHECK(m.lists_gpu("6.4.1", "debian", "12", "", "gfx1100").is_true());  // family not known: not narrowed by it
  CHECK(m.lists_gpu("6.4.1", "ubuntu", "24.04", "radeon", "gfx1100").is_true());
  // The newest release for the GPU skips a row limited to other GPUs.
  CHECK(m.newest_release_for("gfx1100", "rocky", "9.6", "radeon") == "6.2.4");
  CHECK(m.newest_release_for("gfx942", "rocky", "9.6", "instinct") == "6.4.1");
  CHECK(m.newest_release_for("gfx1100", "debian", "12", "radeon").is_null());
  // The distribution itself is still listed; only for other GPUs.
  CHECK(m.distro_support("6.4.1", "rocky", "9.6").is_true());
  // Its kernels are none for this GPU: not known, with the limit as the reason.
  Value k = m.kernel_support("6.4.1", "rocky", "9.6", "5.14.0-570.el9.x86_64", "radeon", "gfx1100");
  REQUIRE(k.is_unknown());
  CHECK(k.why() == "ROCm 6.4.1 lists rocky 9.6 only for gfx942, so none of its kernels is for this GPU");
  CHECK(m.kernel_support("6.4.1", "rocky", "9.6", "5.14.0-570.el9.x86_64", "instinct", "gfx942").is_true());
  CHECK(m.kernel_support("6.4.1", "rocky", "9.6", "6.1.0", "instinct", "gfx942").is_false());
  CHECK(m.gpu_left_out("6.4.1", "debian", "12", "radeon", "gfx1100") == "ROCm 6.4.1 lists debian 12 only for instinct GPUs");
  CHECK(m.gpu_left_out("6.4.1", "debian", "12", "instinct", "gfx942").empty());
  CHECK(m.gpu_left_out("6.4.1", "fedora", "43", "radeon", "gfx1100").empty());  // not listed at all: no limit to name
}

TEST_CASE("the shipped matrix limits distribution rows to gfx targets it knows", "[matrix][shipped]") {
  std::vector<LoadError> errors;
  Matrix m = Matrix::load(files_under(embedded_rule_files(), "matrix"), errors);
  REQUIRE(errors.empty());
  int limited = 0;
  for (auto& r : m.releases())
    for (auto& d : r.distros) {
      limited += !d.limited_gfx.empty() || !d.limited_families.empty();
      for (auto gfx : d.limited_gfx) {
        INFO("ROCm " << r.version << " " << d.id << " " << d.version << ": " << gfx);
        CHECK(m.gfx_target(gfx));
      }
    }
  CHECK(limited > 100);
  // AMD's footnote, "Rocky Linux 9 is supported only on AMD Instinct MI300X and MI300A GPUs".
  const Release* r724 = m.find_release("7.2.4");
  REQUIRE(r724);
  const MatrixDistro* rocky = first_row(r724, "rocky", "9.6");
  REQUIRE(rocky);
  CHECK(rocky->limited_gfx == MatrixTexts{"gfx942"});
  CHECK(m.newest_release_for("gfx942", "rocky", "9.6", "instinct") == "7.2.4");
  CHECK(m.newest_release_for("gfx1100", "rocky", "9.6", "radeon").is_null());
  // 10.x lists Debian for Instinct GPUs only; 7.2.4 does too.
  CHECK(m.newest_release_for("gfx1100", "debian", "12", "radeon").is_null());
  CHECK(m.newest_release_for("gfx1100", "ubuntu", "24.04", "radeon") == "7.2.4");
  CHECK(m.newest_release_for("gfx1100", "rhel", "9.8", "radeon") == "10.1.0");  // 10.x lists RHEL 9.8 for Radeon too
}

TEST_CASE("a release known by its target column alone does not leave out a target its line lists by product",
          "[matrix][shipped]") {
  std::vector<LoadError> errors;
  Matrix m = Matrix::load(files_under(embedded_rule_files(), "matrix"), errors);
  REQUIRE(errors.empty());
  // 6.3.1's product list names gfx1101 (Radeon PRO V710) and gfx906; 6.3.3's
  // target column names neither: not known, never "not listed".
  CHECK(m.gpu_support("6.3.1", "gfx1101").json() == "supported");
  CHECK(m.gpu_support("6.3.3", "gfx1101").is_unknown());
  CHECK(m.gpu_support("6.3.3", "gfx1101").why().find("6.3.3's compatibility-matrix target list") != std::string::npos);
  CHECK(m.gpu_support("6.3.3", "gfx906").is_unknown());
  CHECK(m.gpu_support("6.3.3", "gfx1100").json() == "supported");
  // A target no product list of the line names stays not listed.
  CHECK(m.gpu_support("6.3.3", "gfx1031").json() == "not_listed");
}

TEST_CASE("a series X.Y given to --rocm is its newest point release", "[matrix][shipped]") {
  std::vector<LoadError> errors;
  Matrix m = Matrix::load(files_under(embedded_rule_files(), "matrix"), errors);
  REQUIRE(errors.empty());
  CHECK(m.resolve_release("6.4.1") == "6.4.1");
  CHECK(m.resolve_release("10.1") == "10.1.0");
  CHECK(m.resolve_release("7.2") == "7.2.4");
  CHECK(m.resolve_release("10") == std::nullopt);
  CHECK(m.resolve_release("9.9") == std::nullopt);
}
