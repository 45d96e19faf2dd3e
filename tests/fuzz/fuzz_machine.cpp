// The files and command outputs of a recorded machine, each parsed where
// the probes parse it: the first byte picks one, the rest replaces it in a
// fixture machine (tests/machines/), and every probe runs (collect_facts),
// so each parser sees the bytes in its real context. Also the parsers a
// recording has outside the probes: a snapshot's sidecar, a capture's `ls`
// listing and `id` output, gpg's colon listing, pci.ids, the journal.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>

#include "fuzz_support.h"

#include "facts/facts_document.h"
#include "formats/gpg_key_listing.h"
#include "formats/pci_names.h"
#include "install/run/executor.h"
#include "machine/recorded_machine.h"

#ifndef ROCMDOC_SOURCE_DIR
#error "ROCMDOC_SOURCE_DIR names the source tree (the fixtures)"
#endif

using namespace rocmdoc;

namespace {

// Every answer of the fixture's files kept after the first: the fixture
// never changes, and the fuzzer runs thousands of collections.
class CachedFileSystem : public FileSystem {
 public:
  explicit CachedFileSystem(std::unique_ptr<FileSystem> inner) : inner_(std::move(inner)) {}
  Result<std::string> read_file(const std::string& path, size_t max_bytes) override {
    auto key = std::make_pair(path, max_bytes);
    auto it = reads_.find(key);
    if (it == reads_.end()) it = reads_.emplace(key, inner_->read_file(path, max_bytes)).first;
    return it->second;
  }
  Result<std::vector<std::string>> list_dir(const std::string& path) override {
    auto it = lists_.find(path);
    if (it == lists_.end()) it = lists_.emplace(path, inner_->list_dir(path)).first;
    return it->second;
  }
  Result<std::string> read_link(const std::string& path) override {
    auto it = links_.find(path);
    if (it == links_.end()) it = links_.emplace(path, inner_->read_link(path)).first;
    return it->second;
  }
  FileStat stat(const std::string& path) override {
    auto it = stats_.find(path);
    if (it == stats_.end()) it = stats_.emplace(path, inner_->stat(path)).first;
    return it->second;
  }

 private:
  std::unique_ptr<FileSystem> inner_;
  std::map<std::pair<std::string, size_t>, Result<std::string>> reads_;
  std::map<std::string, Result<std::vector<std::string>>> lists_;
  std::map<std::string, Result<std::string>> links_;
  std::map<std::string, FileStat> stats_;
};

// The fixture with one file's bytes replaced (or added, with its folders).
class OverrideFileSystem : public FileSystem {
 public:
  OverrideFileSystem(FileSystem& base, std::string path, std::string bytes)
      : base_(base), path_(std::move(path)), bytes_(std::move(bytes)) {}
  Result<std::string> read_file(const std::string& path, size_t max_bytes) override {
    if (!is_target(path)) return base_.read_file(path, max_bytes);
    if (bytes_.size() > max_bytes) return Result<std::string>::fail(path + ": larger than the limit");
    return Result<std::string>::ok(bytes_);
  }
  Result<std::vector<std::string>> list_dir(const std::string& path) override {
    auto names = base_.list_dir(path);
    std::string child = child_on_way(path);
    if (child.empty()) return names;
    std::vector<std::string> out = names ? *names : std::vector<std::string>{};
    if (std::find(out.begin(), out.end(), child) == out.end()) out.push_back(child);
    std::sort(out.begin(), out.end());
    return Result<std::vector<std::string>>::ok(out);
  }
  Result<std::string> read_link(const std::string& path) override { return base_.read_link(path); }
  FileStat stat(const std::string& path) override {
    FileStat st = base_.stat(path);
    if (path == path_) {
      st.type = FileType::regular, st.mode = 0644, st.size = bytes_.size(), st.error.clear();
    } else if (st.type == FileType::missing && !child_on_way(path).empty()) {
      st.type = FileType::directory, st.mode = 0755, st.error.clear();
    }
    return st;
  }

 private:
  bool is_target(const std::string& path) {
    if (path == path_) return true;
    auto real = base_.resolve(path);
    return real && *real == path_;
  }
  // The name under dir on the way to the replaced file, or "".
  std::string child_on_way(const std::string& dir) const {
    std::string prefix = dir == "/" ? "/" : dir + "/";
    if (path_.rfind(prefix, 0) != 0) return "";
    std::string rest = path_.substr(prefix.size());
    return rest.substr(0, rest.find('/'));
  }
  FileSystem& base_;
  std::string path_;
  std::string bytes_;
};

struct Fixture {
  std::unique_ptr<Machine> recorded;
  std::unique_ptr<CachedFileSystem> fs;
};

Fixture& fixture(const std::string& name) {
  static std::map<std::string, Fixture> fixtures;
  auto it = fixtures.find(name);
  if (it != fixtures.end()) return it->second;
  auto m = open_recorded_machine(std::string(ROCMDOC_SOURCE_DIR) + "/tests/machines/" + name + "/root");
  if (!m) {
    std::fprintf(stderr, "fixture %s: %s\n", name.c_str(), m.error().c_str());
    std::abort();
  }
  Fixture f;
  f.recorded = std::move(m.value());
  f.fs = std::make_unique<CachedFileSystem>(std::move(f.recorded->fs));
  return fixtures.emplace(name, std::move(f)).first->second;
}

struct Place {
  const char* machine;
  const char* path;  // resolved, in the machine's namespace
};

// Selectors 0..kFiles-1: a file the probes read.
constexpr Place kFiles[] = {
    {"ubuntu2404-rx7900xtx", "/var/lib/dpkg/status"},
    {"ubuntu2404-rx7900xtx", "/usr/lib/os-release"},
    {"ubuntu2404-rx7900xtx", "/proc/cmdline"},
    {"ubuntu2404-rx7900xtx", "/proc/modules"},
    {"ubuntu2404-rx7900xtx", "/sys/devices/virtual/kfd/kfd/topology/nodes/1/properties"},
    {"ubuntu2404-rx7900xtx", "/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/0000:02:00.0/0000:03:00.0/config"},
    {"ubuntu2404-rx7900xtx", "/etc/apt/sources.list.d/rocm.list"},
    {"ubuntu2404-rx7900xtx", "/etc/apt/sources.list.d/ubuntu.sources"},
    {"ubuntu2404-rx7900xtx", "/etc/apt/preferences.d/rocm-pin-600"},
    {"ubuntu2404-rx7900xtx", "/var/lib/rocmdoc/install.json"},
    {"debian12-vm-distro-rocm", "/usr/lib/python3/dist-packages/torch/version.py"},
    {"ubuntu2404-rx7900xtx", "/opt/fuzz-venv/pyvenv.cfg"},
    {"ubuntu2404-rx7900xtx", "/proc/cpuinfo"},
    {"ubuntu2404-rx7900xtx", "/etc/group"},
};
constexpr unsigned kFiles_n = sizeof kFiles / sizeof kFiles[0];
// Then: dmesg's output, the sidecar, an `ls -la` listing, `id` output,
// gpg --with-colons, pci.ids.
enum Other : unsigned { kDmesg = kFiles_n, kSidecar, kLs, kId, kGpg, kPciIds, kCount };

void collect_with(const Place& place, std::string bytes, std::map<std::string, ProcessResult> commands) {
  Fixture& f = fixture(place.machine);
  Machine m;
  m.live = false;
  m.root = "/fuzz";
  m.recording_kind = "snapshot";
  m.user = f.recorded->user;
  m.set_env({{"PATH", "/usr/bin:/bin"}, {"HOME", "/home/user"}}, {"*"});
  m.fs = std::make_unique<OverrideFileSystem>(*f.fs, place.path, std::move(bytes));
  m.runner = std::make_unique<RecordedProcessRunner>(std::move(commands));
  ProbeOptions options;
  options.python_paths = {"/opt/fuzz-venv"};
  Json facts = collect_facts(m, options);
  (void)facts_to_string(facts);
  if (std::string(place.path) == "/var/lib/rocmdoc/install.json") (void)read_journal(*m.fs, place.path);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto [which, text] = fuzz::select(data, size, kCount);
  std::string bytes(text);
  if (which < kFiles_n) {
    collect_with(kFiles[which], std::move(bytes), {});
  } else if (which == kDmesg) {
    ProcessResult r;
    r.started = true, r.exit_code = 0, r.out = std::move(bytes);
    collect_with({"ubuntu2404-rx7900xtx", "/fuzz-unused"}, "", {{"dmesg", r}});
  } else if (which == kSidecar) {
    Machine m;
    std::map<std::string, FileStat> nodes;
    (void)apply_sidecar_text(m, bytes, nodes);
  } else if (which == kLs) {
    (void)parse_ls_listing(bytes, {{"ann", 1000}}, {{"render", 992}, {"video", 44}});
  } else if (which == kId) {
    (void)parse_id_output(bytes);
  } else if (which == kGpg) {
    for (auto& key : parse_gpg_colons(bytes)) (void)key;
  } else if (which == kPciIds) {
    // pci.ids is read from a path by design (libpci's format and place).
    char path[] = "/tmp/rocmdoc-fuzz-pciids-XXXXXX";
    int fd = ::mkstemp(path);
    if (fd < 0) return 0;
    if (::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size())) {
      PciNameDatabase db(path);
      (void)db.vendor(0x1002);
      (void)db.device(0x1002, 0x744c);
      (void)db.class_name(0x030000);
      (void)db.class_name(0x038000);
    }
    ::close(fd);
    ::unlink(path);
  }
  return 0;
}
