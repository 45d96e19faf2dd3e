// The defects of the hostile-input review (../shared/reviews/hostile-input.md)
// that no test beside its code covers: each test builds the review's input
// and asserts the behaviour the fix gives (an exit-2 message naming the
// place, never a crash, a hang, or a silent wrong answer). Named "Dn: ..."
// so the review's table can point at them.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/json_input.h"
#include "base/text.h"
#include "catch.h"
#include "facts/facts_document.h"
#include "formats/yaml_parse.h"
#include "snapshot/redaction.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;
namespace fs = std::filesystem;

namespace {

std::string good_facts() {
  auto r = run_rocmdoc({"facts", "--root", machine_root("ubuntu2404-rx7900xtx")});
  REQUIRE(r.exit_code == 0);
  return r.out;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// A copy of a fixture machine's root, to damage.
fs::path copy_machine(const ScratchDir& dir, const std::string& name = "ubuntu2404-rx7900xtx") {
  fs::path root = dir.path / "root";
  fs::copy(machine_root(name), root, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  return root;
}

// A copy of the built-in rules plus one catalogue file.
fs::path rules_with(const ScratchDir& dir, const std::string& file, const std::string& text) {
  fs::path rules = dir.path / "rules";
  fs::copy(source_path("rules"), rules, fs::copy_options::recursive);
  if (!text.empty()) write(rules / "catalogue" / file, text);
  return rules;
}

std::string problem_yaml(const std::string& extra_key) {
  return "problems:\n  - id: dup-key\n    area: system\n" + extra_key +
         "    severity: warning\n    when: kernel.release >= \"6.0\"\n    title: t\n    why: w\n"
         "    fix: {steps: [{text: x}]}\n    sources: [https://example.com]\n    examples:\n"
         "      - {name: a, facts: {kernel: {release: \"6.8.0\"}}, expect: fire}\n"
         "      - {name: b, facts: {kernel: {release: \"5.0.0\"}}, expect: pass}\n";
}

}  // namespace

TEST_CASE("D4: a sidecar that links out of the recorded root is read inside it, never the host's file",
          "[hostile][machines]") {
  ScratchDir dir;
  fs::path root = copy_machine(dir);
  fs::path secret = dir.path / "host-secret";
  write(secret, "\"SECRET first line of a host file\n");
  fs::remove(root / ".rocmdoc/machine.json");
  fs::create_symlink(secret, root / ".rocmdoc/machine.json");
  auto r = run_rocmdoc({"check", "--root", root.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(".rocmdoc/machine.json") != std::string::npos);
  CHECK(r.err.find("SECRET") == std::string::npos);
  CHECK(r.out.find("SECRET") == std::string::npos);
}

TEST_CASE("D4, D9: a FIFO or a device as the sidecar or a capture file is refused at once, never read",
          "[hostile][machines]") {
  ScratchDir dir;
  fs::path root = copy_machine(dir);
  fs::remove(root / ".rocmdoc/machine.json");
  REQUIRE(::mkfifo((root / ".rocmdoc/machine.json").c_str(), 0600) == 0);
  auto started = std::chrono::steady_clock::now();
  auto r = run_rocmdoc({"check", "--root", root.string()});
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(".rocmdoc/machine.json: not a regular file") != std::string::npos);

  // A capture (root/ beside cmd/): its env.txt a FIFO, its id.txt a link to
  // /dev/zero, which resolves inside cmd/ and is not there.
  ScratchDir cap;
  fs::path croot = cap.path / "root";
  fs::create_directories(croot / "etc");
  write(croot / "etc/os-release", "ID=ubuntu\nVERSION_ID=\"24.04\"\n");
  fs::create_directories(cap.path / "cmd");
  REQUIRE(::mkfifo((cap.path / "cmd/env.txt").c_str(), 0600) == 0);
  auto c = run_rocmdoc({"facts", "--root", croot.string()});
  CHECK(c.exit_code == 2);
  CHECK(c.err.find("cmd/env.txt: not a regular file") != std::string::npos);
  fs::remove(cap.path / "cmd/env.txt");
  fs::create_symlink("/dev/zero", cap.path / "cmd/id.txt");
  c = run_rocmdoc({"facts", "--root", croot.string()});
  CHECK(c.exit_code == 2);
  CHECK(c.err.find("cmd/id.txt") != std::string::npos);
}

TEST_CASE("D6: the host name is redacted as a word, not inside amdgpu or a package name", "[hostile][snapshot]") {
  Redactor r({}, "gpu");
  CHECK(r.text("amdgpu libdrm-amdgpu1 gpu_node gpu-2 gpu gpu.example.com root@gpu:~") ==
        "amdgpu libdrm-amdgpu1 gpu_node gpu-2 host host.example.com root@host:~");
  Redactor fqdn({}, "node7");
  CHECK(fqdn.text("Linux version 6.8.0 (buildd@node7) node70 xnode7") ==
        "Linux version 6.8.0 (buildd@host) node70 xnode7");
}

TEST_CASE("D11, D24: a facts file with a fact of the wrong kind is refused with its name", "[hostile][facts]") {
  ScratchDir dir;
  std::string facts = good_facts();
  auto refused = [&](const std::string& name, const std::string& text, const std::string& why) {
    std::string path = (dir.path / name).string();
    write(path, text);
    const std::vector<std::vector<std::string>> commands = {
        {"check", "--facts", path}, {"install", "--auto", "--dry-run", "--facts", path}, {"fix", "--dry-run", "--facts", path}};
    for (auto& args : commands) {
      auto r = run_rocmdoc(args);
      INFO(args[0] << ": " << r.err);
      CHECK(r.exit_code == 2);
      CHECK(r.err.find(path) != std::string::npos);
      CHECK(r.err.find(why) != std::string::npos);
    }
  };
  Json doc = Json::parse(facts);
  Json vendor = doc;
  for (auto& g : vendor["pci"]["gpus"]) g["vendor"] = Json::array({"amd"});
  refused("vendor.json", vendor.dump(), "pci.gpus[].vendor: a list, where the fact is a string");
  Json release = doc;
  release["kernel"]["release"] = 12345;
  refused("release.json", release.dump(), "kernel.release: a number (12345), where the fact is a string");
  Json section = doc;
  section["kernel"] = "6.8.0";
  refused("section.json", section.dump(), "kernel: a string (\"6.8.0\"), where the fact is an object");
  Json stranger = doc;
  stranger["kernel"]["releases"] = "6.8.0";
  refused("name.json", stranger.dump(), "kernel.releases: not a fact of schema 1");
  // Each key once: with two, nlohmann would keep the last without a word.
  std::string dup = facts.substr(0, facts.rfind('}')) + ", \"kernel\": {}}";
  refused("dup.json", dup, "the key \"kernel\" is given twice in the top level");
  // Unknown and null are fine anywhere, and the saved document is a fit.
  Json unknowns = doc;
  unknowns["kernel"]["release"] = unknown("not read");
  unknowns["pci"]["gpus"][0]["vendor"] = nullptr;
  std::string ok = (dir.path / "ok.json").string();
  write(ok, unknowns.dump());
  auto r = run_rocmdoc({"check", "--facts", ok});
  INFO(r.err);
  CHECK(r.exit_code <= 1);
}

TEST_CASE("D18: check's text shows no control character from a facts file, and its JSON keeps the bytes",
          "[hostile][check]") {
  ScratchDir dir;
  Json doc = Json::parse(good_facts());
  doc["distro"]["pretty_name"] = "Ubuntu \x1b]0;PWNED\x07\x1b[2J \xc2\x9b" "8m";
  doc["kernel"]["release"] = "6.8.0-45-generic\x1b[8m";
  std::string path = (dir.path / "esc.json").string();
  write(path, doc.dump());
  auto r = run_rocmdoc({"check", "--facts", path});
  CHECK(r.exit_code <= 1);
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK(r.out.find('\x07') == std::string::npos);
  CHECK(r.out.find("\xc2\x9b") == std::string::npos);
  CHECK(r.out.find("Ubuntu ?]0;PWNED??[2J ?8m") != std::string::npos);
  auto j = run_rocmdoc({"check", "--facts", path, "--json"});
  CHECK(j.out.find("PWNED\\u0007\\u001b[2J") != std::string::npos);  // JSON escapes, the bytes kept
  CHECK(printable("a\tb\nc\x1b\x7f\xc2\x85", true) == "a\tb\nc???");
}

TEST_CASE("D19, D20: an empty --root, --facts or --rules, and --facts with --root, are usage errors",
          "[hostile][cli]") {
  const std::vector<std::vector<std::string>> empties = {
      {"facts", "--root", ""},  {"check", "--facts", ""}, {"check", "--root", ""},
      {"explain", "--root", "", "hipErrorNoBinaryForGpu"}, {"install", "--auto", "--dry-run", "--root", ""},
      {"check", "--rules", ""}, {"snapshot", ""},         {"facts", "-o", ""},
      {"rules", "lint", ""}};
  for (auto& args : empties) {
    auto r = run_rocmdoc(args);
    INFO(args[0] << " " << args[1]);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("an empty value names no file or directory") != std::string::npos);
  }
  ScratchDir dir;
  std::string path = (dir.path / "f.json").string();
  write(path, good_facts());
  for (const char* cmd : {"check", "fix"}) {
    std::vector<std::string> args{cmd, "--facts", path, "--root", machine_root("ubuntu2204-rx6700xt")};
    if (std::string(cmd) == "fix") args.push_back("--dry-run");
    auto r = run_rocmdoc(args);
    CHECK(r.exit_code == 2);
    CHECK(r.err == std::string("rocmdoc ") + cmd + ": --facts and --root exclude each other\n");
  }
}

TEST_CASE("D22: error messages say what is wrong, once", "[hostile][cli]") {
  ScratchDir dir;
  std::string missing = (dir.path / "nope").string();
  auto lint = run_rocmdoc({"rules", "lint", missing});
  CHECK(lint.exit_code == 2);
  CHECK(lint.err == missing + ": not a directory\nrocmdoc: 1 error in the rules; nothing was checked\n");

  auto longroot = run_rocmdoc({"check", "--root", "/tmp/" + std::string(5000, 'a')});
  CHECK(longroot.exit_code == 2);
  CHECK(longroot.err.find("File name too long") != std::string::npos);

  fs::path rules = dir.path / "rules";
  fs::create_directories(rules);
  fs::copy(source_path("rules/catalogue"), rules / "catalogue", fs::copy_options::recursive);
  fs::copy(source_path("rules/matrix"), rules / "matrix", fs::copy_options::recursive);
  std::string facts = (dir.path / "f.json").string();
  write(facts, good_facts());
  auto install = run_rocmdoc({"install", "--auto", "--dry-run", "--facts", facts, "--rules", rules.string()});
  CHECK(install.exit_code == 2);
  CHECK(install.err.find("no install recipes") != std::string::npos);

  fs::path root = copy_machine(dir);
  Json side = Json::parse(std::ifstream(root / ".rocmdoc/machine.json"));
  side["user"]["uid"] = -1;
  write(root / ".rocmdoc/machine.json", side.dump());
  auto uid = run_rocmdoc({"check", "--root", root.string()});
  CHECK(uid.exit_code == 2);
  CHECK(uid.err.find("user.uid: not a whole number 0 or more (-1)") != std::string::npos);
}

TEST_CASE("D23: a key given twice or a second YAML document is an error at its line", "[hostile][rules]") {
  auto dup = parse_yaml_records("a: 1\nb:\n  c: 2\n  c: 3\n");
  REQUIRE(!dup.records);
  CHECK(dup.error.line == 4);
  CHECK(dup.error.message == "the key 'c' is given twice in this mapping (first on line 3)");
  auto docs = parse_yaml_records("a: 1\n---\nb: 2\n");
  REQUIRE(!docs.records);
  CHECK(docs.error.line == 2);  // the `---` that starts it
  CHECK(docs.error.message.find("a second YAML document") != std::string::npos);

  ScratchDir dir;
  fs::path rules = rules_with(dir, "zz.yaml", problem_yaml("    area: no-such-area\n"));
  auto r = run_rocmdoc({"rules", "lint", rules.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("zz.yaml:4:5: refused: the key 'area' is given twice") != std::string::npos);
}

TEST_CASE("D23: anything named *.yaml in a rules directory that is not a regular file is an error", "[hostile][rules]") {
  ScratchDir dir;
  fs::path rules = rules_with(dir, "", "");
  auto lint_says = [&](const std::string& why) {
    auto r = run_rocmdoc({"rules", "lint", rules.string()});
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(why) != std::string::npos);
  };
  fs::path odd = rules / "catalogue" / "odd.yaml";
  REQUIRE(::mkfifo(odd.c_str(), 0600) == 0);
  lint_says("odd.yaml: not a regular file");
  fs::remove(odd);
  fs::create_directory(odd);
  lint_says("odd.yaml: not a regular file");
  fs::remove(odd);
  fs::create_symlink("odd.yaml", odd);
  lint_says("odd.yaml: cannot read: Too many levels of symbolic links");
  fs::remove(odd);
  fs::create_symlink("/dev/zero", odd);
  lint_says("odd.yaml: not a regular file");
}

TEST_CASE("D25: install --dry-run says the journal is corrupt, as the real run would stop on it",
          "[hostile][install]") {
  ScratchDir dir;
  fs::path root = copy_machine(dir);
  write(root / "var/lib/rocmdoc/install.json", "garbage{\n");
  auto r = run_rocmdoc({"install", "--auto", "--dry-run", "--root", root.string()});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("/var/lib/rocmdoc/install.json is not valid JSON") != std::string::npos);
  CHECK(r.out.find("move it aside to start afresh (the real run stops here with exit 2)") != std::string::npos);
}

TEST_CASE("D26: explain --no-probe names what confirmed a cause, never a blank machine", "[hostile][explain]") {
  auto r = run_rocmdoc({"explain", "--no-probe",
                        "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or "
                        "directory for GPU arch : gfx1031"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("the facts of  ") == std::string::npos);
  CHECK(r.out.find("high confidence: what the text shows, with rocmdoc's matrix, confirm it") != std::string::npos);
}

TEST_CASE("JSON from outside: depth, repeated keys and every parser exception are bounded", "[hostile][facts]") {
  CHECK(parse_json_bounded("[[[]]]", 3));
  auto deep = parse_json_bounded("[[[[]]]]", 3);
  REQUIRE(!deep);
  CHECK(deep.error() == "nested deeper than 3 levels");
  auto dup = parse_json_bounded(R"({"a": {"b": [{"c": 1, "c": 2}]}})", 10);
  REQUIRE(!dup);
  CHECK(dup.error() == "the key \"c\" is given twice in a.b[]");
  CHECK(parse_json_bounded(R"({"a": [{"c": 1}, {"c": 2}], "b": {"c": 3}})", 10));
  for (const char* bad : {"1e999", "{\"a\": 1", "\"\\ud800\"", "[1,]", ""}) {
    INFO(bad);
    auto r = parse_json_bounded(bad, 10);
    REQUIRE(!r);
    CHECK(starts_with(r.error(), "not valid JSON ("));
  }
}

TEST_CASE("bytes that are not UTF-8 in a recorded machine's files never end a command", "[hostile][facts]") {
  // A rule's reason or a finding's evidence shows facts as JSON text; a
  // string holding invalid UTF-8 used to make that throw (nlohmann's
  // type_error 316) from inside the rule engine.
  ScratchDir dir;
  fs::path root = copy_machine(dir);
  write(root / "etc/os-release",
        "NAME=\"Ubuntu\xff\"\nID=ubuntu\nVERSION_ID=\"24.04\xfe\"\nPRETTY_NAME=\"Ubuntu \xc3\x28 24.04\"\n");
  write(root / "proc/cmdline", "BOOT_IMAGE=/vmlinuz-\xff root=UUID=x ro amdgpu.cwsr_enable=\xfe\n");
  write(root / "proc/version", "Linux version 6.8.0-45-generic\xff (buildd@lcy02) #45-Ubuntu SMP\n");
  for (auto args : std::vector<std::vector<std::string>>{
           {"check", "--root", root.string()},
           {"check", "--json", "--root", root.string()},
           {"check", "-v", "--root", root.string()},
           {"explain", "--root", root.string(), "torch.cuda.is_available() is False"},
           {"explain", "--json", "--root", root.string(), "hipErrorNoBinaryForGpu"},
           {"facts", "--root", root.string()},
           {"install", "--dry-run", "--root", root.string()}}) {
    auto r = run_rocmdoc(args);
    INFO(args[0] << " " << args[1] << ": " << r.err);
    CHECK(r.exit_code >= 0);
    CHECK(r.exit_code <= 5);
    CHECK(r.err.find("type_error") == std::string::npos);
    CHECK(r.err.find("terminate") == std::string::npos);
  }
}
