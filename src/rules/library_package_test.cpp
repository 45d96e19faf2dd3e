// The library map (libraries.yaml): loading it strictly, looking a soname
// up whatever its version suffix, and library_package() in conditions.
#include "catch.h"
#include "rules/matrix.h"

using namespace rocmdoc;

namespace {

const char* kRelease = R"(schema: 1
as_of: "2026-01-01"
sources: {doc: the release notes}
releases:
- version: "6.4.1"
  line: production
  architectures: []
  distros:
  - {id: ubuntu, version: "24.04", kernels: []}
  - {id: debian, version: "12", kernels: []}
  - {id: rhel, version: "9.6", kernels: []}
  - {id: sles, version: "15.6", kernels: []}
  gpus: []
  install: null
  confidence: low
  sources: [doc]
)";

const char* kDistributions = R"(schema: 1
as_of: "2026-01-01"
sources: {doc: os-release}
distributions:
- {id: almalinux, name: AlmaLinux, follows: rhel, own_rocm: null, confidence: high, sources: [doc]}
)";

// Line numbers matter: the tests below name them.
const char* kLibraries = R"(schema: 1
as_of: "2026-12-02"
sources: {pool: AMD's pool, dpkg: Debian's dpkg database}
libraries:
- {library: libamdhip64, origin: amd, deb: hip-runtime-amd, confidence: medium, sources: [pool]}
- {library: libMIOpen, origin: amd, deb: miopen-hip, rpm: miopen-hip, confidence: medium, sources: [pool]}
- library: libelf.so.1
  origin: distribution
  deb: libelf1
  rpm: elfutils-libelf
  renamed:
  - {distro: ubuntu, from_version: "24.04", package: libelf1t64}
  confidence: medium
  sources: [dpkg]
- library: libtinfo.so.5
  origin: distribution
  deb: libtinfo5
  renamed: [{distro: ubuntu, from_version: "24.04", package: null}]
  confidence: low
  unconfirmed: the Ubuntu 24.04 archive
  sources: [dpkg]
)";

struct Loaded {
  Matrix matrix;
  std::vector<std::string> errors;
};

Loaded load(const std::string& libraries) {
  std::vector<LoadError> errors;
  Loaded l{Matrix::load({{"m/rocm-releases.yaml", kRelease},
                         {"m/distributions.yaml", kDistributions},
                         {"m/libraries.yaml", libraries}},
                        errors),
           {}};
  for (auto& e : errors) l.errors.push_back(e.str());
  return l;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a library is looked up by its soname, with or without the version", "[matrix][libraries]") {
  CHECK(library_lookup_names("/opt/rocm/lib/libamdhip64.so.6.4.1") ==
        std::vector<std::string>{"libamdhip64.so.6.4.1", "libamdhip64.so.6.4", "libamdhip64.so.6", "libamdhip64.so",
                                 "libamdhip64"});
  CHECK(library_lookup_names("libnuma.so.1") == std::vector<std::string>{"libnuma.so.1", "libnuma.so", "libnuma"});
  CHECK(library_lookup_names("libfoo") == std::vector<std::string>{"libfoo"});
  CHECK(library_lookup_names("").empty());
}

TEST_CASE("the library map names the package for the distribution", "[matrix][libraries]") {
  Loaded l = load(kLibraries);
  for (auto& e : l.errors) INFO(e);
  REQUIRE(l.errors.empty());
  const Matrix& m = l.matrix;
  REQUIRE(m.libraries().size() == 4);
  // The version suffix does not matter for a stem.
  CHECK(m.library_package("libamdhip64.so.6", "ubuntu", "24.04") == "hip-runtime-amd");
  CHECK(m.library_package("libamdhip64.so.6.4.1", "debian", "12") == "hip-runtime-amd");
  CHECK(m.library_package("/opt/rocm/lib/libamdhip64.so", "ubuntu", "") == "hip-runtime-amd");
  // AMD's RPMs carry the Debian name unless the map says otherwise, on SUSE too.
  CHECK(m.library_package("libamdhip64.so.7", "rhel", "9.6") == "hip-runtime-amd");
  CHECK(m.library_package("libMIOpen.so.1", "sles", "15.6") == "miopen-hip");
  // A distribution AMD does not list is looked up as the one it follows.
  CHECK(m.library_package("libamdhip64.so.6", "almalinux", "9.6") == "hip-runtime-amd");
  // Arch: no name, the fix says pacman -F. Fedora: AMD's repository has no
  // packages for it (no release lists it), so no AMD name either.
  CHECK_FALSE(m.library_package("libamdhip64.so.6", "arch", ""));
  CHECK_FALSE(m.library_package("libamdhip64.so.6", "fedora", "43"));
  // A system library: per major version, renamed from a version on.
  CHECK(m.library_package("libelf.so.1", "ubuntu", "22.04") == "libelf1");
  CHECK(m.library_package("libelf.so.1", "ubuntu", "24.04") == "libelf1t64");
  CHECK(m.library_package("libelf.so.1", "ubuntu", "26.04") == "libelf1t64");
  CHECK(m.library_package("libelf.so.1", "debian", "13") == "libelf1");  // the rename names Ubuntu only
  CHECK(m.library_package("libelf.so.1", "fedora", "43") == "elfutils-libelf");
  CHECK_FALSE(m.library_package("libelf.so.1", "sles", "15.6"));  // SUSE's names are not in the map
  CHECK(m.library_package("libtinfo.so.5", "ubuntu", "22.04") == "libtinfo5");
  CHECK_FALSE(m.library_package("libtinfo.so.5", "ubuntu", "24.04"));  // dropped
  CHECK_FALSE(m.library_package("libtinfo.so.5", "fedora", "43"));     // no rpm name given
  CHECK_FALSE(m.library_package("libtinfo.so.6", "ubuntu", "22.04"));  // another major version
  CHECK_FALSE(m.library_package("libunknown.so.3", "ubuntu", "24.04"));
}

TEST_CASE("library_package() returns the package or null, and unknown for unknown facts", "[matrix][libraries]") {
  Loaded l = load(kLibraries);
  REQUIRE(l.errors.empty());
  std::map<std::string, Function> f;
  l.matrix.add_functions(f);
  Json facts = Json::object();
  EvalContext ctx(facts, f);
  auto call = [&](std::vector<Value> args) { return f.at("library_package").call(args, ctx); };
  CHECK(call({Value::of("libamdhip64.so.6"), Value::of("ubuntu")}).json() == "hip-runtime-amd");
  CHECK(call({Value::of("libelf.so.1"), Value::of("ubuntu"), Value::of("24.04")}).json() == "libelf1t64");
  CHECK(call({Value::of("libnothing.so.1"), Value::of("ubuntu")}).json().is_null());
  // In a condition: an unknown argument makes the call unknown.
  Vocabulary v;
  v.is_fact = [](const std::string&) { return true; };
  v.functions = &f;
  ParseError err;
  auto e = parse_expression("library_package(text.library, distro.id)", v, "", &err);
  REQUIRE(e);
  Json with = Json::parse(R"({"text": {"library": "libamdhip64.so.6"}, "distro": {"id": "ubuntu"}})");
  EvalContext c1(with, f);
  CHECK(evaluate(**e, c1).json() == "hip-runtime-amd");
  Json without = Json::parse(R"({"text": {"library": {"unknown": "no library in the text"}}, "distro": {"id": "ubuntu"}})");
  EvalContext c2(without, f);
  CHECK(evaluate(**e, c2).is_unknown());
}

TEST_CASE("a bad library entry is a load error at file:line:column", "[matrix][libraries]") {
  CHECK(load(replaced(kLibraries, "origin: amd, deb: hip", "origin: amdgpu, deb: hip")).errors ==
        std::vector<std::string>{"m/libraries.yaml:5:34: 'origin' is one of amd, distribution (not 'amdgpu')"});
  CHECK(load(replaced(kLibraries, "library: libamdhip64,", "library: libamdhip64.so.6.4,")).errors ==
        std::vector<std::string>{"m/libraries.yaml:5:13: a library is a soname stem (\"libamdhip64\") or a soname "
                                 "with its major version (\"libtinfo.so.5\"), not 'libamdhip64.so.6.4'"});
  CHECK(load(replaced(kLibraries, "library: libMIOpen,", "library: libamdhip64,")).errors ==
        std::vector<std::string>{"m/libraries.yaml:6:13: library 'libamdhip64' is given twice"});
  CHECK(load(replaced(kLibraries, "  deb: libelf1\n", "")).errors ==
        std::vector<std::string>{"m/libraries.yaml:7:3: missing 'deb'"});
  CHECK(load(replaced(kLibraries, "{distro: ubuntu, from_version: \"24.04\", package: libelf1t64}",
                      "{distro: fedora, from_version: \"24.04\", package: libelf1t64}"))
            .errors == std::vector<std::string>{"m/libraries.yaml:12:14: 'distro' is one of debian, ubuntu (not 'fedora')"});
  CHECK(load(replaced(kLibraries, "sources: [pool]}\n- {library: libMIOpen", "sources: [pol]}\n- {library: libMIOpen"))
            .errors == std::vector<std::string>{"m/libraries.yaml:5:91: unknown source 'pol' (define it under 'sources')"});
  CHECK(load(replaced(kLibraries, "  deb: libtinfo5\n", "  deb: libtinfo5\n  dep: x\n")).errors.at(0).find(
            "m/libraries.yaml:18:3: unknown key 'dep'") == 0);
}

TEST_CASE("the shipped library map loads and names the HIP runtime's package", "[matrix][libraries][shipped]") {
  std::vector<LoadError> errors;
  Matrix m = Matrix::load(files_under(embedded_rule_files(), "matrix"), errors);
  for (auto& e : errors) INFO(e.str());
  REQUIRE(errors.empty());
  CHECK(m.library_package("libamdhip64.so.6", "ubuntu", "24.04") == "hip-runtime-amd");
  CHECK(m.library_package("libnuma.so.1", "fedora", "43") == "numactl-libs");
  for (const char* stem : {"libamdhip64", "libhiprtc", "libhsa-runtime64", "librocblas", "libhipblas", "libhipblaslt",
                           "libMIOpen", "librccl", "librocsolver", "librocsparse", "libhipsparse", "librocrand",
                           "libhiprand", "librocfft", "libhipfft", "libamd_comgr", "librocm_smi64", "libamd_smi",
                           "libroctx64", "libroctracer64", "librocprofiler-register", "libhsa-amd-aqlprofile64"}) {
    INFO(stem);
    CHECK(m.library_package(std::string(stem) + ".so.1", "ubuntu", "24.04"));
  }
}

namespace {

// kLibraries with the distribution's own builds of the HIP runtime.
std::string with_own_builds(const std::string& rows) {
  return replaced(kLibraries, "- {library: libamdhip64, origin: amd, deb: hip-runtime-amd, confidence: medium, sources: [pool]}\n",
                  "- library: libamdhip64\n  origin: amd\n  deb: hip-runtime-amd\n  confidence: medium\n  sources: [pool]\n"
                  "  distribution_packages:\n" + rows);
}

const char* kOwnBuilds =
    "  - {distro: ubuntu, version: \"26.04\", package: libamdhip64-7, soname: libamdhip64.so.7, source: dpkg}\n"
    "  - {distro: ubuntu, version: \"24.04\", package: libamdhip64-5, soname: libamdhip64.so.5, source: dpkg}\n";

}  // namespace

TEST_CASE("the distribution's own build of a ROCm library, of the soname major asked for", "[matrix][libraries]") {
  Loaded l = load(with_own_builds(kOwnBuilds));
  for (auto& e : l.errors) INFO(e);
  REQUIRE(l.errors.empty());
  const auto& map = l.matrix.libraries();
  auto own = [&](const char* library, const char* distro, const char* version) {
    auto* p = distribution_package_for_library(map, library, distro, version);
    return p ? std::string(p->package) : std::string("(none)");
  };
  CHECK(own("libamdhip64.so.7", "ubuntu", "26.04") == "libamdhip64-7");
  CHECK(own("/usr/lib/x86_64-linux-gnu/libamdhip64.so.7.1.0", "ubuntu", "26.04") == "libamdhip64-7");
  CHECK(own("libamdhip64.so.5", "ubuntu", "24.04") == "libamdhip64-5");
  // Another major is not in that package: a program linked against .so.6
  // does not load Ubuntu 26.04's .so.7.
  CHECK(own("libamdhip64.so.6", "ubuntu", "26.04") == "(none)");
  // Named without a major: the package as listed.
  CHECK(own("libamdhip64.so", "ubuntu", "26.04") == "libamdhip64-7");
  // Another version, another distribution, a library without own builds.
  CHECK(own("libamdhip64.so.7", "ubuntu", "25.10") == "(none)");
  CHECK(own("libamdhip64.so.7", "debian", "26.04") == "(none)");
  CHECK(own("libMIOpen.so.1", "ubuntu", "26.04") == "(none)");
  CHECK(own("libamdhip64.so.7", "ubuntu", "") == "(none)");

  // In a condition: null where there is none, the package where there is.
  std::map<std::string, Function> f;
  l.matrix.add_functions(f);
  Json facts = Json::object();
  EvalContext ctx(facts, f);
  auto call = [&](std::vector<Value> args) { return f.at("distribution_library_package").call(args, ctx); };
  CHECK(call({Value::of("libamdhip64.so.7"), Value::of("ubuntu"), Value::of("26.04")}).json() == "libamdhip64-7");
  CHECK(call({Value::of("libamdhip64.so.6"), Value::of("ubuntu"), Value::of("26.04")}).json().is_null());
  // Arch has no VERSION_ID: null, not an error.
  CHECK(call({Value::of("libamdhip64.so.7"), Value::of("arch"), Value::of(Json(nullptr))}).json().is_null());
}

TEST_CASE("a bad distribution package is a load error at file:line:column", "[matrix][libraries]") {
  // Line 10 is the first row of the block with_own_builds writes.
  std::string bad_soname = with_own_builds(
      "  - {distro: ubuntu, version: \"26.04\", package: libamdhip64-7, soname: libhip64.so.7, source: dpkg}\n");
  CHECK(load(bad_soname).errors ==
        std::vector<std::string>{"m/libraries.yaml:11:72: soname 'libhip64.so.7' is not libamdhip64.so.<major>"});
  CHECK(load(with_own_builds("  - {distro: ubuntu, version: \"26.04\", package: libamdhip64-7, soname: libamdhip64.so, "
                             "source: dpkg}\n"))
            .errors.size() == 1);
  CHECK(load(with_own_builds("  - {distro: ubuntu, version: \"26.04\", package: libamdhip64-7, soname: libamdhip64.so.7, "
                             "source: launchpad}\n"))
            .errors == std::vector<std::string>{"m/libraries.yaml:11:98: unknown source 'launchpad' (define it under 'sources')"});
  CHECK(load(with_own_builds("  - {distro: fedora, version: \"43\", package: rocm-hip, soname: libamdhip64.so.6, source: dpkg}\n"))
            .errors == std::vector<std::string>{"m/libraries.yaml:11:14: 'distro' is one of debian, ubuntu (not 'fedora')"});
  // For ROCm's own libraries only.
  std::string on_system_library = replaced(
      kLibraries, "  deb: libelf1\n",
      "  deb: libelf1\n  distribution_packages:\n  - {distro: ubuntu, version: \"24.04\", package: libelf1t64, soname: "
      "libelf.so.1, source: dpkg}\n");
  auto errors = load(on_system_library).errors;
  REQUIRE(!errors.empty());
  CHECK(errors[0].find("distribution_packages are for ROCm's own libraries (origin amd)") != std::string::npos);
}

TEST_CASE("the shipped map's own builds: Ubuntu 26.04's HIP runtime is libamdhip64-7", "[matrix][libraries][shipped]") {
  std::vector<LoadError> errors;
  Matrix m = Matrix::load(files_under(embedded_rule_files(), "matrix"), errors);
  REQUIRE(errors.empty());
  auto* p = distribution_package_for_library(m.libraries(), "libamdhip64.so.7", "ubuntu", "26.04");
  REQUIRE(p);
  CHECK(p->package == "libamdhip64-7");
  CHECK_FALSE(distribution_package_for_library(m.libraries(), "libamdhip64.so.6", "ubuntu", "26.04"));
}
