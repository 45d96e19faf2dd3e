#include "catch.h"
#include "facts/facts_schema.h"
#include "formats/yaml_tree_codec.h"
#include "rules/rule_engine.h"
#include "rules/rule_loader.h"

using namespace rocmdoc;

namespace {

struct Loaded {
  std::map<std::string, Function> functions = builtin_functions();
  RuleSet set;
  explicit Loaded(const std::string& text, const std::string& local = "") {
    Vocabulary v;
    v.functions = &functions;
    v.is_fact = is_fact_path;
    std::vector<RuleFile> locals;
    if (!local.empty()) locals.push_back({"rules.d/local.yaml", local});
    set = load_rule_set({{"rules/catalogue/t.yaml", text}}, locals, v);
  }
  std::string first_error() const { return set.errors.empty() ? "" : set.errors[0].str(); }
};

const char* kGoodRule = R"(problems:
  - id: kfd-missing
    area: driver
    severity: error
    when: kfd.device_node.present == false
    title: "/dev/kfd is missing"
    why: "no driver"
    fix:
      steps:
        - text: "load amdgpu"
          run: [modprobe, amdgpu]
          sudo: true
    sources: [https://example.invalid/doc]
    examples:
      - name: absent
        facts: {kfd: {device_node: {present: false}}}
        expect: fire
      - name: present
        facts: {kfd: {device_node: {present: true}}}
        expect: pass
)";

// kGoodRule with `ruled_out_in_text: CONDITION` (YAML single-quoted).
std::string with_ruled_out(const std::string& condition) {
  std::string r(kGoodRule);
  r.replace(r.find("    title:"), 0, "    ruled_out_in_text: '" + condition + "'\n");
  return r;
}

}  // namespace

TEST_CASE("a valid rule loads and its examples hold", "[rules]") {
  Loaded l(kGoodRule);
  REQUIRE(l.first_error() == "");
  REQUIRE(l.set.problems.size() == 1);
  CHECK(l.set.problems[0].rule.fix.steps[0].sudo);
  ExamplesRun run;
  CHECK(run_examples(l.set, l.functions, &run).empty());
  CHECK(run.problem == 2);
  CHECK(run.not_here == 0);
}

TEST_CASE("rule errors carry file:line:column", "[rules]") {
  CHECK(Loaded("problems: [\n  - id: x\n    area: [").first_error() == "rules/catalogue/t.yaml:2:3: YAML syntax error: illegal block entry");
  std::string with_colour = kGoodRule;
  with_colour.append("    colour: red\n");
  std::string unknown_key = Loaded(with_colour).first_error();
  CHECK(unknown_key.find("rules/catalogue/t.yaml:21:5: unknown key 'colour'") == 0);

  std::string bad_fact = kGoodRule;
  bad_fact.replace(bad_fact.find("kfd.device_node.present =="), 26, "kfd.device_nod.present ==");
  std::string e = Loaded(bad_fact).first_error();
  CHECK(e.find("rules/catalogue/t.yaml:5:11: in condition: unknown fact 'kfd.device_nod.present'") == 0);

}

TEST_CASE("duplicate ids are errors, but a local rule may replace a built-in one", "[rules]") {
  std::string rules(kGoodRule);
  std::string twice = rules + rules.substr(rules.find("  - id"));
  CHECK(Loaded(twice).first_error().find("duplicate problem id 'kfd-missing'") != std::string::npos);
  Loaded overridden(kGoodRule, kGoodRule);
  REQUIRE(overridden.first_error() == "");
  REQUIRE(overridden.set.problems.size() == 1);
  CHECK(overridden.set.problems[0].rule.local_override);
  CHECK(overridden.set.problems[0].rule.where.file == "rules.d/local.yaml");
}

TEST_CASE("wrong types and bad values are named", "[rules]") {
  std::string r(kGoodRule);
  auto with = [&](const std::string& from, const std::string& to) {
    std::string s = r;
    s.replace(s.find(from), from.size(), to);
    return Loaded(s).first_error();
  };
  CHECK(with("severity: error", "severity: fatal").find("severity is error, warning, info or benign") != std::string::npos);
  CHECK(with("area: driver", "area: drivers").find("unknown area 'drivers'") != std::string::npos);
  CHECK(with("sudo: true", "sudo: yes please").find("'sudo' must be true or false") != std::string::npos);
  CHECK(with("id: kfd-missing", "id: KFD_missing").find("lower-case") != std::string::npos);
  CHECK(with("expect: fire", "expect: maybe").find("'expect' is fire, pass, unknown, unseen or likely") !=
        std::string::npos);
  CHECK(with("title: \"/dev/kfd is missing\"", "title: \"{kfd.nope}\"").find("unknown fact {kfd.nope}") !=
        std::string::npos);
  CHECK(with("    sources: [https://example.invalid/doc]\n", "").find("missing 'sources'") != std::string::npos);
  // No shell expands a run's "~": fix would make a directory named "~".
  CHECK(with("run: [modprobe, amdgpu]", "run: [python3, -m, venv, ~/rocm-venv]")
            .find("rules/catalogue/t.yaml:11:36: a 'run' word cannot start with '~'") == 0);
  CHECK(with("run: [modprobe, amdgpu]", "run: [python3, -m, venv, /srv/x~]") == "");
  CHECK(with("run: [modprobe, amdgpu]", "run: [pip, install, --prefix=~/x, torch]")
            .find("a 'run' word cannot start with '~' (or have '=~')") != std::string::npos);
  CHECK(with("          sudo: true\n", "          sudo: true\n      verify: [test, -d, ~/x]\n")
            .find("a 'verify' word cannot start with '~'") != std::string::npos);
  // install_note: a facts condition for install to run, true or false.
  CHECK(with("    title:", "    install_note: true\n    title:") == "");
  CHECK(with("    title:", "    install_note: maybe\n    title:").find("'install_note' must be true or false") !=
        std::string::npos);
  CHECK(with("    when: kfd.device_node.present == false\n", "    install_note: true\n")
            .find("'install_note' needs 'when'") != std::string::npos);
  // confirm: one step, or a list whose last step has no `when` (the one a
  // machine none fits, or a text alone, gets).
  CHECK(with("    title:", "    confirm: {text: look, run: [ls, /dev/kfd]}\n    title:") == "");
  CHECK(with("    title:", "    confirm:\n      - {text: a, when: 'distro.id == \"fedora\"', run: [dnf, provides, x]}\n"
                           "      - {text: b}\n    title:") == "");
  CHECK(with("    title:", "    confirm:\n      - {text: a, when: 'distro.id == \"fedora\"'}\n    title:")
            .find("rules/catalogue/t.yaml:7:9: in a 'confirm' list every step but the last has a 'when'") == 0);
  // A step without `when` before the last would hide the ones after it.
  CHECK(with("    title:", "    confirm:\n      - {text: a}\n      - {text: b, when: 'distro.id == \"fedora\"'}\n"
                           "      - {text: c}\n    title:")
            .find("rules/catalogue/t.yaml:7:9: in a 'confirm' list every step but the last") == 0);
}

// likely_in_text raises an open problem in explain's ranking; its examples
// say so with `expect: likely`, which needs the condition and a text.
TEST_CASE("likely_in_text: 'expect: likely' examples are judged, and need the condition and a text", "[rules]") {
  std::string r(kGoodRule);
  std::string likely = r;
  likely.replace(likely.find("    title:"), 0, "    likely_in_text: '\"container-run-command\" in text.matched'\n");
  likely.replace(likely.find("      - name: absent"), 0,
                 "      - name: a docker run in the text, facts unknown\n"
                 "        facts: {kfd: {unknown: \"--no-probe\"}, text: {matched: [container-run-command]}}\n"
                 "        expect: likely\n"
                 "      - name: no container in the text, facts unknown\n"
                 "        facts: {kfd: {unknown: \"--no-probe\"}, text: {matched: [kfd-no-such-file]}}\n"
                 "        expect: likely\n");
  Loaded l(likely);
  REQUIRE(l.first_error() == "");
  REQUIRE(l.set.problems.at(0).likely_in_text);
  auto failures = run_examples(l.set, l.functions);
  // The second example's text shows no container: explain leaves it undecided, not raised.
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].example->name == "no container in the text, facts unknown");
  CHECK(failures[0].got == "unknown");

  std::string without = r;
  without.replace(without.find("expect: fire"), 12, "expect: likely");
  CHECK(Loaded(without).first_error().find("'expect: likely' is for a problem with 'likely_in_text'") !=
        std::string::npos);
}

// ruled_out_in_text only refutes: a text that satisfies it rules the problem
// out before its facts are read, and one that does not leaves the verdict to
// `when` (unknown facts stay unknown; it never confirms).
TEST_CASE("ruled_out_in_text refutes a problem and never confirms it", "[rules]") {
  Loaded l(with_ruled_out("\"rocminfo-gpu-agent\" in text.matched"));
  REQUIRE(l.first_error() == "");
  const Problem& p = l.set.problems.at(0);
  REQUIRE(p.ruled_out_in_text);
  auto verdict = [&](const char* facts) { return judge_problem(p, Json::parse(facts), l.functions).verdict; };
  CHECK(verdict(R"({"kfd": {"device_node": {"present": false}}, "text": {"matched": ["rocminfo-gpu-agent"]}})") ==
        Verdict::passed);  // the facts would fire; the text rules it out first
  CHECK(verdict(R"({"kfd": {"device_node": {"present": false}}, "text": {"matched": ["kfd-no-such-file"]}})") ==
        Verdict::fired);
  CHECK(verdict(R"({"kfd": {"unknown": "--no-probe"}, "text": {"matched": ["kfd-no-such-file"]}})") == Verdict::unknown);
  CHECK(verdict(R"({"kfd": {"unknown": "--no-probe"}, "text": {"unknown": "no text"}})") == Verdict::unknown);
  CHECK(judge_problem(p, Json::parse(R"({"kfd": {"device_node": {"present": false}}, "text": {"matched": ["rocminfo-gpu-agent"]}})"),
                      l.functions)
            .reason == "the text rules it out");
}

// A value explain filled into the text from the machine (text.from_machine:
// the GPU's gfx where the paste names none) is the machine's: a condition
// that it alone decides is not "the text" ruling the problem out.
TEST_CASE("a text condition decided by a value filled in from the machine names the machine", "[rules]") {
  Loaded l(with_ruled_out("text.gfx == \"gfx1102\""));
  REQUIRE(l.first_error() == "");
  const Problem& p = l.set.problems.at(0);
  auto outcome = [&](const char* facts) { return judge_problem(p, Json::parse(facts), l.functions); };
  auto filled = outcome(
      R"({"kfd": {"device_node": {"present": false}}, "text": {"matched": [], "gfx": "gfx1102", "from_machine": ["gfx"]}})");
  CHECK(filled.verdict == Verdict::passed);
  CHECK(filled.reason == "the facts rule it out for what the text shows (text.gfx (this machine's) is \"gfx1102\")");
  auto pasted = outcome(R"({"kfd": {"device_node": {"present": false}}, "text": {"matched": [], "gfx": "gfx1102"}})");
  CHECK(pasted.verdict == Verdict::passed);
  CHECK(pasted.reason == "the text rules it out");
}

// A ruled_out_in_text that holds only with the machine's facts (the
// registered OpenCL runtimes, the installed release) names them, as a
// refuting when_in_text does.
TEST_CASE("ruled_out_in_text that holds on the machine's facts names them", "[rules]") {
  Loaded l(with_ruled_out("not (\"kfd-no-such-file\" in text.matched) and kfd.device_node.present == false"));
  REQUIRE(l.first_error() == "");
  const Problem& p = l.set.problems.at(0);
  auto outcome = [&](const char* facts) { return judge_problem(p, Json::parse(facts), l.functions); };
  // The facts would fire `when`; with them the condition rules it out.
  auto by_facts = outcome(R"({"kfd": {"device_node": {"present": false}}, "text": {"matched": []}})");
  CHECK(by_facts.verdict == Verdict::passed);
  CHECK(by_facts.reason == "the facts rule it out for what the text shows (kfd.device_node.present is false)");
  // The text shows what the condition excepts: `when` decides.
  CHECK(outcome(R"({"kfd": {"device_node": {"present": false}}, "text": {"matched": ["kfd-no-such-file"]}})").verdict ==
        Verdict::fired);
}

TEST_CASE("a text condition refuted by the machine's facts names them, one refuted by the text says the text",
          "[rules]") {
  std::string r(kGoodRule);
  r.replace(r.find("    when: kfd.device_node.present == false\n"), 43,
            "    when_in_text: '\"kfd-no-such-file\" in text.matched and kfd.device_node.present == false'\n");
  // A problem without `when` is found through a symptom.
  Loaded l("symptoms:\n  - id: s\n    title: t\n    signals: [{signature: sig, weight: 1}]\n    problems: [kfd-missing]\n"
           "signatures:\n  - id: sig\n    pattern: 'x'\n    examples: {match: [x], no_match: [y]}\n" + r);
  REQUIRE(l.first_error() == "");
  const Problem& p = l.set.problems.at(0);
  REQUIRE(p.when_in_text);
  auto outcome = [&](const char* facts) { return judge_problem(p, Json::parse(facts), l.functions); };
  auto by_text = outcome(R"({"kfd": {"device_node": {"present": false}}, "text": {"matched": ["rocminfo-gpu-agent"]}})");
  CHECK(by_text.verdict == Verdict::passed);
  CHECK(by_text.reason == "the text rules it out");
  auto by_facts = outcome(R"({"kfd": {"device_node": {"present": true}}, "text": {"matched": ["kfd-no-such-file"]}})");
  CHECK(by_facts.verdict == Verdict::passed);
  CHECK(by_facts.reason == "the facts rule it out for what the text shows (kfd.device_node.present is true)");
  CHECK(outcome(R"({"kfd": {"device_node": {"present": false}}, "text": {"matched": ["kfd-no-such-file"]}})").verdict ==
        Verdict::fired);
}

TEST_CASE("an example with the wrong verdict is reported", "[rules]") {
  std::string r(kGoodRule);
  r.replace(r.find("expect: pass"), 12, "expect: fire");
  Loaded l(r);
  REQUIRE(l.first_error() == "");
  auto failures = run_examples(l.set, l.functions);
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].example->name == "present");
  CHECK(failures[0].got == "pass");
}

TEST_CASE("the catalogue keeps check's condition free of text and its names unique", "[rules]") {
  std::string r(kGoodRule);
  auto with = [&](const std::string& from, const std::string& to) {
    std::string s = r;
    s.replace(s.find(from), from.size(), to);
    return Loaded(s).first_error();
  };
  // check runs `when` without a text: reading one is a load error, pointing where to put it.
  CHECK(with("when: kfd.device_node.present == false", "when: '\"x\" in text.matched'")
            .find("rules/catalogue/t.yaml:5:11: 'when' is what check fires on and cannot read text.matched; put it in "
                  "'when_in_text'") == 0);
  CHECK(with("when: kfd.device_node.present == false",
             "when: kfd.device_node.present == false\n    when_in_text: '\"x\" in text.matched'") == "");
  // The former file formats say what they became.
  CHECK(Loaded("rules: []\n").first_error().find("'rules' is now 'problems'") != std::string::npos);
  CHECK(Loaded("causes: []\n").first_error().find("'causes' is now 'problems'") != std::string::npos);
  // An alias may not be another problem's id.
  std::string second = r.substr(r.find("  - id")).replace(r.substr(r.find("  - id")).find("kfd-missing"), 11, "kfd-gone");
  std::string aliased = r + second;
  aliased.replace(aliased.rfind("    area: driver"), 0, "    aliases: [kfd-missing]\n");
  CHECK(Loaded(aliased).first_error().find("alias 'kfd-missing' is already the id or alias") != std::string::npos);
}

TEST_CASE("a symptom names known problems, once each, and a problem can be found", "[rules]") {
  std::string symptom = "symptoms:\n  - id: s\n    title: t\n    signals: [{signature: sig, weight: 1}]\n    problems: [kfd-missing]\n"
                        "signatures:\n  - id: sig\n    pattern: 'x'\n    examples: {match: [x], no_match: [y]}\n";
  std::string rules(kGoodRule);
  CHECK(Loaded(symptom + rules).first_error() == "");
  std::string unknown = symptom;
  unknown.replace(unknown.find("[kfd-missing]"), 13, "[kfd-nope]");
  CHECK(Loaded(unknown + rules).first_error().find("symptom 's': unknown problem 'kfd-nope'") != std::string::npos);
  std::string twice = symptom;
  twice.replace(twice.find("[kfd-missing]"), 13, "[kfd-missing, kfd-missing]");
  CHECK(Loaded(twice + rules).first_error().find("symptom 's' lists 'kfd-missing' twice") != std::string::npos);
  // Without a condition, signals or a symptom, nothing could ever find a problem.
  std::string lone = rules;
  lone.replace(lone.find("    when: kfd.device_node.present == false\n"), 43, "");
  lone.erase(lone.find("    examples:"));
  CHECK(Loaded(lone).first_error().find("nothing can find it") != std::string::npos);
  CHECK(Loaded(symptom + lone).first_error() == "");
}

// not_here reads the machine, never the text; its examples run with the
// rest and can fail.
TEST_CASE("a symptom's not_here is a facts condition with examples", "[rules]") {
  std::string head = "symptoms:\n  - id: s\n    title: t\n    signals: [{signature: sig, weight: 1}]\n    problems: [kfd-missing]\n"
                     "    not_here:\n      when: WHEN\n      says: \"amdgpu is loaded ({kernel.release})\"\n"
                     "      examples:\n        - {name: loaded, facts: {amdgpu: {module: {loaded: true}}}, expect: EXPECT}\n"
                     "signatures:\n  - id: sig\n    pattern: 'x'\n    examples: {match: [x], no_match: [y]}\n";
  auto with = [&](const std::string& when, const std::string& expect) {
    std::string text = head;
    text.replace(text.find("WHEN"), 4, when);
    text.replace(text.find("EXPECT"), 6, expect);
    return text + kGoodRule;
  };
  Loaded good(with("amdgpu.module.loaded == true", "fire"));
  REQUIRE(good.first_error() == "");
  REQUIRE(good.set.symptoms.size() == 1);
  CHECK(good.set.symptoms[0].not_here.when != nullptr);
  // Counted as the symptom's, not as the problem's two.
  ExamplesRun run;
  CHECK(run_examples(good.set, good.functions, &run).empty());
  CHECK(run.problem == 2);
  CHECK(run.not_here == 1);
  // An example that says it holds where it does not is a failure of rules test.
  Loaded wrong(with("amdgpu.module.loaded == false", "fire"));
  REQUIRE(wrong.first_error() == "");
  auto failures = run_examples(wrong.set, wrong.functions);
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].got == "pass");
  CHECK(failures[0].not_here);
  CHECK(failures[0].rule->id == "s");
  CHECK(Loaded(with("'\"x\" in text.matched'", "fire")).first_error().find("rules/catalogue/t.yaml:7:13: 'not_here' reads the machine's facts, not the text (text.matched)") == 0);
  CHECK(Loaded(with("amdgpu.module.loaded == true", "unseen")).first_error().find("a 'not_here' example expects fire") != std::string::npos);
  CHECK(Loaded(with("amdgpu.module.loaded == true", "fire, fix_steps: 0")).first_error().find("has no fix to count") != std::string::npos);
  std::string no_examples = with("amdgpu.module.loaded == true", "fire");
  no_examples.erase(no_examples.find("      examples:"), no_examples.find("signatures:") - no_examples.find("      examples:"));
  CHECK(Loaded(no_examples).first_error().find("examples") != std::string::npos);
}

TEST_CASE("explain's load skips compiling the built-in patterns only", "[rules]") {
  std::map<std::string, Function> functions = builtin_functions();
  Vocabulary v;
  v.functions = &functions;
  v.is_fact = is_fact_path;
  std::string text = std::string("signatures:\n  - id: sig\n    pattern: '(a{0,40}){0,40}b'\n"
                                 "    examples: {match: [b]}\n") + kGoodRule;
  LoadOptions options;
  options.compile_built_in_patterns = false;
  // A file read at run time (--rules, rules.d) is compiled all the same:
  // its bad pattern is an error at its file:line.
  RuleSet read = load_rule_set({{"myrules/catalogue/t.yaml", text}}, {}, v, options);
  REQUIRE_FALSE(read.errors.empty());
  CHECK(read.errors[0].str().find("t.yaml:3:14: not an RE2 pattern") != std::string::npos);
  // The same file packed as the build packs the built-in ones is not; its
  // signatures say they compile, on the word of the suite's rules lint.
  YamlParsed parsed = parse_yaml_records(text);
  REQUIRE(parsed.records);
  std::string packed = encode_yaml_tree(*parsed.records);
  RuleSet built_in = load_rule_set({RuleFile("rules/catalogue/t.yaml", "", packed)}, {}, v, options);
  REQUIRE(built_in.errors.empty());
  REQUIRE(built_in.signatures.size() == 1);
  CHECK(built_in.signatures[0].compiles);
  // check's load compiles nothing, and so vouches for no file read at run
  // time (for built-in ones it relies on the suite, as above).
  options.compile_patterns = false;
  RuleSet unchecked = load_rule_set({{"myrules/catalogue/t.yaml", text}}, {}, v, options);
  REQUIRE(unchecked.errors.empty());
  CHECK_FALSE(unchecked.signatures[0].compiles);
}

TEST_CASE("a signature's `after` is a pattern of the line before, checked like its pattern", "[rules]") {
  std::string sig = "signatures:\n  - id: repl\n    after: '^>>> f\\(\\)$'\n    pattern: '^False$'\n"
                    "    examples: {match: [\">>> f()\\nFalse\"], no_match: [False]}\n";
  std::string rules(kGoodRule);
  CHECK(Loaded(sig + rules).first_error() == "");
  std::string bad = sig;
  bad.replace(bad.find("'^>>> f"), 1, "'(");
  std::string error = Loaded(bad + rules).first_error();
  CHECK(error.find(":3:12: not an RE2 pattern") != std::string::npos);
  std::string kernel = sig;
  kernel.replace(kernel.find("    pattern:"), 0, "    scan_kernel_log: true\n");
  CHECK(Loaded(kernel + rules).first_error().find("a signature with 'after' cannot scan_kernel_log") != std::string::npos);
}

TEST_CASE("a signature's `unless` is a pattern of the same line, checked like its pattern", "[rules]") {
  std::string sig = "signatures:\n  - id: words-sb\n    pattern: '(?i)secure boot'\n    unless: '(?i)works fine'\n"
                    "    examples: {match: [secure boot blocks it], no_match: [secure boot is on and it works fine]}\n";
  std::string rules(kGoodRule);
  CHECK(Loaded(sig + rules).first_error() == "");
  std::string bad = sig;
  bad.replace(bad.find("'(?i)works"), 1, "'(");
  CHECK(Loaded(bad + rules).first_error().find(":4:13: not an RE2 pattern") != std::string::npos);
  std::string kernel = sig;
  kernel.replace(kernel.find("    pattern:"), 0, "    scan_kernel_log: true\n");
  CHECK(Loaded(kernel + rules).first_error().find("a signature with 'unless' cannot scan_kernel_log") != std::string::npos);
}

TEST_CASE("leads_to names other problems, never itself or one that leads back", "[rules]") {
  std::string rules(kGoodRule);
  std::string second = rules.substr(rules.find("  - id"));
  second.replace(second.find("kfd-missing"), 11, "kfd-gone");
  auto with = [&](const std::string& first_leads, const std::string& second_leads) {
    std::string a = rules, b = second;
    if (!first_leads.empty()) a.replace(a.find("    area: driver"), 0, "    leads_to: [" + first_leads + "]\n");
    if (!second_leads.empty()) b.replace(b.find("    area: driver"), 0, "    leads_to: [" + second_leads + "]\n");
    return Loaded(a + b).first_error();
  };
  CHECK(with("kfd-gone", "") == "");
  CHECK(with("kfd-nope", "").find("leads_to names an unknown problem 'kfd-nope'") != std::string::npos);
  CHECK(with("kfd-missing", "").find("cannot lead to itself") != std::string::npos);
  CHECK(with("kfd-gone", "kfd-missing").find("which leads back to it") != std::string::npos);
}

TEST_CASE("a context signature captures a value and is no problem's signal", "[rules]") {
  std::string context = "signatures:\n  - id: ctx\n    context: true\n    pattern: '(?P<gfx>gfx[0-9]+)'\n"
                        "    examples: {match: [gfx1100], no_match: [y]}\n";
  std::string rules(kGoodRule);
  CHECK(Loaded(context + rules).first_error() == "");
  std::string no_group = context;
  no_group.replace(no_group.find("(?P<gfx>gfx[0-9]+)"), 18, "gfx[0-9]+");
  CHECK(Loaded(no_group + rules).first_error().find("a context signature captures a value: its pattern needs a named group") !=
        std::string::npos);
  std::string as_signal = rules;
  as_signal.replace(as_signal.find("    title:"), 0, "    signals: [{signature: ctx, weight: 1}]\n");
  CHECK(Loaded(context + as_signal).first_error().find("'ctx' is a context signature") != std::string::npos);
}

TEST_CASE("an example's fix_steps counts the steps its facts show, and a wrong count fails", "[rules]") {
  std::string rule = kGoodRule;
  // A second step, shown only where amdgpu-dkms is installed.
  rule.replace(rule.find("          sudo: true\n"), 21,
               "          sudo: true\n        - text: \"remove amdgpu-dkms\"\n          when: len(amdgpu.dkms.installed) > 0\n");
  auto with_examples = [&](const std::string& examples) {
    std::string text = rule;
    text.replace(text.find("    examples:\n"), std::string::npos, "    examples:\n" + examples);
    return text;
  };
  const std::string none = "      - name: no dkms\n        facts: {kfd: {device_node: {present: false}}, amdgpu: {dkms: {installed: []}}}\n"
                           "        expect: fire\n";
  const std::string some = "      - name: dkms\n        facts: {kfd: {device_node: {present: false}}, amdgpu: {dkms: {installed: [\"6.16\"]}}}\n"
                           "        expect: fire\n";
  const std::string pass = "      - name: present\n        facts: {kfd: {device_node: {present: true}}}\n        expect: pass\n";
  Loaded right(with_examples(none + "        fix_steps: 1\n" + some + "        fix_steps: 2\n" + pass));
  REQUIRE(right.first_error() == "");
  CHECK(run_examples(right.set, right.functions).empty());
  Loaded wrong(with_examples(none + "        fix_steps: 2\n" + pass));
  REQUIRE(wrong.first_error() == "");
  auto failures = run_examples(wrong.set, wrong.functions);
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].example->name == "no dkms");
  CHECK(failures[0].detail == "the fix shows 1 of its steps, fix_steps says 2");
  // Only an example that fires on facts shows a fix.
  CHECK(Loaded(with_examples(none + pass + "        fix_steps: 0\n")).first_error().find("'fix_steps' is for an example that fires") !=
        std::string::npos);
  CHECK(Loaded(with_examples(none + "        fix_steps: 3\n" + pass)).first_error().find("0 to 2") != std::string::npos);
}

// A title that names a fact the facts do not hold gives way to the summary
// (explain's candidates without a machine); with the fact known, the title.
TEST_CASE("summary: the title without facts, shown when a fact the title names is not known", "[rules]") {
  std::string r(kGoodRule);
  r.replace(r.find("title: \"/dev/kfd is missing\""), 28,
            "title: \"/dev/kfd is missing on {kernel.release}\"\n    summary: \"/dev/kfd is missing\"");
  Loaded l(r);
  REQUIRE(l.first_error() == "");
  const Rule& rule = l.set.problems[0].rule;
  CHECK(rule.summary == "/dev/kfd is missing");
  CHECK(describe_rule(rule, Json::object(), l.functions).title == "/dev/kfd is missing");
  Json facts = {{"kernel", {{"release", "6.8.0-31-generic"}}}};
  CHECK(describe_rule(rule, facts, l.functions).title == "/dev/kfd is missing on 6.8.0-31-generic");

  std::string bad = r;
  bad.replace(bad.find("summary: \"/dev/kfd is missing\""), 30, "summary: \"{kernel.release} lacks /dev/kfd\"");
  CHECK(Loaded(bad).first_error().find("'summary' is the title without facts") != std::string::npos);
}

// gives_way_to and item_in_text are the keys added last: each misuse is a
// load error at the key's line, not a problem explain silently mishandles.
TEST_CASE("gives_way_to names another problem the facts can confirm, and item_in_text needs for_each", "[rules]") {
  std::string rules(kGoodRule);
  std::string second = rules.substr(rules.find("  - id"));
  second.replace(second.find("kfd-missing"), 11, "kfd-gone");
  // The same problem without `when`: a text-only problem, which the facts never confirm.
  std::string text_only = second;
  text_only.replace(text_only.find("kfd-gone"), 8, "kfd-told");
  text_only.erase(text_only.find("    when:"), text_only.find("    title:") - text_only.find("    when:"));
  text_only.erase(text_only.find("    examples:"));
  text_only += "    signals:\n      - {signature: kfd-told-sig, weight: 3}\n";
  std::string signature =
      "signatures:\n  - id: kfd-told-sig\n    pattern: 'kfd told'\n"
      "    examples:\n      match: ['kfd told me']\n      no_match: ['kfd said']\n";
  auto with = [&](const std::string& gives_way) {
    std::string a = rules;
    a.replace(a.find("    area: driver"), 0, "    gives_way_to: [" + gives_way + "]\n");
    return Loaded(a + second + text_only + signature).first_error();
  };
  // Line 3 of the file holds the first problem's gives_way_to.
  CHECK(with("kfd-gone") == "");
  CHECK(with("kfd-nope") == "rules/catalogue/t.yaml:3:19: problem 'kfd-missing': gives_way_to names an unknown problem 'kfd-nope'");
  CHECK(with("kfd-missing") == "rules/catalogue/t.yaml:3:19: problem 'kfd-missing' cannot give way to itself");
  CHECK(with("kfd-told") == "rules/catalogue/t.yaml:3:19: problem 'kfd-missing': gives_way_to names 'kfd-told', "
                            "which has no 'when': the facts never confirm it");

  auto with_item = [&](const std::string& keys) {
    std::string a = rules;
    a.replace(a.find("    title:"), 0, keys);
    return Loaded(a).first_error();
  };
  const std::string item = "    item_in_text: '\"kfd-no-such-file\" in text.matched'\n";
  CHECK(with_item(item).find("rules/catalogue/t.yaml:6:19: 'item_in_text' is for a problem with 'for_each' and 'when'") == 0);
  CHECK(with_item("    for_each: gpus\n" + item) == "");
}

// fragments: a piece of pattern written once and named as (?&name); every
// misuse is a load error at its file:line:column (tests/cli: exit 2).
namespace {
const char* kFragment = R"(fragments:
  - fragment: in_sentence
    pattern: '[^.\n]|\.[0-9A-Za-z]'
    examples: {match: ['ROCm 6.2 on mok.pub'], no_match: ['it hangs. Then']}
)";
std::string with_signature(const std::string& pattern) {
  return std::string(kFragment) + "signatures:\n  - id: gap\n    pattern: '" + pattern +
         "'\n    examples: {match: ['gpu 6.2 hangs'], no_match: ['gpu. It hangs']}\n" + kGoodRule;
}
}  // namespace

TEST_CASE("a pattern names a fragment as (?&name), which the loader expands to one atom", "[rules][fragments]") {
  Loaded l(with_signature(R"(gpu(?&in_sentence){0,20}?\bhangs)"));
  REQUIRE(l.first_error() == "");
  REQUIRE(l.set.signatures.size() == 1);
  // What every reader of the pattern gets: the scanner, the kernel log's
  // set, `rules patterns`.
  CHECK(l.set.signatures[0].pattern == R"(gpu(?:[^.\n]|\.[0-9A-Za-z]){0,20}?\bhangs)");
  REQUIRE(l.set.fragments.count("in_sentence") == 1);
  CHECK(l.set.fragments.at("in_sentence").where.str() == "rules/catalogue/t.yaml:2:5");
  size_t run = 0;
  CHECK(run_fragment_examples(l.set.fragments, &run).empty());
  CHECK(run == 2);
  // `after` and `unless` and an origin's pattern name fragments as well.
  std::string unless = with_signature("gpu");
  unless.replace(unless.find("    examples: {match: ['gpu 6.2"), 0, "    unless: 'fine(?&in_sentence)'\n");
  Loaded u(unless);
  REQUIRE(u.first_error() == "");
  CHECK(u.set.signatures[0].unless == R"(fine(?:[^.\n]|\.[0-9A-Za-z]))");
  // "(?&" escaped or in a class is the bytes it is, no reference.
  CHECK(Loaded(with_signature(R"(a\(?&b)")).first_error() == "");
  CHECK(Loaded(with_signature(R"([(?&]x)")).set.signatures.at(0).pattern == R"([(?&]x)");
}

TEST_CASE("an unknown, doubly defined, broken or nested fragment is a load error at its line", "[rules][fragments]") {
  CHECK(Loaded(with_signature(R"(gpu(?&in_sentense){0,20})")).first_error() ==
        "rules/catalogue/t.yaml:7:14: unknown fragment 'in_sentense' (a fragment is defined under 'fragments:' "
        "before the patterns that name it)");
  CHECK(Loaded(with_signature(R"(gpu(?&In_Sentence))")).first_error().find(
            "rules/catalogue/t.yaml:7:14: '(?&' names a fragment: (?&name)") == 0);
  CHECK(Loaded(with_signature(R"(gpu(?&in_sentence)")).first_error().find("rules/catalogue/t.yaml:7:14: '(?&' names a fragment") == 0);
  auto fragment_error = [](const std::string& from, const std::string& to) {
    std::string text = with_signature("gpu");
    text.replace(text.find(from), from.size(), to);
    return Loaded(text).first_error();
  };
  std::string second = "  - fragment: in_sentence\n    pattern: 'x'\n    examples: {match: [x], no_match: [y]}\n";
  CHECK(fragment_error("signatures:", second + "signatures:") ==
        "rules/catalogue/t.yaml:5:15: fragment 'in_sentence' is defined twice (first at rules/catalogue/t.yaml:2:5)");
  CHECK(fragment_error(R"('[^.\n]|\.[0-9A-Za-z]')", "'[^.'").find("rules/catalogue/t.yaml:3:14: not an RE2 pattern") == 0);
  CHECK(fragment_error(R"('[^.\n]|\.[0-9A-Za-z]')", "'(?&other)x'") ==
        "rules/catalogue/t.yaml:3:14: a fragment cannot name another fragment ((?&other)): write it out");
  CHECK(fragment_error(R"('[^.\n]|\.[0-9A-Za-z]')", "'(?P<gfx>gfx[0-9]+)'") ==
        "rules/catalogue/t.yaml:3:14: this pattern captures nothing; remove (?P<gfx>");
  CHECK(fragment_error("fragment: in_sentence", "fragment: in-sentence").find("rules/catalogue/t.yaml:2:15: a fragment's name is") == 0);
  CHECK(fragment_error("    examples: {match: ['ROCm", "    samples: {match: ['ROCm").find("unknown key 'samples'") != std::string::npos);
}

// Fragments are defined before the patterns that name them, as macros are:
// in an earlier file (files load in name order), or the same file, and the
// built-in ones before rules.d.
TEST_CASE("a fragment serves the patterns loaded after it, in its file and the later ones", "[rules][fragments]") {
  std::map<std::string, Function> functions = builtin_functions();
  Vocabulary v;
  v.functions = &functions;
  v.is_fact = is_fact_path;
  std::string uses = "signatures:\n  - id: later\n    pattern: 'x(?&in_sentence)'\n    examples: {match: [xy], no_match: [x.]}\n";
  RuleSet in_order = load_rule_set({{"rules/catalogue/a.yaml", kFragment}, {"rules/catalogue/b.yaml", uses}},
                                   {{"rules.d/local.yaml", std::string(uses).replace(uses.find("later"), 5, "local")}}, v);
  CHECK(in_order.errors.empty());
  CHECK(in_order.signatures.size() == 2);
  RuleSet reversed = load_rule_set({{"rules/catalogue/a.yaml", uses}, {"rules/catalogue/b.yaml", kFragment}}, {}, v);
  REQUIRE(reversed.errors.size() == 1);
  CHECK(reversed.errors[0].str().find("rules/catalogue/a.yaml:3:14: unknown fragment 'in_sentence'") == 0);
}

TEST_CASE("a fragment's examples are whole lines, the fragment once or more", "[rules][fragments]") {
  PatternFragments fragments;
  PatternFragment f;
  f.name = "in_sentence";
  f.pattern = R"([^.\n]|\.[0-9A-Za-z])";
  f.where = {"rules/catalogue/t.yaml", 2, 5};
  f.examples = {{"ROCm 6.2 on mok.pub", true, {}, {"rules/catalogue/t.yaml", 4, 5}},
                {"(see above.) next", false, {}, {"rules/catalogue/t.yaml", 5, 5}},
                {"it hangs. Then", true, {}, {"rules/catalogue/t.yaml", 6, 5}}};
  fragments.emplace(f.name, f);
  size_t run = 0;
  auto failures = run_fragment_examples(fragments, &run);
  CHECK(run == 3);
  REQUIRE(failures.size() == 1);
  CHECK(failures[0] == "rules/catalogue/t.yaml:6:5: fragment 'in_sentence': does not match 'it hangs. Then' (the whole "
                       "line, as the fragment once or more)");
}
