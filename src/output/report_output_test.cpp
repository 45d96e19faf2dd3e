#include "output/report_output.h"

#include "catch.h"

using namespace rocmdoc;

namespace {

Json finding(const std::string& id, const std::string& severity, const std::string& title) {
  return {{"id", id},
          {"severity", severity},
          {"area", "access"},
          {"title", title},
          {"why", "because"},
          {"fix", {{"steps", {{{"text", "add the user"}, {"argv", {"usermod", "-aG", "render", "alex"}}, {"sudo", true}}}},
                   {"reboot", false},
                   {"relogin", true},
                   {"verify", Json::array()}}},
          {"evidence", {{"access.target_groups", {"alex", "sudo"}}}},
          {"sources", {"https://example.org"}},
          {"rule_file", "rules/catalogue/access.yaml:1:5"},
          {"local_override", false}};
}

MarkdownReportInput input_with(Json findings, Json facts) {
  MarkdownReportInput in;
  in.check = {{"schema", 1},
              {"summary", {{"errors", 1}, {"warnings", 1}, {"infos", 0}, {"not_checked", 0}, {"problems", true}}},
              {"target", {{"rocm", "6.4.1"}, {"installed", "6.4.1"}, {"chosen_by", "installed"}}},
              {"findings", std::move(findings)},
              {"not_checked", Json::array()},
              {"passed", Json::array()},
              {"facts", std::move(facts)}};
  in.check_text = "✗ Access\n";
  in.rocmdoc_version = "1.2.3";
  in.matrix_as_of = "2026-12-01";
  return in;
}

Json small_facts() { return {{"schema", 1}, {"kernel", {{"release", "6.8.0-45-generic"}}}, {"distro", {{"pretty_name", "Ubuntu 24.04"}}}}; }

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a fence is longer than any backtick run inside, controls are neutralised", "[report]") {
  CHECK(markdown_fenced("plain") == "```text\nplain\n```\n");
  CHECK(markdown_fenced("a ````` b", "json") == "``````json\na ````` b\n``````\n");
  CHECK(markdown_fenced("bell\x07 esc\x1b[31m") == "```text\nbell? esc?[31m\n```\n");
  CHECK(markdown_escaped("[x](http://e) <b>* @alex #12") == "\\[x\\]\\(http\\://e\\) \\<b\\>\\* \\@alex \\#12");
  CHECK(markdown_escaped("two\nlines") == "two?lines");
}

TEST_CASE("the report's title names the worst finding and every finding is in it", "[report]") {
  Json findings = {finding("first-warning", "warning", "a warning"), finding("the-error", "error", "an error")};
  std::string md = render_report_markdown(input_with(findings, small_facts()), {});
  CHECK(md.rfind("# rocmdoc report: ✗ the-error: an error\n", 0) == 0);
  CHECK(md.find("### 1. ! warning first-warning") != std::string::npos);
  CHECK(md.find("### 2. ✗ error the-error") != std::string::npos);
  CHECK(md.find("$ sudo usermod -aG render alex") != std::string::npos);
  CHECK(md.find("access.target_groups = [\"alex\",\"sudo\"]") != std::string::npos);
  CHECK(md.find("<details>") != std::string::npos);
  CHECK(md.find("6.8.0-45-generic") != std::string::npos);
  CHECK(render_report_markdown(input_with(Json::array(), small_facts()), {}).rfind(
            "# rocmdoc report: no problems found\n", 0) == 0);
}

TEST_CASE("scrub reaches every piece of machine text", "[report]") {
  Json facts = small_facts();
  facts["access"] = {{"user", {{"name", "alex"}}}};
  MarkdownReportInput in = input_with({finding("x", "error", "alex cannot open /dev/kfd")}, facts);
  in.explain_text = "alex@box: error\n";
  in.log_name = "/home/alex/train.log";
  MarkdownReportOptions o;
  o.scrub = [](const std::string& s) {
    std::string out = s;
    for (size_t at; (at = out.find("alex")) != std::string::npos;) out.replace(at, 4, "user");
    return out;
  };
  std::string md = render_report_markdown(in, o);
  CHECK(md.find("alex") == std::string::npos);
  CHECK(md.find("user cannot open") != std::string::npos);
}

TEST_CASE("a report too long for a comment loses facts first, then explanation, never findings", "[report]") {
  Json facts = small_facts();
  Json lines = Json::array();
  for (int i = 0; i < 3000; ++i) lines.push_back("[    5.140900] amdgpu: a kernel line of interest, number " + std::to_string(i));
  facts["kernel_log"] = {{"readable", true}, {"lines", lines}};
  facts["pci"] = {{"devices", Json::array({{{"address", "0000:03:00.0"}}})}};
  Json findings = Json::array();
  for (int i = 0; i < 20; ++i) findings.push_back(finding("finding-" + std::to_string(i), "warning", "t"));
  MarkdownReportInput in = input_with(findings, facts);
  in.log_name = "train.log";
  in.explain_text = "✗ cause: the explanation\n";
  std::string md = render_report_markdown(in, {});
  CHECK(md.size() < 65536);
  CHECK(md.find("**Shortened:** to stay under GitHub's 65,536-character comment limit, these were cut") !=
        std::string::npos);
  CHECK(md.find("kernel\\_log.lines") != std::string::npos);  // named as cut
  CHECK(md.find("0000:03:00.0") != std::string::npos);        // the rest is kept
  CHECK(md.find("the explanation") != std::string::npos);     // whole: the facts gave way enough
  for (int i = 0; i < 20; ++i) CHECK(md.find("finding-" + std::to_string(i) + ":") != std::string::npos);

  // An explanation too long even without facts is cut from its end, saying so.
  std::string huge;
  for (int i = 0; i < 5000; ++i) huge += "evidence line " + std::to_string(i) + " `with` ``backticks``\n";
  in.explain_text = huge;
  md = render_report_markdown(in, {});
  CHECK(md.size() < 65536);
  CHECK(md.find("the facts document was left out whole") != std::string::npos);
  CHECK(md.find("**Shortened:** the explanation is cut") != std::string::npos);
  CHECK(md.find("evidence line 0 ") != std::string::npos);
  CHECK(md.find("evidence line 4999") == std::string::npos);
  CHECK(count(md, "### ") == 20);
}
