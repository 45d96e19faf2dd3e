// The one door through which probes see a machine's files.
//
// Every path a probe uses is absolute in the *machine's* namespace
// ("/sys/bus/pci/devices"). Which bytes answer depends on the implementation:
// the live root, a recorded tree under a prefix, or memory (tests). Probes
// never touch std::filesystem or open() themselves, so every test can run on
// a recorded machine or in memory.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace rocmdoc {

enum class FileType { missing, regular, directory, symlink, char_device, block_device, other };

const char* file_type_name(FileType t);

struct FileStat {
  FileType type = FileType::missing;
  unsigned mode = 0;  // permission bits only (07777)
  uint32_t uid = 0;
  uint32_t gid = 0;
  uint64_t size = 0;
  // Why stat failed when type == missing and it was not simply absent
  // (for example "permission denied"); empty when the path does not exist.
  std::string error;

  // Known not to exist: a probe may say "no" (null), not "unknown".
  bool absent() const { return type == FileType::missing && error.empty(); }
  // Could not be looked at: a probe records "unknown, because error".
  bool unreadable() const { return type == FileType::missing && !error.empty(); }
};

// Files larger than this are cut when read with the default limit: the
// kernel's attribute files are tiny, and nothing a probe reads needs more.
constexpr size_t kDefaultReadLimit = 4 * 1024 * 1024;

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // Whole file contents, at most max_bytes (more is an error, not a silent cut).
  virtual Result<std::string> read_file(const std::string& path, size_t max_bytes = kDefaultReadLimit) = 0;
  // Entry names (no "." or ".."), sorted.
  virtual Result<std::vector<std::string>> list_dir(const std::string& path) = 0;
  // The target of a symbolic link, as stored (may be relative).
  virtual Result<std::string> read_link(const std::string& path) = 0;
  // lstat(): does not follow a final symlink.
  virtual FileStat stat(const std::string& path) = 0;
  // stat() that follows symlinks (through resolve()).
  FileStat stat_follow(const std::string& path);
  // Canonical path with every symlink resolved inside the machine's
  // namespace (an absolute link target stays inside a recorded root).
  Result<std::string> resolve(const std::string& path);
  bool exists(const std::string& path) { return stat(path).type != FileType::missing; }
  // The names list_dir gives that start with `prefix`, sorted (python3* in /usr/bin).
  Result<std::vector<std::string>> list_dir_starting_with(const std::string& path, std::string_view prefix);
  // Live machines only: open the path read-write (O_NONBLOCK) and close it
  // again, as this process. Recorded machines answer fail("..."), and the
  // caller judges from the recorded owner, group and mode instead.
  virtual Result<bool> try_open_read_write(const std::string& path);
  // A character device that gives one record per read and would block at
  // its end (/dev/kmsg): every record until then, as the device wrote them.
  // Only the live machine has such devices; elsewhere this fails, and the
  // caller asks the tool a recording kept instead (dmesg).
  virtual Result<std::string> read_records(const std::string& path, size_t max_bytes = kDefaultReadLimit);

 protected:
  // For resolve() only: stat() and read_link() of an absolute, normalized
  // path whose parent resolve() has already walked (no symlink in it; it
  // may still be a file, and then the path is missing). The default asks
  // stat()/read_link(); a recorded tree, whose stat() resolves the parent
  // to keep links inside the tree, answers without doing that again:
  // resolve() calling a stat() that calls resolve() on each parent grew
  // with 2^depth (callgrind, check --root on a fixture: 0.49 G instructions
  // before, 0.10 G after). Protected, so a wrapper cannot forward them to
  // the file system it wraps and skip its own stat() (a cache, a recording,
  // an overlay of device nodes).
  virtual FileStat stat_under_resolved(const std::string& path) { return stat(path); }
  virtual Result<std::string> read_link_under_resolved(const std::string& path) { return read_link(path); }
};

// Path helpers for machine-namespace paths (pure string functions).
std::string path_join(const std::string& dir, const std::string& name);
std::string path_dirname(const std::string& path);
std::string path_basename(const std::string& path);
// Collapses "." and "..", duplicate slashes; result is absolute.
std::string path_normalize(const std::string& path);

}  // namespace rocmdoc
