// FileSystem over the real disk: the live machine ("/") or a recorded tree
// under a prefix (--root DIR, an unpacked snapshot, a fixture).
#pragma once

#include "platform/filesystem.h"

namespace rocmdoc {

class HostFileSystem : public FileSystem {
 public:
  // prefix "/" (or empty) is the live machine. Any other prefix is a
  // recorded tree: paths are resolved inside it, and "link stubs" count as
  // symlinks (see is_link_stub in the .cpp).
  explicit HostFileSystem(std::string prefix);

  Result<std::string> read_file(const std::string& path, size_t max_bytes = kDefaultReadLimit) override;
  Result<std::vector<std::string>> list_dir(const std::string& path) override;
  Result<std::string> read_link(const std::string& path) override;
  FileStat stat(const std::string& path) override;
  Result<bool> try_open_read_write(const std::string& path) override;
  Result<std::string> read_records(const std::string& path, size_t max_bytes = kDefaultReadLimit) override;

  bool is_live() const { return prefix_.empty(); }
  const std::string& prefix() const { return prefix_; }

 protected:
  FileStat stat_under_resolved(const std::string& path) override;
  Result<std::string> read_link_under_resolved(const std::string& path) override;

 private:
  // Host path for a machine path: on a recorded tree symlinks are resolved
  // in the machine's namespace first, so none can point out of the tree.
  Result<std::string> host_path(const std::string& path);
  // The same for the entry itself, not followed if it is a link (stat, read_link).
  Result<std::string> entry_host_path(const std::string& path);
  // stat() and read_link() on a host path: the machine path itself on the
  // live machine, prefix + the resolved path on a recorded tree.
  FileStat stat_host(const std::string& host) const;
  Result<std::string> read_link_host(const std::string& host, const std::string& path) const;
  std::string prefix_;
};

// The reason text for an errno value, as the facts document shows it.
std::string errno_reason(int err);

}  // namespace rocmdoc
