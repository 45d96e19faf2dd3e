// check --format prometheus and --textfile, judged by Prometheus's own
// promtool (Debian's prometheus package) on the fixture machines, and the
// systemd units that refresh the file, judged by systemd-analyze verify.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>
#include <tuple>

#include "catch.h"
#include "base/fact.h"
#include "output/prometheus_report.h"
#include "platform/process_runner.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;
namespace fs = std::filesystem;

namespace {

// `promtool check metrics` reads the exposition text on standard input and
// reports format errors and lint problems (names, units, HELP); it exits 0
// with nothing printed when there are none.
ProcessResult promtool_check(const std::string& metrics) {
  ScratchDir dir;
  fs::path file = dir.path / "metrics.prom";
  std::ofstream(file, std::ios::binary) << metrics;
  SystemProcessRunner runner;
  return runner.run({"bash", "-c", "exec promtool check metrics < \"$0\"", file.string()}, std::chrono::seconds(60));
}

void require_promtool_accepts(const std::string& metrics) {
  auto r = promtool_check(metrics);
  INFO(metrics);
  INFO("promtool: " << r.out << r.err << r.error << " (promtool comes from Debian's prometheus package, build-deps.txt)");
  REQUIRE(r.started);
  CHECK(r.exit_code == 0);
  CHECK(r.out + r.err == "");
}

using Series = std::set<std::tuple<std::string, std::string, std::string>>;

// The finding series of the metrics: (id, severity, area). Read by hand, not
// with std::regex: GCC 12 warns inside <regex> in the sanitizer build.
Series finding_series(const std::string& metrics) {
  Series s;
  std::istringstream in(metrics);
  const std::string head = "rocmdoc_check_finding{";
  for (std::string l; std::getline(in, l);) {
    if (l.rfind(head, 0) != 0) continue;
    // rocmdoc_check_finding{id="ID",severity="SEV",area="AREA"} 1
    std::vector<std::string> values;
    size_t at = head.size();
    for (const char* label : {"id=\"", ",severity=\"", ",area=\""}) {
      std::string want(label);
      REQUIRE(l.compare(at, want.size(), want) == 0);
      at += want.size();
      size_t end = l.find('"', at);
      REQUIRE(end != std::string::npos);
      values.push_back(l.substr(at, end - at));
      at = end + 1;
    }
    REQUIRE(l.substr(at) == "} 1");
    s.emplace(values[0], values[1], values[2]);
  }
  return s;
}

// One sample's value (the line "NAME VALUE"); fails when it is not there once.
std::string sample(const std::string& metrics, const std::string& name) {
  std::istringstream in(metrics);
  std::string found;
  int count = 0;
  for (std::string l; std::getline(in, l);)
    if (l.rfind(name + " ", 0) == 0) {
      found = l.substr(name.size() + 1);
      ++count;
    }
  INFO(name);
  REQUIRE(count == 1);
  return found;
}

}  // namespace

TEST_CASE("check --format prometheus passes promtool and says what check --json says", "[cli][prometheus]") {
  auto machines = fixture_machines();
  REQUIRE(machines.size() >= 4);
  for (auto& m : machines) {
    DYNAMIC_SECTION(m) {
      auto prom = run_rocmdoc({"check", "--format", "prometheus", "--root", machine_root(m)});
      auto json = run_rocmdoc({"check", "--json", "--root", machine_root(m)});
      INFO(prom.err);
      CHECK(prom.exit_code == json.exit_code);  // 1 when problems are found, as always
      require_promtool_accepts(prom.out);
      Json report = Json::parse(json.out);
      Series expected;
      for (auto& f : report["findings"]) expected.emplace(f["id"], f["severity"], f["area"]);
      CHECK(finding_series(prom.out) == expected);
      for (auto [severity, key] : {std::pair{"error", "errors"}, {"warning", "warnings"}, {"info", "infos"}})
        CHECK(sample(prom.out, std::string("rocmdoc_check_problems{severity=\"") + severity + "\"}") ==
              std::to_string(report["summary"][key].get<int>()));
      size_t gpus = 0;
      std::istringstream in(prom.out);
      for (std::string l; std::getline(in, l);) gpus += l.rfind("rocmdoc_gpu_info{", 0) == 0;
      CHECK(gpus == report["facts"]["gpus"].size());
      CHECK(sample(prom.out, "rocmdoc_check_success") == "1");
      double now = static_cast<double>(::time(nullptr));
      double last = std::stod(sample(prom.out, "rocmdoc_check_last_run_timestamp_seconds"));
      CHECK(last > now - 300);
      CHECK(last < now + 5);
      double took = std::stod(sample(prom.out, "rocmdoc_check_duration_seconds"));
      CHECK(took > 0);
      CHECK(took < 60);
      // No sample has a timestamp: every sample line is "NAME{...} VALUE".
      std::istringstream lines(prom.out);
      for (std::string l; std::getline(lines, l);) {
        if (l.empty() || l[0] == '#') continue;
        size_t close = l.rfind('}');
        std::string tail = l.substr(close == std::string::npos ? 0 : close + 1);
        std::istringstream words(tail);
        std::vector<std::string> w;
        for (std::string x; words >> x;) w.push_back(x);
        CHECK(w.size() == (close == std::string::npos ? 2u : 1u));
      }
    }
  }
}

TEST_CASE("prometheus label values are escaped as the format says, and promtool reads them", "[cli][prometheus]") {
  CHECK(prometheus_label_value("a\"b\\c\nd") == "a\\\"b\\\\c\\nd");
  CHECK(prometheus_label_value("Navi 31 [Radeon RX 7900 XTX]") == "Navi 31 [Radeon RX 7900 XTX]");
  CheckReport report;
  report.facts = {{"gpus", {{{"address", "0000:03:00.0"}, {"gfx", "gfx1100"}, {"name", "odd \"name\" \\ with\nbreak"}},
                            {{"address", "0000:04:00.0"}, {"gfx", {{"unknown", "no KFD node"}}}, {"name", "é"}}}}};
  std::string metrics = render_prometheus_report(report, {1796152468.25, 0.0123});
  CHECK(metrics.find("rocmdoc_gpu_info{address=\"0000:03:00.0\",gfx=\"gfx1100\",name=\"odd \\\"name\\\" \\\\ with\\nbreak\"} 1\n") !=
        std::string::npos);
  CHECK(metrics.find("gfx=\"unknown\",name=\"é\"} 1\n") != std::string::npos);
  CHECK(metrics.find("rocmdoc_check_last_run_timestamp_seconds 1796152468.250\n") != std::string::npos);
  CHECK(metrics.find("rocmdoc_check_problems{severity=\"error\"} 0\n") != std::string::npos);
  require_promtool_accepts(metrics);
  require_promtool_accepts(render_prometheus_failure({1796152468, 0.5}));
}

TEST_CASE("check --textfile replaces DIR/rocmdoc.prom atomically and nothing but a regular file", "[cli][prometheus]") {
  ScratchDir dir;
  std::string root = machine_root("user-not-in-render");
  fs::path prom = dir.path / "rocmdoc.prom";
  std::ofstream(prom) << "old\n";
  auto r = run_rocmdoc({"check", "--textfile", dir.path.string(), "--root", root});
  INFO(r.err);
  CHECK(r.exit_code == 1);  // problems found, and the file written
  CHECK(r.out.empty());
  std::string written = read_text_file(prom);
  require_promtool_accepts(written);
  CHECK(written.find("rocmdoc_check_finding{id=\"device-node-not-accessible\"") != std::string::npos);
  struct stat st {};
  REQUIRE(::stat(prom.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0644);  // node_exporter runs as its own user
  size_t entries = 0;
  for (auto& e : fs::directory_iterator(dir.path)) entries += (void(e), 1);
  CHECK(entries == 1);  // no temporary file left beside it
  // --format prometheus is what --textfile writes; the others are refused.
  CHECK(run_rocmdoc({"check", "--textfile", dir.path.string(), "--format", "prometheus", "--root", root}).exit_code == 1);
  auto text = run_rocmdoc({"check", "--textfile", dir.path.string(), "--format", "json", "--root", root});
  CHECK(text.exit_code == 2);
  CHECK(text.err.find("--textfile writes Prometheus metrics; --format json") != std::string::npos);
  auto both = run_rocmdoc({"check", "--json", "--format", "text", "--root", root});
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("--json and --format text exclude each other") != std::string::npos);
  CHECK(run_rocmdoc({"check", "--format", "yaml", "--root", root}).exit_code == 2);

  // A link, a directory or a FIFO at the file's place is left alone.
  ScratchDir other;
  fs::path target = other.path / "target";
  std::ofstream(target) << "keep\n";
  fs::remove(prom);
  fs::create_symlink(target, prom);
  auto link = run_rocmdoc({"check", "--textfile", dir.path.string(), "--root", root});
  CHECK(link.exit_code == 2);
  CHECK(link.err.find(prom.string() + ": is a symlink, not a regular file; nothing written") != std::string::npos);
  CHECK(read_text_file(target) == "keep\n");
  CHECK(fs::is_symlink(prom));
  fs::remove(prom);
  fs::create_directory(prom);
  CHECK(run_rocmdoc({"check", "--textfile", dir.path.string(), "--root", root}).exit_code == 2);
  fs::remove(prom);
  REQUIRE(::mkfifo(prom.c_str(), 0644) == 0);
  CHECK(run_rocmdoc({"check", "--textfile", dir.path.string(), "--root", root}).exit_code == 2);
  fs::remove(prom);
  auto missing = run_rocmdoc({"check", "--textfile", (dir.path / "nope").string(), "--root", root});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("nope: no such directory") != std::string::npos);

  // A check that cannot run says so in the file: success 0, no findings.
  auto bad_root = run_rocmdoc({"check", "--textfile", dir.path.string(), "--root", (dir.path / "nope").string()});
  CHECK(bad_root.exit_code == 2);
  std::string failed = read_text_file(prom);
  CHECK(sample(failed, "rocmdoc_check_success") == "0");
  CHECK(failed.find("rocmdoc_check_finding") == std::string::npos);
  require_promtool_accepts(failed);
}

TEST_CASE("the systemd units that refresh the textfile pass systemd-analyze verify", "[cli][prometheus][systemd]") {
  SystemProcessRunner runner;
  if (!runner.run({"systemd-analyze", "--version"}, std::chrono::seconds(20)).succeeded()) {
    WARN("systemd-analyze is not installed: the units were not verified");
    return;
  }
  ScratchDir dir;
  for (std::string unit : {"rocmdoc-textfile.service", "rocmdoc-textfile.timer"}) {
    std::string text = read_text_file(source_path("packaging/systemd/" + unit));
    // verify checks that ExecStart's program exists: the built one stands in
    // for the installed /usr/bin/rocmdoc.
    for (size_t at = text.find("/usr/bin/rocmdoc"); at != std::string::npos; at = text.find("/usr/bin/rocmdoc", at + 1))
      text.replace(at, std::string("/usr/bin/rocmdoc").size(), ROCMDOC_BINARY);
    std::ofstream(dir.path / unit) << text;
  }
  std::string service = read_text_file(dir.path / "rocmdoc-textfile.service");
  CHECK(service.find(std::string("ExecStart=") + ROCMDOC_BINARY + " check --textfile /var/lib/prometheus/node-exporter\n") !=
        std::string::npos);
  auto r = runner.run({"systemd-analyze", "verify", (dir.path / "rocmdoc-textfile.service").string(),
                       (dir.path / "rocmdoc-textfile.timer").string()},
                      std::chrono::seconds(60));
  INFO(r.out << r.err << r.error);
  CHECK(r.exit_code == 0);
  CHECK(r.out + r.err == "");  // an unknown key is only a warning on stderr: none is allowed
  // What the service runs works: the same command, on a fixture, into a scratch directory.
  auto run = run_rocmdoc({"check", "--textfile", dir.path.string(), "--root", machine_root("ubuntu2404-rx7900xtx")});
  CHECK((run.exit_code == 0 || run.exit_code == 1));
  CHECK(fs::is_regular_file(dir.path / "rocmdoc.prom"));
}
