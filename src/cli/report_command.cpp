// rocmdoc report: check (and explain, for a log) as one Markdown document
// to paste into an issue, redacted unless --no-redact (docs/report.md).
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "base/build_info.h"
#include "base/text.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/workloads.h"
#include "explain/explanation.h"
#include "facts/facts_document.h"
#include "output/explain_output.h"
#include "output/report_output.h"
#include "output/text_report.h"
#include "platform/atomic_file.h"
#include "snapshot/secret_values.h"
#include "snapshot/snapshot.h"

extern char** environ;

namespace rocmdoc {

namespace {

// -o FILE is a report for other people: never written through a link (it
// could point anywhere) nor into a device, pipe or directory.
Result<bool> check_output_path(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Result<bool>::ok(true);
    return Result<bool>::fail(path + ": " + std::strerror(errno));
  }
  if (S_ISLNK(st.st_mode)) return Result<bool>::fail(path + ": is a symbolic link; give the file itself");
  if (!S_ISREG(st.st_mode)) return Result<bool>::fail(path + ": is not a regular file (a device, pipe or directory)");
  return Result<bool>::ok(true);
}

// Explain's text for the log, on the same facts check used.
Result<std::string> explain_log(const ReportOptions& options, const Json& facts, const std::string& facts_from,
                                std::istream& in, std::ostream& err) {
  using R = Result<std::string>;
  RuleSources sources{options.rules_dir};
  sources.compile_patterns = true;
  sources.compile_built_in_patterns = false;  // the scanner compiles them (rule_loader.h)
  Knowledge knowledge = load_knowledge(sources);
  if (!knowledge.errors.empty()) {
    print_load_errors(knowledge.errors, err);
    return R::fail("the rules do not load");
  }
  LogScanner scanner(knowledge.catalogue.signatures, knowledge.catalogue.origins);
  if (!scanner.error().empty()) return R::fail("a signature does not compile: " + scanner.error());
  std::ifstream file;
  std::streambuf* source = in.rdbuf();
  if (options.log != "-") {
    std::error_code ec;
    if (std::filesystem::is_directory(options.log, ec)) return R::fail(options.log + ": is a directory, not a log");
    file.open(options.log, std::ios::binary);
    if (!file) return R::fail(options.log + ": cannot open: " + std::strerror(errno));
    scanner.set_source(options.log);
    source = file.rdbuf();
  }
  std::string buf(1 << 20, '\0');
  for (;;) {
    std::streamsize n = source->sgetn(buf.data(), static_cast<std::streamsize>(buf.size()));
    if (n <= 0) break;
    scanner.feed(std::string_view(buf.data(), static_cast<size_t>(n)));
  }
  if (file.is_open() && file.bad()) return R::fail(options.log + ": read error");
  scanner.finish();
  Explanation e = explain(scanner.result(), facts, knowledge);
  e.machine_problems = machine_problems(e, knowledge);
  ExplainTextOptions text;
  text.facts_from = facts_from;
  return R::ok(render_explain_text(e, text));
}

std::string live_hostname() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

// The recorded machine's host name: /etc/hostname in its tree.
std::string recorded_hostname(Machine& machine) {
  auto text = machine.fs->read_file("/etc/hostname", 4096);
  if (!text) return "";
  auto lines = split_lines(*text);
  return lines.empty() ? "" : trim(lines.front());
}

// The environment a secret could come from: this process's on the live
// machine (rocmdoc reads only a few variables, the report masks the rest),
// or everything a recording's sidecar holds.
std::map<std::string, std::string> secret_environment(Machine* machine) {
  std::map<std::string, std::string> env;
  if (!machine) return env;
  if (machine->live) {
    for (char** e = environ; e && *e; ++e) {
      std::string entry = *e;
      auto eq = entry.find('=');
      if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
    }
    return env;
  }
  auto sidecar = machine->fs->read_file(kSidecarPath, 64 << 20);
  if (!sidecar) return env;
  Json doc = Json::parse(*sidecar, nullptr, false);
  const Json& values = field(field(doc, "env"), "values");
  if (values.is_object())
    for (auto& [k, v] : values.items())
      if (v.is_string()) env[k] = v.get<std::string>();
  return env;
}

// The user names a facts document names (access.user), for --facts where
// there is no machine to read /etc/passwd from.
Redactor facts_redactor(const Json& facts) {
  std::map<std::string, std::string> names;
  const Json& user = field(field(facts, "access"), "user");
  for (const char* key : {"sudo_user", "target", "name"}) {
    const Json& v = field(user, key);
    if (!v.is_string()) continue;
    std::string name = v.get<std::string>();
    if (name.empty() || name == "root" || names.count(name)) continue;
    names[name] = names.empty() ? "user" : "user" + std::to_string(names.size() + 1);
  }
  return Redactor(std::move(names), "");
}

// Words a user name must not replace: the distribution's own ids (a cloud
// image's user is often called "ubuntu" or "debian").
std::vector<std::string> kept_words(const Json& facts) {
  std::vector<std::string> keep;
  const Json& distro = field(facts, "distro");
  if (field(distro, "id").is_string()) keep.push_back(field(distro, "id").get<std::string>());
  const Json& like = field(distro, "id_like");
  if (like.is_array())
    for (auto& w : like)
      if (w.is_string()) keep.push_back(w.get<std::string>());
  return keep;
}

}  // namespace

int run_report_command(const MachineOptions& machine_options, const ReportOptions& options, std::istream& in,
                       std::ostream& out, std::ostream& err) {
  if (!options.facts_file.empty() && machine_options.root != "/") {
    err << "rocmdoc report: --facts and --root exclude each other\n";
    return kExitUsage;
  }
  if (options.log == "-" && options.stdin_is_terminal) {
    err << "rocmdoc report: --log - reads the log from standard input, which is a terminal; pipe it: "
           "CMD 2>&1 | rocmdoc report --log -\n";
    return kExitUsage;
  }
  if (!options.output.empty()) {
    auto ok = check_output_path(options.output);
    if (!ok) {
      err << "rocmdoc report: " << ok.error() << "; nothing written\n";
      return kExitUsage;
    }
  }
  Knowledge knowledge = load_knowledge({options.rules_dir});
  if (!knowledge.errors.empty()) {
    print_load_errors(knowledge.errors, err);
    return kExitUsage;
  }
  auto loaded = machine_facts(machine_options, options.facts_file);
  if (!loaded) {
    err << "rocmdoc report: " << loaded.error() << "\n";
    return kExitUsage;
  }
  Json facts = loaded.value().facts;
  Machine* machine = loaded.value().machine.get();

  MarkdownReportInput input;
  if (!options.log.empty()) {
    std::string from = !options.facts_file.empty() ? "the facts file " + options.facts_file
                       : machine_options.root == "/" ? "this machine"
                                                     : "the recorded machine " + machine_options.root;
    auto explained = explain_log(options, facts, from, in, err);
    if (!explained) {
      err << "rocmdoc report: " << explained.error() << "\n";
      return kExitUsage;
    }
    input.explain_text = *explained;
    input.log_name = options.log == "-" ? "standard input" : options.log;
  }
  CheckReport report = run_check(std::move(facts), knowledge, std::nullopt);
  std::optional<WorkloadReport> workloads;
  const Json& deep = field(report.facts, "deep");
  if (deep.is_object() && !is_unknown(deep)) workloads = judge_workloads(report.facts, knowledge);
  const WorkloadReport* w = workloads ? &*workloads : nullptr;
  input.check = render_json_report(report, w);
  input.check_text = render_text_report(report, {false, false}, w);
  input.rocmdoc_version = rocmdoc_version();
  input.matrix_as_of = knowledge.matrix->as_of();

  MarkdownReportOptions render;
  if (!options.no_redact) {
    Redactor redactor = machine ? redactor_for(*machine->fs, *machine,
                                               machine->live ? live_hostname() : recorded_hostname(*machine))
                                : facts_redactor(report.facts);
    SecretMask secrets(secret_environment(machine));
    std::vector<std::string> keep = kept_words(report.facts);
    render.scrub = [redactor, secrets, keep](const std::string& text) {
      return secrets.apply(redactor.words(text, keep));
    };
  }
  std::string markdown = render_report_markdown(input, render);
  if (options.output.empty()) {
    out << markdown;
    return kExitOk;
  }
  auto written = write_file_atomically(options.output, markdown);
  if (!written) {
    err << "rocmdoc report: " << written.error() << "\n";
    return kExitUsage;
  }
  err << "rocmdoc report: wrote " << options.output << " (" << markdown.size()
      << " characters); paste it into the issue, or attach it\n";
  return kExitOk;
}

}  // namespace rocmdoc
