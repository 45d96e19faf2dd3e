// An in-memory machine for unit tests: files, directories, symlinks and
// device nodes with owners and modes, and injected errors.
#pragma once

#include <map>

#include "platform/filesystem.h"

namespace rocmdoc {

class MemoryFileSystem : public FileSystem {
 public:
  // Parent directories are created as needed.
  MemoryFileSystem& file(const std::string& path, std::string content, unsigned mode = 0644);
  MemoryFileSystem& dir(const std::string& path);
  MemoryFileSystem& symlink(const std::string& path, std::string target);
  MemoryFileSystem& device(const std::string& path, unsigned mode, uint32_t uid, uint32_t gid);
  // What read_records gives for this path (a live machine's /dev/kmsg).
  MemoryFileSystem& records(const std::string& path, std::string content);
  // Every access to this exact path fails with the given reason.
  MemoryFileSystem& fail(const std::string& path, std::string reason);

  Result<std::string> read_file(const std::string& path, size_t max_bytes = kDefaultReadLimit) override;
  Result<std::vector<std::string>> list_dir(const std::string& path) override;
  Result<std::string> read_link(const std::string& path) override;
  Result<std::string> read_records(const std::string& path, size_t max_bytes = kDefaultReadLimit) override;
  FileStat stat(const std::string& path) override;

 private:
  struct Node {
    FileType type = FileType::regular;
    std::string data;  // file content or link target
    unsigned mode = 0644;
    uint32_t uid = 0, gid = 0;
  };
  void make_parents(const std::string& path);
  std::map<std::string, Node> nodes_;
  std::map<std::string, std::string> failures_;
  std::map<std::string, std::string> records_;
};

}  // namespace rocmdoc
