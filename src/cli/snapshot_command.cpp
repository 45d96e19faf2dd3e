#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "facts/facts_document.h"
#include "platform/atomic_file.h"
#include "platform/host_filesystem.h"
#include "platform/signals.h"
#include "snapshot/snapshot.h"

namespace rocmdoc {

namespace {

std::string live_hostname() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

// A temporary directory removed on every way out, Ctrl-C and kill included:
// it holds a copy of this machine's files.
struct TempDir {
  std::string path;
  std::optional<RemoveOnSignal> on_signal;
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "rocmdoc-snapshot-XXXXXX").string();
    HoldSignals made_and_known_together;
    if (::mkdtemp(tmpl.data())) path = tmpl, on_signal.emplace(path);
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

constexpr size_t kMaxSnapshotBytes = size_t{1} << 30;

// tar via argv (never a shell) into a private temporary directory; the
// archive then reaches FILE through write_file_atomically, as every output
// file does: a mkstemp name beside FILE, renamed over a regular file, and
// written into a device or pipe rather than replacing it. Nothing is ever
// opened under a name another user could have planted.
Result<bool> pack(const std::string& tree, const std::string& output) {
  TempDir work;
  if (work.path.empty()) return Result<bool>::fail("cannot create a temporary directory");
  SystemProcessRunner runner;
  auto r = runner.run({"tar", "--sort=name", "--owner=0", "--group=0", "--numeric-owner", "-czf",
                       work.path + "/snapshot.tar.gz", "-C", tree, "."},
                      std::chrono::minutes(5));
  if (!r.succeeded()) return Result<bool>::fail("tar failed: " + (r.error.empty() ? r.err : r.error));
  // Read back through the filesystem door confined to that directory; a
  // real snapshot is a few MB, the bound keeps memory sane.
  auto bytes = HostFileSystem(work.path).read_file("/snapshot.tar.gz", kMaxSnapshotBytes);
  if (!bytes) return Result<bool>::fail("cannot read the archive tar wrote: " + bytes.error());
  // The mode tar would have given it: 0644 less the user's umask (exact
  // modes are for install's files, which apt's sandbox user must read).
  mode_t umask_now = ::umask(0);
  ::umask(umask_now);
  return write_file_atomically(output, *bytes, 0644 & ~umask_now);
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
