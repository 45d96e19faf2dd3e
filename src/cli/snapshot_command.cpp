#include <unistd.h>

#include <filesystem>
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "facts/facts_document.h"
#include "snapshot/snapshot.h"

namespace rocmdoc {

namespace {

std::string live_hostname() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

// A temporary directory removed on every way out.
struct TempDir {
  std::string path;
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "rocmdoc-snapshot-XXXXXX").string();
    if (::mkdtemp(tmpl.data())) path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

// tar via argv (never a shell); written beside the target, then renamed,
// so FILE is never half-written.
Result<bool> pack(const std::string& tree, const std::string& output) {
  std::string tmp = output + ".tmp-rocmdoc";
  SystemProcessRunner runner;
  auto r = runner.run({"tar", "--sort=name", "--owner=0", "--group=0", "--numeric-owner", "-czf", tmp, "-C", tree, "."},
                      std::chrono::minutes(5));
  if (!r.succeeded()) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    return Result<bool>::fail("tar failed: " + (r.error.empty() ? r.err : r.error));
  }
  std::error_code ec;
  std::filesystem::rename(tmp, output, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    return Result<bool>::fail(output + ": " + ec.message());
  }
  return Result<bool>::ok(true);
}

}  // namespace

int run_snapshot_command(const MachineOptions& options, const SnapshotOptions& snapshot, std::ostream& out,
                         std::ostream& err) {
  auto opened = open_machine(options);
  if (!opened) {
    err << "rocmdoc: " << opened.error() << "\n";
    return kExitUsage;
  }
  Machine& machine = **opened;
  // Probe through recording layers: the snapshot holds what was touched.
  auto recording_fs = std::make_unique<RecordingFileSystem>(std::move(machine.fs));
  auto recording_runner = std::make_unique<RecordingProcessRunner>(std::move(machine.runner));
  RecordingFileSystem& fs = *recording_fs;
  RecordingProcessRunner& runner = *recording_runner;
  machine.fs = std::move(recording_fs);
  machine.runner = std::move(recording_runner);
  collect_facts(machine, options.probe);

  Redactor redactor;
  if (!snapshot.no_redact) redactor = redactor_for(fs.inner(), machine, machine.live ? live_hostname() : "");

  TempDir tree;
  if (tree.path.empty()) {
    err << "rocmdoc: cannot create a temporary directory\n";
    return kExitUsage;
  }
  auto summary = write_snapshot_tree(fs.inner(), fs.log(), machine, runner.results(), redactor, tree.path);
  if (!summary) {
    err << "rocmdoc: " << summary.error() << "\n";
    return kExitUsage;
  }
  auto packed = pack(tree.path, snapshot.output);
  if (!packed) {
    err << "rocmdoc: " << packed.error() << "\n";
    return kExitUsage;
  }
  out << fmt::format("wrote {}: {} files, {} links, {} device nodes, {} command outputs{}\n", snapshot.output,
                     summary->files, summary->links, summary->nodes, summary->commands,
                     redactor.active() ? " (user names, home paths and host name replaced; --no-redact keeps them)" : "");
  out << fmt::format("read it back with: mkdir snap && tar -xzf {} -C snap && rocmdoc facts --root snap\n",
                     snapshot.output);
  return kExitOk;
}

}  // namespace rocmdoc
