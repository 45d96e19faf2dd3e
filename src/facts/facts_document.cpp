#include "facts/facts_document.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "base/build_info.h"
#include "base/json_input.h"
#include "base/text.h"
#include "facts/facts_check.h"

#include "platform/memoizing_filesystem.h"

#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>

namespace rocmdoc {


static std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {

struct ProbeRun {
  Json section;
  Json commands;
  double ms = 0;
};

ProbeRun run_probe(const ProbeDefinition& probe, Machine& machine, FileSystem& fs, DpkgDatabase& dpkg,
                   const ProbeOptions& options, const Json& facts) {
  ProbeContext ctx(machine, options, &fs, &dpkg);
  auto started = std::chrono::steady_clock::now();
  ProbeRun run;
  try {
    run.section = probe.run(ctx, facts);
  } catch (const std::exception& e) {
    run.section = unknown(std::string("the ") + probe.name + " probe failed: " + e.what());
  }
  run.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  run.commands = ctx.commands_run();
  return run;
}

}  // namespace

Json collect_facts(Machine& machine, const ProbeOptions& options, std::vector<ProbeTiming>* timings) {
  Json facts = Json::object();
  facts["schema"] = kFactsSchema;
  facts["generator"] = "rocmdoc " + rocmdoc_version();
  Json source = Json::object();
  source["kind"] = machine.live ? "live" : "recorded";
  source["root"] = machine.root;
  if (!machine.live) source["recording"] = machine.recording_kind;
  source["collected_at"] = utc_now();
  facts["source"] = source;

  // The probes ask about many of the same paths ("/usr", "/sys/bus/pci",
  // each pyenv shim's prefix): within this collection the machine is read
  // as it is now, and each answer is asked for once.
  MemoizingFileSystem fs(*machine.fs);
  DpkgDatabase dpkg(fs);
  // Each probe is given the document so far: later probes build on earlier
  // sections (kfd on pci's devices).
  Json commands = Json::array();
  for (const auto& probe : probe_catalogue()) {
    ProbeRun run = run_probe(probe, machine, fs, dpkg, options, facts);
    facts[probe.name] = std::move(run.section);
    for (auto& c : run.commands) commands.push_back(std::move(c));
    if (timings) timings->push_back({probe.name, run.ms});
  }
  facts["commands_run"] = std::move(commands);
  return facts;
}

std::string facts_to_string(const Json& facts, int indent) {
  return facts.dump(indent, ' ', false, Json::error_handler_t::replace);
}

Result<Json> load_facts_file(const std::string& path) {
  using R = Result<Json>;
  // Opened without blocking and judged by what was opened (a FIFO swapped in
  // after a stat would block forever), then read no further than the limit.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return R::fail(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return R::fail(path + ": not a regular file");
  }
  auto too_large = [&] {
    return R::fail(path + ": more than " + std::to_string(kMaxFactsFileBytes >> 20) +
                   " MiB; a facts document is at most that");
  };
  if (static_cast<uint64_t>(st.st_size) > kMaxFactsFileBytes) {
    ::close(fd);
    return too_large();
  }
  std::string text;
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return R::fail(path + ": read: " + std::strerror(err));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
    if (text.size() > kMaxFactsFileBytes) {  // it grew after fstat
      ::close(fd);
      return too_large();
    }
  }
  ::close(fd);
  // Nesting is bounded while parsing, and each key is given once
  // (base/json_input.h says why).
  auto parsed = parse_json_bounded(text, kMaxFactsDepth);
  if (!parsed) {
    bool syntax = starts_with(parsed.error(), "not valid JSON");
    return R::fail(path + ": " + (syntax ? "" : "not a rocmdoc facts document: ") + parsed.error());
  }
  Json doc = std::move(parsed.value());
  if (!doc.is_object() || !doc.contains("schema")) return R::fail(path + ": not a rocmdoc facts document (no \"schema\")");
  if (doc["schema"] != kFactsSchema)
    return R::fail(path + ": facts schema " + doc["schema"].dump() + " is not supported (this rocmdoc reads schema 1)");
  if (auto problem = check_facts_shape(doc)) return R::fail(path + ": not a rocmdoc facts document: " + *problem);
  return R::ok(std::move(doc));
}

}  // namespace rocmdoc
