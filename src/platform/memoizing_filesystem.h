// A FileSystem decorator for one facts collection: what stat, read_link and
// list_dir answered for a path is remembered, so a path that several probes
// ask about (or each of nine pyenv shims: "/root", "/root/.pyenv",
// ".../pyvenv.cfg") costs one system call.
//
// Only for reading, and only for as long as nothing changes: collect_facts
// wraps the machine's filesystem in one for its probes and drops it when
// they are done, so the next collection (after an install step) reads anew.
// File contents are not kept: each is read once, and they are the large part.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "platform/filesystem.h"

namespace rocmdoc {

class MemoizingFileSystem : public FileSystem {
 public:
  explicit MemoizingFileSystem(FileSystem& inner) : inner_(inner) {}

  Result<std::string> read_file(const std::string& path, size_t max_bytes = kDefaultReadLimit) override {
    return inner_.read_file(path, max_bytes);
  }
  Result<std::vector<std::string>> list_dir(const std::string& path) override;
  Result<std::string> read_link(const std::string& path) override;
  FileStat stat(const std::string& path) override;
  Result<bool> try_open_read_write(const std::string& path) override { return inner_.try_open_read_write(path); }
  Result<std::string> read_records(const std::string& path, size_t max_bytes = kDefaultReadLimit) override {
    return inner_.read_records(path, max_bytes);
  }

 private:
  using Listing = Result<std::vector<std::string>>;

  FileSystem& inner_;
  std::unordered_map<std::string, FileStat> stats_;
  std::unordered_map<std::string, Result<std::string>> links_;
  std::unordered_map<std::string, Listing> listings_;
};

}  // namespace rocmdoc
