// No output a user reads on a recorded machine shows a placeholder left
// unfilled: "use ROCm <newest_for_gpu>" reads as a blank to fill in, not as a
// fact the machine did not give. A rule's {fact} whose value is unknown
// prints as what is missing ("(newest for gpu not known)"), and a fix step
// that cannot read right without it has a second step for the fact unknown
// (docs/explain.md). This runs check, install's plans and explain (on each
// machine, on the same facts from a file, and on the text alone) and looks for
// "<word>" anywhere in what they print.
#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include "catch.h"
#include "facts/facts_schema.h"
#include "rules/expression.h"
#include "rules/knowledge.h"
#include "test_support.h"

using namespace rocmdoc::test;

namespace {

// The rules' own text: a "<word>" a rule's author wrote into a command for
// the reader to complete ("rocm-smi --gpureset -d <n>", "rocm-rel-<version>/")
// is the rule's wording, not a fact left unfilled; the test looks for it, with
// the characters before it, in the rule files. A placeholder is "{fact}" there,
// so no unfilled one can match.
const std::string& rules_text() {
  static const std::string text = [] {
    std::string all;
    for (const char* dir : {"rules/catalogue", "rules/install"})
      for (auto& e : std::filesystem::directory_iterator(source_path(dir)))
        if (e.path().extension() == ".yaml") all += read_text_file(e.path()) + "\n";
    return all;
  }();
  return text;
}

// The name of every blank the rules can leave: for each placeholder of the
// catalogue's problems, the word the engine names it by when the fact is
// unknown (rule_engine.cpp: fact_blank_word(blank_subject(call)) or the
// path's), read from the loaded templates rather than the YAML's text, so a
// call or a path the test would parse differently cannot hide a leftover.
// Install's recipes (rules/install) have their own placeholders, one word
// each ("{kernel}"), filled by the install planner: those are their names.
void add_blanks(const rocmdoc::Template& t, std::set<std::string>& out) {
  for (size_t i = 0; i < t.placeholders.size(); ++i) {
    const rocmdoc::ExprPtr& call = i < t.calls.size() ? t.calls[i] : nullptr;
    out.insert(rocmdoc::fact_blank_word(call ? rocmdoc::blank_subject(*call) : t.placeholders[i]));
  }
}

void add_blanks(const rocmdoc::FixStep& step, std::set<std::string>& out) {
  add_blanks(step.text, out);
  for (auto& a : step.argv) add_blanks(a, out);
}

const std::set<std::string>& placeholder_leaves() {
  static const std::set<std::string> leaves = [] {
    std::set<std::string> out;
    rocmdoc::RuleSources sources;
    sources.rules_dir = source_path("rules");
    sources.local_rules_dir.clear();
    rocmdoc::Knowledge knowledge = rocmdoc::load_knowledge(sources);
    REQUIRE(knowledge.errors.empty());
    for (auto& p : knowledge.catalogue.problems) {
      add_blanks(p.rule.title, out);
      add_blanks(p.rule.why, out);
      for (auto& step : p.rule.fix.steps) add_blanks(step, out);
      for (auto& v : p.rule.fix.verify) add_blanks(v, out);
      for (auto& step : p.confirm) add_blanks(step, out);
    }
    REQUIRE(out.count("gfx"));  // the test reads what it means to
    static const std::regex recipe_placeholder("\\{([a-z_]+)\\}");
    for (auto& e : std::filesystem::directory_iterator(source_path("rules/install"))) {
      if (e.path().extension() != ".yaml") continue;
      std::string text = read_text_file(e.path());
      for (auto it = std::sregex_iterator(text.begin(), text.end(), recipe_placeholder); it != std::sregex_iterator(); ++it)
        out.insert((*it)[1].str());
    }
    return out;
  }();
  return leaves;
}

// In a command the reader completes, an unknown fact is a blank on purpose
// ("-DAMDGPU_TARGETS=<gfx>", "$ id <sudo_user>"): right after "=",
// on a text line's "$ " command, or as a whole element of a JSON argv list
// (a line that is one string). Only a blank named for a placeholder of the
// rules counts; a sentence's leftover ("use ROCm <newest_for_gpu>") is none
// of these.
bool blank_in_command(const std::string& out, size_t at, const std::string& word) {
  if (!placeholder_leaves().count(word.substr(1, word.size() - 2))) return false;
  if (at > 0 && out[at - 1] == '=') return true;
  size_t line_start = out.rfind('\n', at);
  line_start = line_start == std::string::npos ? 0 : line_start + 1;
  size_t line_end = out.find('\n', at);
  std::string line = out.substr(line_start, (line_end == std::string::npos ? out.size() : line_end) - line_start);
  if (line.find("$ ") != std::string::npos && line.find("$ ") < at - line_start) return true;
  static const std::regex json_element(R"(^\s*"[^"]*",?\s*$)");
  return std::regex_match(line, json_element);
}

// The "<word>" tokens in `out` (with up to 40 characters before each), but
// those the input (explain quotes a log's lines as evidence) or the rules'
// own wording explains.
std::vector<std::string> leftovers(const std::string& out, const std::string& input) {
  static const std::regex token("<[a-z][a-z_]*>");
  std::vector<std::string> found;
  for (auto it = std::sregex_iterator(out.begin(), out.end(), token); it != std::sregex_iterator(); ++it) {
    std::string word = it->str();
    size_t at = static_cast<size_t>(it->position());
    if (input.find(word) != std::string::npos) continue;
    // The token with the 12 characters before it (fewer at a line's start).
    size_t from12 = at >= 12 ? at - 12 : 0;
    std::string with_context = out.substr(from12, at - from12 + word.size());
    size_t nl = with_context.find_last_of("\n\"");
    if (nl != std::string::npos && nl < at - from12) with_context = with_context.substr(nl + 1);
    if (rules_text().find(with_context) != std::string::npos) continue;
    // After a value ("HSA_OVERRIDE_GFX_VERSION=10.3.0 <app>") the characters
    // before it are the machine's: then the word itself must be one the rules
    // write literally and no placeholder of theirs ends in.
    if (rules_text().find(word) != std::string::npos && !placeholder_leaves().count(word.substr(1, word.size() - 2)))
      continue;
    if (word == "<details>" || word == "<summary>" || word == "<code>") continue;  // report's markup
    if (blank_in_command(out, at, word)) continue;
    size_t from = at >= 40 ? at - 40 : 0;
    found.push_back(out.substr(from, at - from + word.size()));
  }
  return found;
}

// The "(x not known)" words explain puts in a sentence for a fact it could
// not fill (rule_engine.cpp): where the rules can say it in words instead
// ({default(x, "...")}) or leave a step out (`when: known(x)`), they must.
std::vector<std::string> unknown_words(const std::string& out, const std::string& input) {
  // A name keeps its capitals and digits where it is a variable's
  // ("(HSA_OVERRIDE_GFX_VERSION not known)").
  static const std::regex words(R"(\([A-Za-z0-9_][A-Za-z0-9_ .\[\]]* not known\))");
  std::vector<std::string> found;
  for (auto it = std::sregex_iterator(out.begin(), out.end(), words); it != std::sregex_iterator(); ++it) {
    if (input.find(it->str()) != std::string::npos) continue;
    size_t at = static_cast<size_t>(it->position());
    size_t from = at >= 60 ? at - 60 : 0;
    found.push_back(out.substr(from, at - from + it->str().size()));
  }
  return found;
}

void expect_none(const std::string& what, const CliRun& run, const std::string& input = "") {
  INFO(what << " (exit " << run.exit_code << ")");
  for (auto& stream : {run.out, run.err}) {
    auto left = leftovers(stream, input);
    for (auto& l : left) FAIL_CHECK("unfilled placeholder: ..." << l);
    for (auto& w : unknown_words(stream, input)) FAIL_CHECK("a fact named as not known: ..." << w);
  }
}

// Errors of each kind (a symptom, a missing code object, a permission, a
// fault, plain words) and logs from the corpus.
const std::vector<std::string> kTexts = {
    "RuntimeError: No HIP GPUs are available",
    "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!",
    "Unable to open /dev/kfd read-write: Permission denied",
    "torch.cuda.is_available() is False",
    "Memory access fault by GPU node-1 (Agent handle: 0x55d0c8a0) on address 0x7f1c. Reason: Page not present or supervisor privilege.",
    "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory for GPU arch : gfx1031",
    "ImportError: libamdhip64.so.6: cannot open shared object file: No such file or directory",
    "amdgpu 0000:03:00.0: amdgpu: Fatal error during GPU init",
    "rocmdoc check under sudo: rocminfo only works with sudo",
};

std::vector<std::string> corpus_logs() {
  std::vector<std::string> logs;
  for (auto& e : std::filesystem::directory_iterator(source_path("tests/explain/corpus")))
    if (e.path().extension() == ".log") logs.push_back(e.path().string());
  std::sort(logs.begin(), logs.end());
  std::vector<std::string> some;  // every 12th: several kinds of program, a bounded run time
  for (size_t i = 0; i < logs.size(); i += 12) some.push_back(logs[i]);
  return some;
}

}  // namespace

// Several test cases, so each stays within the suite's per-test time under
// AddressSanitizer: what check, install, fix and report print, and what
// explain prints (every candidate, without a machine and on each third of
// the machines).
TEST_CASE("no check, install, fix or report output on a recorded machine shows an unfilled <placeholder> or a \"(fact not known)\"", "[placeholders]") {
  CHECK(leftovers("use ROCm <newest_for_gpu>, the newest", "").size() == 1);
  CHECK(leftovers("For <gfx> users report <value> (<outcome>: <caveats>)", "").size() == 4);
  CHECK(leftovers("repo.radeon.com/rocm/manylinux/rocm-rel-<version>/, per", "").empty());  // access.yaml's own wording
  CHECK(leftovers("a log's <frozen importlib> line", "<frozen importlib>").empty());
  // A blank in a command is one on purpose; the same word in a sentence is not.
  CHECK(leftovers("a source build with -DAMDGPU_TARGETS=<gfx>", "").empty());
  CHECK(leftovers("    check: $ id <sudo_user>\n", "").empty());
  CHECK(leftovers("        \"<sudo_user>\",\n", "").empty());
  CHECK(leftovers("The GPU's target <gfx> is not in the ROCm binaries", "").size() == 1);
  CHECK(leftovers("  \"title\": \"The GPU's target <gfx> is not\",\n", "").size() == 1);
  CHECK(unknown_words("Install ROCm (newest for gpu not known) or", "").size() == 1);
  CHECK(unknown_words("set it to (HSA_OVERRIDE_GFX_VERSION not known)", "").size() == 1);
  CHECK(unknown_words("a pasted (gfx not known) line", "a pasted (gfx not known) line").empty());

  auto machines = fixture_machines();
  for (size_t i = 0; i < machines.size(); ++i) {
    if (!in_sweep_sample(i, 1)) continue;  // all in the plain build (test_support.h)
    const std::string& machine = machines[i];
    std::string root = machine_root(machine);
    DYNAMIC_SECTION(machine) {
      expect_none("check", run_rocmdoc({"check", "--root", root, "-v"}));
      expect_none("check --json", run_rocmdoc({"check", "--root", root, "--json"}));
      expect_none("install", run_rocmdoc({"install", "--auto", "--dry-run", "--root", root}));
      expect_none("install --json", run_rocmdoc({"install", "--auto", "--dry-run", "--json", "--root", root}));
      expect_none("install --from distro", run_rocmdoc({"install", "--auto", "--dry-run", "--from", "distro", "--root", root}));
      expect_none("fix", run_rocmdoc({"fix", "--dry-run", "--root", root}));
      expect_none("report", run_rocmdoc({"report", "--root", root}));
    }
  }
}

// explain on every third machine (part 0, 1 or 2): three test cases, so
// each stays within the per-test time under AddressSanitizer.
static void explain_on_machines(size_t part) {
  auto logs = corpus_logs();
  REQUIRE(logs.size() >= 8);
  auto machines = fixture_machines();
  for (size_t m = part, position = 0; m < machines.size(); m += 3, ++position) {
    if (!in_sweep_sample(position, part)) continue;  // all in the plain build (test_support.h)
    const std::string& machine = machines[m];
    std::string root = machine_root(machine);
    DYNAMIC_SECTION(machine) {
      ScratchDir dir;
      std::string facts = (dir.path / "facts.json").string();
      REQUIRE(run_rocmdoc({"facts", "--root", root, "-o", facts}).exit_code == 0);
      // --json carries every candidate's texts (-v changes nothing there);
      // the text form and the facts file print the same renderings, so two
      // inputs each suffice.
      for (size_t i = 0; i < kTexts.size(); ++i) {
        const std::string& t = kTexts[i];
        expect_none("explain --json " + t, run_rocmdoc({"explain", "--root", root, "--json", t}), t);
        if (i >= 2) continue;
        expect_none("explain " + t, run_rocmdoc({"explain", "--root", root, t}), t);
        expect_none("explain --facts " + t, run_rocmdoc({"explain", "--facts", facts, t}), t);
      }
      for (size_t j = 0; j < logs.size(); ++j) {
        // Under the sanitizers every kSweepStride-th log, another third on
        // each machine of the part's sample, so that each log is read on
        // some machine there (test_support.h): the logs' explain runs were
        // half of these test cases' time there.
        if (!in_sweep_sample(j + position / kSweepStride, 0)) continue;
        const std::string& log = logs[j];
        std::string input = read_text_file(log);
        expect_none("explain -f " + log, run_rocmdoc({"explain", "--root", root, "--json", "-f", log}), input);
      }
    }
  }
}

// On the text alone (--no-probe) in a test case of its own: under
// AddressSanitizer it and the first third of the machines together came
// within 150 s of the per-test limit in the fresh-clone CI.
TEST_CASE("no explain output without a machine shows an unfilled <placeholder> or a \"(fact not known)\"", "[placeholders]") {
  // No machine fills anything in. --json carries every candidate's texts,
  // the ones no machine can decide included (-v changes nothing there); the
  // text form renders the same texts, in full only with -v, so two inputs
  // each suffice there (as on the machines).
  for (size_t i = 0; i < kTexts.size(); ++i) {
    const std::string& t = kTexts[i];
    expect_none("explain --no-probe --json " + t, run_rocmdoc({"explain", "--no-probe", "--json", t}), t);
    if (i >= 2) continue;
    expect_none("explain --no-probe " + t, run_rocmdoc({"explain", "--no-probe", t}), t);
    expect_none("explain --no-probe -v " + t, run_rocmdoc({"explain", "--no-probe", "-v", t}), t);
  }
}

TEST_CASE("no explain output on the first third of the recorded machines shows an unfilled <placeholder> or a \"(fact not known)\"", "[placeholders]") {
  explain_on_machines(0);
}

TEST_CASE("no explain output on the second third of the recorded machines shows an unfilled <placeholder> or a \"(fact not known)\"", "[placeholders]") {
  explain_on_machines(1);
}

TEST_CASE("no explain output on the last third of the recorded machines shows an unfilled <placeholder> or a \"(fact not known)\"", "[placeholders]") {
  explain_on_machines(2);
}
