// rocmdoc check / rules as a user runs them: exit codes, files, output.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "catch.h"
#include "base/fact.h"
#include "base/text.h"
#include "platform/process_runner.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;
namespace fs = std::filesystem;

namespace {
fs::path scratch(const std::string& name) {
  fs::path p = fs::temp_directory_path() / ("rocmdoc-cli-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}
void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}
}  // namespace

TEST_CASE("the built-in rules lint clean and their examples hold", "[cli][rules]") {
  auto lint = run_rocmdoc({"rules", "lint"});
  INFO(lint.err);
  CHECK(lint.exit_code == 0);
  auto test = run_rocmdoc({"rules", "test"});
  INFO(test.err);
  CHECK(test.exit_code == 0);
  CHECK(test.out.find(" passed, 0 failed") != std::string::npos);
}

TEST_CASE("a broken rule file stops everything with file:line:column and exit 2", "[cli][rules]") {
  fs::path dir = scratch("badrules");
  fs::copy(source_path("rules/matrix"), dir / "matrix");
  write(dir / "catalogue/bad.yaml",
        "problems:\n  - id: x\n    area: gpu\n    severity: error\n    when: gpus.gfxx == 'a'\n    title: t\n    why: w\n"
        "    fix: {steps: [{text: t}]}\n    sources: [s]\n    examples: []\n");
  auto lint = run_rocmdoc({"rules", "lint", dir.string()});
  CHECK(lint.exit_code == 2);
  CHECK(lint.err.find("/catalogue/bad.yaml:5:11: in condition: unknown fact 'gpus.gfxx'") != std::string::npos);
  auto check = run_rocmdoc({"check", "--rules", dir.string(), "--root", machine_root("ubuntu2404-rx7900xtx")});
  CHECK(check.exit_code == 2);
  CHECK(check.out.empty());  // nothing else ran
  write(dir / "catalogue/bad.yaml", "problems:\n  - id: x\n    area: [gpu\n");
  auto syntax = run_rocmdoc({"rules", "lint", dir.string()});
  CHECK(syntax.exit_code == 2);
  CHECK(syntax.err.find("bad.yaml:4:1: YAML syntax error") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("rules lint requires a summary of a problem whose title names a fact", "[cli][rules]") {
  fs::path dir = scratch("nosummary");
  fs::copy(source_path("rules/matrix"), dir / "matrix");
  std::string problem =
      "problems:\n  - id: odd-kernel\n    area: driver\n    severity: warning\n"
      "    when: kernel.release == '6.0.0-odd'\n    title: 'Kernel {kernel.release} is odd'\n";
  std::string rest =
      "    why: w\n    fix: {steps: [{text: t}]}\n    sources: [s]\n    examples:\n"
      "      - {name: odd, facts: {kernel: {release: 6.0.0-odd}}, expect: fire}\n"
      "      - {name: even, facts: {kernel: {release: 6.8.0}}, expect: pass}\n";
  write(dir / "catalogue/odd.yaml", problem + rest);
  auto lint = run_rocmdoc({"rules", "lint", dir.string()});
  INFO(lint.err);
  CHECK(lint.exit_code == 2);
  CHECK(lint.err.find("/catalogue/odd.yaml:2:5: problem 'odd-kernel' needs a summary: its title names facts "
                      "({kernel.release}), and the summary is what explain shows when they are not known") !=
        std::string::npos);
  // The same problem with a summary lints clean.
  write(dir / "catalogue/odd.yaml", problem + "    summary: 'The kernel is odd'\n" + rest);
  auto fixed = run_rocmdoc({"rules", "lint", dir.string()});
  INFO(fixed.err);
  CHECK(fixed.exit_code == 0);
  fs::remove_all(dir);
}

// rules test counts each example as what it belongs to: a symptom's
// not_here examples are neither a problem's nor a signature's, and a
// failing one is named as the symptom's.
TEST_CASE("rules test counts a symptom's not_here examples apart from the problems'", "[cli][rules]") {
  fs::path dir = scratch("nothere");
  fs::copy(source_path("rules/matrix"), dir / "matrix");
  write(dir / "catalogue/t.yaml",
        "symptoms:\n  - id: odd-symptom\n    title: t\n    signals: [{signature: sig, weight: 1}]\n"
        "    problems: [odd-kernel]\n    not_here:\n      when: amdgpu.module.loaded == true\n"
        "      says: amdgpu is loaded\n      examples:\n"
        "        - {name: loaded, facts: {amdgpu: {module: {loaded: true}}}, expect: fire}\n"
        "        - {name: not loaded, facts: {amdgpu: {module: {loaded: false}}}, expect: pass}\n"
        "        - {name: wrongly held, facts: {amdgpu: {module: {loaded: false}}}, expect: fire}\n"
        "signatures:\n  - id: sig\n    pattern: 'x'\n    examples: {match: [x], no_match: [y]}\n"
        "problems:\n  - id: odd-kernel\n    area: driver\n    severity: warning\n"
        "    when: kernel.release == '6.0.0-odd'\n    title: The kernel is odd\n"
        "    why: w\n    fix: {steps: [{text: t}]}\n    sources: [s]\n    examples:\n"
        "      - {name: odd, facts: {kernel: {release: 6.0.0-odd}}, expect: fire}\n"
        "      - {name: even, facts: {kernel: {release: 6.8.0}}, expect: pass}\n");
  auto test = run_rocmdoc({"rules", "test", dir.string()});
  INFO(test.out << test.err);
  CHECK(test.exit_code == 1);
  CHECK(test.out == "6 passed, 1 failed (2 problem, 3 not_here, 2 signature and 0 fragment examples)\n");
  CHECK(test.err.find(": symptom 'odd-symptom', not_here example 'wrongly held': expected fire, got pass") !=
        std::string::npos);
  CHECK(test.err.find("problem 'odd-symptom'") == std::string::npos);
  fs::remove_all(dir);
}

// A fragment's misuse stops every command like any rule error; its
// examples are counted apart and a failing one is named with its line.
TEST_CASE("fragments: an unknown one is exit 2 with file:line, their examples run in rules test", "[cli][rules]") {
  fs::path dir = scratch("fragments");
  fs::copy(source_path("rules/matrix"), dir / "matrix");
  std::string fragment =
      "fragments:\n  - fragment: in_sentence\n    pattern: '[^.\\n]|\\.[0-9A-Za-z]'\n"
      "    examples: {match: ['ROCm 6.2 on mok.pub', 'it hangs. Then'], no_match: ['(see above.) next']}\n";
  std::string signature = "signatures:\n  - id: gap\n    pattern: 'gpu(?&in_sentense){0,20}?\\bhangs'\n"
                          "    examples: {match: ['gpu 6.2 hangs'], no_match: ['gpu. It hangs']}\n";
  write(dir / "catalogue/t.yaml", fragment + signature);
  auto lint = run_rocmdoc({"rules", "lint", dir.string()});
  CHECK(lint.exit_code == 2);
  CHECK(lint.err.find("/catalogue/t.yaml:7:14: unknown fragment 'in_sentense'") != std::string::npos);
  CHECK(run_rocmdoc({"explain", "--no-probe", "--rules", dir.string(), "gpu hangs"}).exit_code == 2);
  signature.replace(signature.find("in_sentense"), 11, "in_sentence");
  write(dir / "catalogue/t.yaml", fragment + signature);
  auto test = run_rocmdoc({"rules", "test", dir.string()});
  INFO(test.out << test.err);
  CHECK(test.exit_code == 1);
  CHECK(test.out == "4 passed, 1 failed (0 problem, 0 not_here, 2 signature and 3 fragment examples)\n");
  CHECK(test.err.find("/catalogue/t.yaml:4:47: fragment 'in_sentence': does not match 'it hangs. Then'") !=
        std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("check diagnoses a saved facts file like the machine it came from", "[cli][check]") {
  fs::path dir = scratch("facts");
  std::string facts_file = (dir / "facts.json").string();
  REQUIRE(run_rocmdoc({"facts", "--root", machine_root("user-not-in-render"), "-o", facts_file}).exit_code == 0);
  auto from_root = run_rocmdoc({"check", "--json", "--root", machine_root("user-not-in-render")});
  auto from_file = run_rocmdoc({"check", "--json", "--facts", facts_file});
  REQUIRE(from_file.exit_code == from_root.exit_code);
  Json a = Json::parse(from_root.out), b = Json::parse(from_file.out);
  CHECK(a["findings"].dump() == b["findings"].dump());
  CHECK(a["schema"] == 1);
  fs::remove_all(dir);
}

TEST_CASE("check refuses bad input with exit 2 and says what and where", "[cli][check]") {
  fs::path dir = scratch("badfacts");
  write(dir / "facts.json", "{\"schema\": 7}");
  auto wrong_schema = run_rocmdoc({"check", "--facts", (dir / "facts.json").string()});
  CHECK(wrong_schema.exit_code == 2);
  CHECK(wrong_schema.err.find("facts.json: facts schema 7 is not supported") != std::string::npos);
  write(dir / "facts.json", "{not json");
  CHECK(run_rocmdoc({"check", "--facts", (dir / "facts.json").string()}).exit_code == 2);
  auto missing_root = run_rocmdoc({"check", "--root", (dir / "nope").string()});
  CHECK(missing_root.exit_code == 2);
  CHECK(missing_root.err.find("nope: no such directory") != std::string::npos);
  CHECK(run_rocmdoc({"check", "--rocm", "9.9.9", "--root", machine_root("ubuntu2404-rx7900xtx")}).exit_code == 2);
  CHECK(run_rocmdoc({"check", "--bogus"}).exit_code == 2);
  fs::remove_all(dir);
}

TEST_CASE("check --rocm takes a series for its newest point release, as AMD names its lines", "[cli][check]") {
  auto series = run_rocmdoc({"check", "--json", "--rocm", "10.1", "--root", machine_root("ubuntu2404-rx7900xtx")});
  REQUIRE(series.exit_code != 2);
  Json report = Json::parse(series.out);
  CHECK(report["target"]["rocm"] == "10.1.0");
  CHECK(report["target"]["chosen_by"] == "--rocm");
  // A prefix that is no series is no release: "10" is not 10.1.0.
  CHECK(run_rocmdoc({"check", "--rocm", "10", "--root", machine_root("ubuntu2404-rx7900xtx")}).exit_code == 2);
}

TEST_CASE("check output has no colour codes off a terminal", "[cli][check]") {
  auto r = run_rocmdoc({"check", "--root", machine_root("user-not-in-render")});
  CHECK(r.out.find("\033[") == std::string::npos);
  CHECK(r.out.find("[") == 0);  // starts with an area line
}

// hostile-input D16: output sent to a full disk was cut short, and the
// exit status still said success.
TEST_CASE("a command whose standard output cannot be written exits 2 and says so", "[cli][hostile]") {
  for (std::string command : {"facts", "check --json"}) {
    SystemProcessRunner runner;
    auto r = runner.run({"bash", "-c", std::string("exec \"$0\" ") + command + " --root \"$1\" > /dev/full", ROCMDOC_BINARY,
                         machine_root("ubuntu2404-rx7900xtx")},
                        std::chrono::seconds(60));
    INFO(command << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("cannot write to standard output") != std::string::npos);
  }
}


TEST_CASE("places that share a fix are one finding in check's text", "[cli][check]") {
  auto r = run_rocmdoc({"check", "--root", machine_root("user-not-in-render")});
  INFO(r.out);
  CHECK(r.out.find("✗ device-node-not-accessible: alex cannot open /dev/kfd") != std::string::npos);
  CHECK(r.out.find("      also: alex cannot open /dev/dri/renderD128") != std::string::npos);
  // One usermod, not one per device node.
  size_t first = r.out.find("$ sudo usermod -aG render alex");
  REQUIRE(first != std::string::npos);
  CHECK(r.out.find("$ sudo usermod -aG render alex", first + 1) == std::string::npos);
  // JSON has the same one finding, with the render node as a place of its own.
  auto j = run_rocmdoc({"check", "--json", "--root", machine_root("user-not-in-render")});
  Json doc = Json::parse(j.out);
  size_t found = 0;
  for (auto& f : doc["findings"])
    if (f["id"] == "device-node-not-accessible") {
      ++found;
      CHECK(f["title"] == "alex cannot open /dev/kfd (owner root, group render, mode 0660)");
      REQUIRE(f["also"].size() == 1);
      CHECK(f["also"][0]["title"] == "alex cannot open /dev/dri/renderD128 (owner root, group render, mode 0660)");
      CHECK(f["also"][0]["evidence"]["it.mode"] == "0660");
    }
  CHECK(found == 1);
}

// A kernel-log finding shows the line it rests on without -v, and only the
// lines of the signatures its own condition names.
TEST_CASE("a kernel-log finding shows its first matched line without -v", "[cli][check]") {
  auto r = run_rocmdoc({"check", "--root", machine_root("laptop-780m-dgpu")});
  INFO(r.out);
  size_t cs = r.out.find("amdgpu-command-submission-failed:");
  size_t hang = r.out.find("gpu-hang-mes-timeout:");
  REQUIRE(cs != std::string::npos);
  REQUIRE(hang != std::string::npos);
  const std::string parser = "      log: [ 8314.402779] [drm:amdgpu_cs_ioctl [amdgpu]] *ERROR* Failed to initialize parser -125!\n";
  const std::string mes = "      log: [ 8312.524118] amdgpu 0000:c5:00.0: amdgpu: MES failed to respond to msg=REMOVE_QUEUE "
                          "(and 1 more like it; -v shows more)\n";
  size_t parser_at = r.out.find(parser), mes_at = r.out.find(mes);
  REQUIRE(parser_at != std::string::npos);
  REQUIRE(mes_at != std::string::npos);
  // Each under its own finding: the parser line is not repeated under the hang.
  CHECK(r.out.find(parser, parser_at + 1) == std::string::npos);
  // The parser line under amdgpu-command-submission-failed, the MES line under gpu-hang-mes-timeout.
  if (cs < hang) CHECK((parser_at > cs && parser_at < hang && mes_at > hang));
  else CHECK((mes_at > hang && mes_at < cs && parser_at > cs));
}

TEST_CASE("check -v shows each AMD GPU's power cap, clocks, temperatures and throttle status", "[cli][check][power]") {
  auto v = run_rocmdoc({"check", "-v", "--root", machine_root("ubuntu2404-rx7900xtx")});
  CHECK(v.exit_code == 0);
  CHECK(v.out.find("power 0000:03:00.0: cap 327 W (default 327 W, max 402 W), sclk 500 MHz, mclk 96 MHz, edge 36 °C "
                   "(crit 100 °C), junction 41 °C (crit 110 °C), mem 48 °C (crit 108 °C), not throttling") != std::string::npos);
  auto plain = run_rocmdoc({"check", "--root", machine_root("ubuntu2404-rx7900xtx")});
  CHECK(plain.out.find("power 0000:03:00.0") == std::string::npos);  // only with -v
  // Without hwmon (the recorded container has none): the reason, not "?".
  auto container = run_rocmdoc({"check", "-v", "--root", machine_root("mi300x-container")});
  CHECK(container.out.find("power 0000:03:00.0: cap and temperatures unknown (") != std::string::npos);
  CHECK(container.out.find("? ?") == std::string::npos);
}

TEST_CASE("check's summary counts a finding with several places once", "[cli][check]") {
  auto r = run_rocmdoc({"check", "--root", machine_root("user-not-in-render")});
  INFO(r.out);
  CHECK(r.exit_code == 1);
  // One block for /dev/kfd and the render node, so one problem, as shown.
  CHECK(r.out.find("• 1 problem (1 error, 0 warnings)") != std::string::npos);
  // JSON and report count it once too: every output says the same number.
  Json doc = Json::parse(run_rocmdoc({"check", "--json", "--root", machine_root("user-not-in-render")}).out);
  CHECK(doc["summary"]["errors"] == 1);
  auto report = run_rocmdoc({"report", "--root", machine_root("user-not-in-render")});
  INFO(report.out);
  CHECK(report.out.find(": 1 error, 0 warnings,") != std::string::npos);
  CHECK(report.out.find("device-node-not-accessible: user cannot open /dev/dri/renderD128") == std::string::npos);
  CHECK(report.out.find("also: user cannot open /dev/dri/renderD128") != std::string::npos);
  // -v gives each place's evidence under the one finding, by place.
  auto v = run_rocmdoc({"check", "-v", "--root", machine_root("user-not-in-render")});
  INFO(v.out);
  size_t kfd = v.out.find("      evidence for \"alex cannot open /dev/kfd (owner root, group render, mode 0660)\":\n"
                          "        it.can_open_rw = ");
  size_t render = v.out.find("      evidence for \"alex cannot open /dev/dri/renderD128 (owner root, group render, mode 0660)\":\n"
                             "        it.can_open_rw = ");
  CHECK(kfd != std::string::npos);
  CHECK(render != std::string::npos);
  CHECK(kfd < render);
}

TEST_CASE("check -q prints only the problems and the summary line", "[cli][check]") {
  std::string root = machine_root("user-not-in-render");
  auto q = run_rocmdoc({"check", "-q", "--root", root});
  INFO(q.out);
  CHECK(q.exit_code == 1);
  auto lines = split_lines(q.out);
  REQUIRE(lines.size() >= 3);
  CHECK(lines[0] == "[✗] Access");
  CHECK(lines[1].find("    ✗ device-node-not-accessible: alex cannot open /dev/kfd") == 0);
  CHECK(q.out.find("$ sudo usermod -aG render alex") != std::string::npos);
  CHECK(lines.back().find("• 1 problem (1 error, 0 warnings)") == 0);
  // Not the areas without a problem, not the infos under them.
  CHECK(q.out.find("[✓] System") == std::string::npos);
  CHECK(q.out.find("[?] GPU") == std::string::npos);
  CHECK(q.out.find("rocm-older-than-target") == std::string::npos);
  CHECK(q.out.find("distro-listed-by-amd") == std::string::npos);
  // The exit code is check's: -q hides nothing from a script.
  auto full = run_rocmdoc({"check", "--root", root});
  CHECK(full.exit_code == q.exit_code);
  CHECK(split_lines(full.out).back() == lines.back());
  // Nothing wrong: the summary alone.
  auto healthy = run_rocmdoc({"check", "--quiet", "--root", machine_root("ubuntu2404-rx7900xtx")});
  CHECK(healthy.exit_code == 0);
  CHECK(healthy.out.rfind("• No problems found", 0) == 0);
  CHECK(split_lines(healthy.out).size() == 1);
  // -q and -v, or -q with another format, say what is wrong.
  auto both = run_rocmdoc({"check", "-q", "-v", "--root", root});
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("excludes") != std::string::npos);
  auto json = run_rocmdoc({"check", "-q", "--json", "--root", root});
  CHECK(json.exit_code == 2);
  CHECK(json.err.find("--quiet shortens the text report") != std::string::npos);
}

TEST_CASE("check says where ROCm's data is unconfirmed in a phrase, and -v says why", "[cli][check]") {
  std::string root = machine_root("ubuntu2404-rx7900xtx");
  auto r = run_rocmdoc({"check", "--root", root});
  INFO(r.out);
  std::string rocm_line;
  for (auto& line : split_lines(r.out))
    if (line.rfind("[✓] ROCm", 0) == 0) rocm_line = line;
  CHECK(rocm_line == "[✓] ROCm — checked against ROCm 6.4.1 (installed); data unconfirmed; -v says why");
  auto v = run_rocmdoc({"check", "-v", "--root", root});
  CHECK(v.out.find("[✓] ROCm — checked against ROCm 6.4.1 (installed); data unconfirmed\n"
                   "    data: the matrix marks ROCm 6.4.1 unconfirmed: ") != std::string::npos);
  // A release the matrix does not know: the same, in its words.
  ScratchDir dir;
  Json facts = facts_for_root(root);
  facts["rocm"]["installs"][0]["version"] = "6.4.9";
  std::string facts_file = (dir.path / "facts.json").string();
  std::ofstream(facts_file) << facts.dump();
  auto unknown = run_rocmdoc({"check", "--facts", facts_file});
  INFO(unknown.out);
  CHECK(unknown.out.find("checked against ROCm 6.4.9 (installed); release not in the matrix; -v says why") !=
        std::string::npos);
  auto unknown_v = run_rocmdoc({"check", "-v", "--facts", facts_file});
  CHECK(unknown_v.out.find("    data: rocmdoc's matrix (as of ") != std::string::npos);
  CHECK(unknown_v.out.find(") does not know ROCm 6.4.9, so the checks that need its lists could not run") !=
        std::string::npos);
}

TEST_CASE("the ROCm line names the distribution's own ROCm where AMD's is not installed", "[cli][check]") {
  auto rocm_line = [](const std::string& out) {
    for (auto& line : split_lines(out))
      if (line.find("] ROCm — ") != std::string::npos) return line;
    return std::string();
  };
  // Fedora's own ROCm 6.4.2, and no AMD release lists the GPU there.
  auto fedora = run_rocmdoc({"check", "--root", machine_root("fedora43-distro-rocm")});
  INFO(fedora.out);
  CHECK(rocm_line(fedora.out).find("] ROCm — the distribution's ROCm 6.4.2 installed (AMD's lists do not cover it); "
                                   "no target release: ") != std::string::npos);
  // Ubuntu 26.04's own ROCm next to a target AMD lists: the target is AMD's.
  ScratchDir dir;
  Json facts = facts_for_root(machine_root("ubuntu2604-rx7900xtx"));
  facts["rocm"]["packages"] = Json::array({Json{{"name", "libamdhip64-7"}, {"version", "7.1.0-0ubuntu2"}, {"origin", "distro"}}});
  facts["rocm"]["distro_release"] = Json{{"release", "7.1.0"}, {"package", "libamdhip64-7"}, {"version", "7.1.0-0ubuntu2"}};
  std::string facts_file = (dir.path / "facts.json").string();
  std::ofstream(facts_file) << facts.dump();
  auto ubuntu = run_rocmdoc({"check", "--facts", facts_file});
  INFO(ubuntu.out);
  CHECK(rocm_line(ubuntu.out).find("] ROCm — the distribution's ROCm 7.1.0 installed (AMD's lists do not cover it); "
                                   "checked against AMD's ROCm 10.1.0") != std::string::npos);
  // With AMD's ROCm installed, the line is about it alone.
  auto amd = run_rocmdoc({"check", "--root", machine_root("ubuntu2404-rx7900xtx")});
  CHECK(rocm_line(amd.out).find("distribution's ROCm") == std::string::npos);
}

TEST_CASE("with no AMD GPU the areas about one are not applicable, not passed", "[cli][check]") {
  auto r = run_rocmdoc({"check", "--root", machine_root("debian12-vm-distro-rocm")});
  INFO(r.out);
  CHECK(r.out.find("[✗] GPU — no AMD GPU") != std::string::npos);
  for (const char* area : {"Driver", "Access", "Firmware & PCIe", "ROCm", "Python & PyTorch"})
    CHECK(r.out.find(std::string("[–] ") + area + " — not applicable: no AMD GPU") != std::string::npos);
  CHECK(r.out.find("[✓] Firmware") == std::string::npos);
  CHECK(r.out.find("[✓] System") != std::string::npos);  // the system is checked all the same
  // What it found is still said: the distribution's own ROCm packages.
  CHECK(r.out.find("distro-rocm-installed") != std::string::npos);
  // A machine with an AMD GPU is unchanged.
  auto gpu = run_rocmdoc({"check", "--root", machine_root("ubuntu2404-rx7900xtx")});
  CHECK(gpu.out.find("[✓] Firmware & PCIe") != std::string::npos);
  CHECK(gpu.out.find("[–]") == std::string::npos);
}
