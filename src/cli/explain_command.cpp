// rocmdoc explain: scan the text (arguments, files, standard input or a
// command's output) in one streaming pass, then rank the causes against the
// facts of the machine (probed, from a file, or none).
#include <memory>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "output/explain_output.h"
#include "output/terminal_wrap.h"
#include "explain/explanation.h"
#include "facts/facts_document.h"

namespace rocmdoc {

namespace {

constexpr size_t kReadBlock = 256 << 10;  // the scanner takes blocks of this size too: a bigger one only adds buffer memory

void scan_stream(std::streambuf& in, LogScanner& scanner) {
  std::string buf(kReadBlock, '\0');
  for (;;) {
    std::streamsize n = in.sgetn(buf.data(), static_cast<std::streamsize>(buf.size()));
    if (n <= 0) break;
    scanner.feed(std::string_view(buf.data(), static_cast<size_t>(n)));
  }
}

// Files are checked before any is read, so a typo fails fast and whole.
Result<bool> scan_inputs(const ExplainOptions& o, std::istream& in, LogScanner& scanner) {
  for (auto& f : o.files) {
    if (f == "-") continue;
    std::error_code ec;
    if (std::filesystem::is_directory(f, ec)) return Result<bool>::fail(f + ": is a directory, not a log");
    std::ifstream probe(f, std::ios::binary);
    if (!probe) return Result<bool>::fail(f + ": cannot open: " + std::strerror(errno));
  }
  if (!o.text.empty()) {
    std::string joined;
    for (auto& t : o.text) joined += t + "\n";
    scanner.feed(joined);
  }
  for (auto& f : o.files) {
    if (f == "-") {
      scanner.set_source("");
      scan_stream(*in.rdbuf(), scanner);
      continue;
    }
    std::ifstream file(f, std::ios::binary);
    if (!file) return Result<bool>::fail(f + ": cannot open: " + std::strerror(errno));
    scanner.set_source(f);
    scan_stream(*file.rdbuf(), scanner);
    if (file.bad()) return Result<bool>::fail(f + ": read error");
  }
  if (o.text.empty() && o.files.empty() && o.run.empty()) scan_stream(*in.rdbuf(), scanner);
  scanner.finish();
  return Result<bool>::ok(true);
}

// The facts the causes are judged on, and how the report names where they came from.
Result<std::pair<Json, std::string>> explain_facts(const MachineOptions& m, const ExplainOptions& o) {
  using R = Result<std::pair<Json, std::string>>;
  if (o.no_probe) return R::ok({Json::object(), ""});
  auto loaded = machine_facts(m, o.facts_file);
  if (!loaded) return R::fail(loaded.error());
  std::string from = !o.facts_file.empty() ? "the facts file " + o.facts_file
                     : m.root == "/"       ? "this machine"
                                           : "the recorded machine " + m.root;
  return R::ok({std::move(loaded.value().facts), from});
}

}  // namespace

int run_explain_command(const MachineOptions& machine, const ExplainOptions& options, std::istream& in,
                        std::ostream& out, std::ostream& err) {
  if (options.text.empty() && options.files.empty() && options.run.empty() && options.stdin_is_terminal) {
    err << "rocmdoc explain: nothing to explain. Give the text, -f FILE, --run -- CMD, or pipe a log: "
           "CMD 2>&1 | rocmdoc explain\n";
    return kExitUsage;
  }
  RuleSources sources{options.rules_dir};
  sources.compile_patterns = true;
  sources.compile_built_in_patterns = false;  // the scanner compiles them (rule_loader.h)
  Knowledge knowledge = load_knowledge(sources);
  if (!knowledge.errors.empty()) {
    print_load_errors(knowledge.errors, err);
    return kExitUsage;
  }
  // On the heap, to be freed once the text is read: its sets' DFA caches
  // (12 MiB and more on a big log) would otherwise still be held while the
  // facts are read and the explanation is built and rendered, and explain's
  // peak memory would be their sum (bench/README.md).
  auto owned_scanner = std::make_unique<LogScanner>(knowledge.catalogue.signatures, knowledge.catalogue.origins);
  LogScanner& scanner = *owned_scanner;
  if (!scanner.error().empty()) {
    err << "rocmdoc: a signature does not compile: " << scanner.error() << "\n";
    return kExitUsage;
  }
  int child_exit = 0;
  if (!options.run.empty()) {
    // The command's output passes through unchanged while it is scanned.
    StreamOptions stream;
    stream.inherit_stdin = true;
    stream.own_process_group = false;
    // `kill PID`, a service manager or a scheduler signals rocmdoc alone:
    // the command gets it too, and rocmdoc exits with the command's status.
    stream.forward_signals = true;
    ProcessResult r = stream_process(options.run, stream, [&](int fd, std::string_view data) {
      (fd == 1 ? out : err).write(data.data(), static_cast<std::streamsize>(data.size()));
      (fd == 1 ? out : err).flush();
      scanner.feed(data);
    });
    if (!r.started) {
      err << "rocmdoc explain: cannot run " << options.run[0] << ": " << r.error << "\n";
      return kExitUsage;
    }
    if (r.exit_code == 0) return kExitOk;
    child_exit = r.exit_code;
  }
  auto scanned = scan_inputs(options, in, scanner);
  if (!scanned) {
    err << "rocmdoc explain: " << scanned.error() << "\n";
    return kExitUsage;
  }
  ScanResult scan = scanner.take_result();
  owned_scanner.reset();
  auto facts = explain_facts(machine, options);
  if (!facts) {
    err << "rocmdoc explain: " << facts.error() << "\n";
    return kExitUsage;
  }
  // As check's text: no escape sequence of a facts file or a recorded tree
  // reaches the terminal through a finding rendered from it.
  Explanation e = explain(scan, options.json ? facts->first : printable_strings(facts->first), knowledge);
  // check's view of the same machine, said beside the text's.
  if (!facts->second.empty()) e.machine_problems = machine_problems(e, knowledge);
  // With --run the command's output owns stdout; the explanation goes to stderr.
  std::ostream& report = options.run.empty() ? out : err;
  if (options.json) report << facts_to_string(render_explain_json(e, facts->second)) << "\n";
  else {
    ExplainTextOptions text;
    text.verbose = machine.verbosity > 0;
    text.color = options.color;
    text.facts_from = facts->second;
    if (!options.run.empty()) report << "\nrocmdoc explain: " << options.run[0] << " exited with " << child_exit << "\n";
    report << wrap_to_width(render_explain_text(e, text), options.width);
  }
  if (!options.run.empty()) return child_exit;
  return e.recognised() ? kExitOk : kExitProblems;
}

}  // namespace rocmdoc
