// rocmdoc report as a user runs it on the fixture machines: the title, the
// findings, redaction, the comment limit, -o and the exit codes.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "catch.h"
#include "base/fact.h"
#include "cli/commands.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// The report without the facts' source.collected_at line, which two runs
// a second apart do not share.
std::string without_run_time(const std::string& report) {
  std::string out;
  std::istringstream lines(report);
  for (std::string line; std::getline(lines, line);)
    if (line.find("\"collected_at\":") == std::string::npos) out += line + "\n";
  return out;
}

// A finding's heading in the report: "### 2. ✗ error <id>: <title>".
std::string heading_of(const Json& f) {
  return f["severity"].get<std::string>() + " " + f["id"].get<std::string>() + ": ";
}

const Json* worst(const Json& findings) {
  const Json* w = nullptr;
  auto rank = [](const Json& f) { return f["severity"] == "error" ? 0 : f["severity"] == "warning" ? 1 : 2; };
  for (auto& f : findings)
    if (!w || rank(f) < rank(*w)) w = &f;
  return w;
}

// A copy of the ubuntu2404-rx7900xtx fixture (sudo user alex, /home/alex)
// given a host name and, in its environment record, secrets.
fs::path machine_with_secrets(const fs::path& dir) {
  fs::path root = dir / "root";
  fs::copy(machine_root("ubuntu2404-rx7900xtx"), root, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  write(root / "etc/hostname", "gpubox-7\n");
  Json sidecar = Json::parse(read_text_file(root / ".rocmdoc/machine.json"));
  sidecar["env"]["values"]["HF_TOKEN"] = "hf_QwErTy1234567890secret";
  sidecar["env"]["values"]["AWS_SECRET_ACCESS_KEY"] = "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY";
  write(root / ".rocmdoc/machine.json", sidecar.dump(2));
  return root;
}

}  // namespace

TEST_CASE("report names the worst finding and carries every finding of check --json", "[cli][report]") {
  for (const char* name : {"ubuntu2404-rx7900xtx", "user-not-in-render", "desktop-amdgpu-not-loaded",
                           "chipset-bridge-no-atomics", "mi300x-container", "laptop-780m-dgpu"}) {
    INFO(name);
    std::string root = machine_root(name);
    auto check = run_rocmdoc({"check", "--json", "--root", root});
    REQUIRE((check.exit_code == 0 || check.exit_code == 1));
    Json findings = Json::parse(check.out)["findings"];
    auto report = run_rocmdoc({"report", "--root", root});
    INFO(report.err);
    REQUIRE(report.exit_code == 0);  // written, whatever it found
    std::string first_line = report.out.substr(0, report.out.find('\n'));
    if (const Json* w = worst(findings)) {
      CHECK(has(first_line, " " + (*w)["id"].get<std::string>() + ":"));
      CHECK(has(first_line, (*w)["severity"] == "error" ? "✗" : (*w)["severity"] == "warning" ? "!" : "•"));
    } else {
      CHECK(first_line == "# rocmdoc report: no problems found");
    }
    for (auto& f : findings) CHECK(has(report.out, heading_of(f)));
    CHECK(has(report.out, "## Versions"));
    CHECK(has(report.out, "<details><summary>The facts document"));
    CHECK(report.out.size() < 65536);
  }
}

TEST_CASE("report replaces the host, user and home names and secret values unless --no-redact", "[cli][report]") {
  ScratchDir dir;
  fs::path root = machine_with_secrets(dir.path);
  // A log as a user pastes it, whose error lines (explain's evidence) carry
  // their prompt, a secret in a command line and printed bare.
  std::string log = "alex@gpubox-7:~/proj$ HF_TOKEN=hf_QwErTy1234567890secret python3 train.py: "
                    "AssertionError: Torch not compiled with CUDA enabled\n"
                    "AssertionError: Torch not compiled with CUDA enabled (token hf_QwErTy1234567890secret, "
                    "cache /home/alex/.cache)\n"
                    "AssertionError: Torch not compiled with CUDA enabled (aws wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY)\n" +
                    read_text_file(source_path("tests/explain/corpus/001-pytorch-cpu-wheel.log"));
  write(dir.path / "train.log", log);
  std::string log_path = (dir.path / "train.log").string();

  auto kept = run_rocmdoc({"report", "--root", root.string(), "--log", log_path, "--no-redact"});
  INFO(kept.err);
  REQUIRE(kept.exit_code == 0);
  // Without redaction each of them does reach the report: the checks below can fail.
  for (const char* s : {"alex", "gpubox-7", "/home/alex", "hf_QwErTy1234567890secret", "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY"})
    CHECK(has(kept.out, s));

  auto report = run_rocmdoc({"report", "--root", root.string(), "--log", log_path});
  INFO(report.err);
  REQUIRE(report.exit_code == 0);
  for (const char* s : {"alex", "gpubox-7", "/home/alex", "hf_QwErTy1234567890secret", "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY"})
    CHECK_FALSE(has(report.out, s));
  CHECK(has(report.out, "user@host:~/proj$ HF_TOKEN=[redacted] python3 train.py"));
  CHECK(has(report.out, "(token [redacted], cache /home/user/.cache)"));
  CHECK(has(report.out, "/home/user/.cache"));
  CHECK(has(report.out, "## Explain: "));
  // The explanation is there (the corpus log's cause), and so are the findings.
  CHECK(has(report.out, "running-under-sudo"));
}

TEST_CASE("report stays under GitHub's comment limit on a huge log and huge facts", "[cli][report]") {
  ScratchDir dir;
  auto facts = run_rocmdoc({"facts", "--root", machine_root("user-not-in-render")});
  REQUIRE(facts.exit_code == 0);
  Json doc = Json::parse(facts.out);
  Json lines = Json::array();
  for (int i = 0; i < 4000; ++i)
    lines.push_back("[ " + std::to_string(1000 + i) + ".000000] amdgpu 0000:03:00.0: a long kernel line kept by the probe");
  // The fixture has no kernel log recorded ({"unknown": ...}): give it one.
  if (!doc["kernel_log"].is_object() || doc["kernel_log"].contains("unknown")) doc["kernel_log"] = Json::object();
  doc["kernel_log"]["lines"] = lines;
  write(dir.path / "facts.json", doc.dump(2));
  std::string big_log;
  for (int i = 0; i < 50000; ++i)
    big_log += "hipErrorNoBinaryForGpu: Unable to find code object for all current devices! (" + std::to_string(i) + ")\n";
  write(dir.path / "big.log", big_log);

  auto report = run_rocmdoc({"report", "--facts", (dir.path / "facts.json").string(), "--log",
                             (dir.path / "big.log").string()});
  INFO(report.err);
  REQUIRE(report.exit_code == 0);
  CHECK(report.out.size() < 65536);
  CHECK(has(report.out, "**Shortened:**"));
  CHECK(has(report.out, "kernel\\_log.lines"));
  CHECK(has(report.out, "`rocmdoc facts`"));
  auto check = run_rocmdoc({"check", "--json", "--facts", (dir.path / "facts.json").string()});
  Json checked = Json::parse(check.out);  // named: a range-for over a temporary's member would dangle
  for (auto& f : checked["findings"]) CHECK(has(report.out, heading_of(f)));
}

TEST_CASE("report -o writes the file whole and refuses links, devices and directories", "[cli][report]") {
  ScratchDir dir;
  std::string root = machine_root("user-not-in-render");
  fs::path file = dir.path / "report.md";
  auto written = run_rocmdoc({"report", "--root", root, "-o", file.string()});
  INFO(written.err);
  CHECK(written.exit_code == 0);
  CHECK(written.out.empty());
  // The same document as on standard output, but for the time of the run.
  CHECK(without_run_time(read_text_file(file)) == without_run_time(run_rocmdoc({"report", "--root", root}).out));

  write(dir.path / "target.txt", "keep me\n");
  fs::create_symlink(dir.path / "target.txt", dir.path / "link.md");
  auto link = run_rocmdoc({"report", "--root", root, "-o", (dir.path / "link.md").string()});
  CHECK(link.exit_code == 2);
  CHECK(has(link.err, "link.md: is a symbolic link"));
  CHECK(read_text_file(dir.path / "target.txt") == "keep me\n");
  CHECK(fs::is_symlink(dir.path / "link.md"));

  auto device = run_rocmdoc({"report", "--root", root, "-o", "/dev/null"});
  CHECK(device.exit_code == 2);
  CHECK(has(device.err, "/dev/null: is not a regular file"));
  auto directory = run_rocmdoc({"report", "--root", root, "-o", dir.path.string()});
  CHECK(directory.exit_code == 2);
  CHECK(has(directory.err, "is not a regular file"));
  // Nothing was left beside the refused names.
  size_t entries = 0;
  for (auto& e : fs::directory_iterator(dir.path)) entries += !e.path().filename().string().empty();
  CHECK(entries == 3);  // report.md, target.txt, link.md
}

TEST_CASE("report's exit codes: 0 written, 2 for bad input naming it", "[cli][report]") {
  ScratchDir dir;
  auto missing_root = run_rocmdoc({"report", "--root", (dir.path / "nowhere").string()});
  CHECK(missing_root.exit_code == 2);
  CHECK(has(missing_root.err, "nowhere"));
  auto missing_log = run_rocmdoc({"report", "--root", machine_root("user-not-in-render"), "--log",
                                  (dir.path / "no.log").string()});
  CHECK(missing_log.exit_code == 2);
  CHECK(has(missing_log.err, "no.log: cannot open"));
  CHECK(missing_log.out.empty());
  auto both = run_rocmdoc({"report", "--root", machine_root("user-not-in-render"), "--facts", "x.json"});
  CHECK(both.exit_code == 2);
  CHECK(has(both.err, "--facts and --root exclude each other"));
  write(dir.path / "bad.json", "{\"schema\": 1,");
  auto bad = run_rocmdoc({"report", "--facts", (dir.path / "bad.json").string()});
  CHECK(bad.exit_code == 2);
  CHECK(has(bad.err, "bad.json"));
  CHECK(run_rocmdoc({"report", "--bogus"}).exit_code == 2);
  // --log - from a terminal would wait for a log nobody is typing.
  MachineOptions machine;
  machine.root = machine_root("user-not-in-render");
  ReportOptions terminal;
  terminal.log = "-";
  terminal.stdin_is_terminal = true;
  std::istringstream in;
  std::ostringstream out, err;
  CHECK(run_report_command(machine, terminal, in, out, err) == 2);
  CHECK(has(err.str(), "standard input, which is a terminal"));
  CHECK(out.str().empty());
  auto help = run_rocmdoc({"report", "--help"});
  CHECK(help.exit_code == 0);
  for (const char* option : {"--root", "--facts", "--log", "-o", "--no-redact"}) CHECK(has(help.out, option));
}
