// Device nodes cannot live in git or in a tarball made without root, so a
// recorded machine keeps their type, owner and mode in its sidecar. This
// decorator lays them over the recorded tree: stat() and list_dir() see the
// nodes as the live machine did.
#pragma once

#include <map>
#include <memory>

#include "platform/filesystem.h"

namespace rocmdoc {

class NodeOverlayFileSystem : public FileSystem {
 public:
  NodeOverlayFileSystem(std::unique_ptr<FileSystem> inner, std::map<std::string, FileStat> nodes);

  Result<std::string> read_file(const std::string& path, size_t max_bytes = kDefaultReadLimit) override;
  Result<std::vector<std::string>> list_dir(const std::string& path) override;
  Result<std::string> read_link(const std::string& path) override;
  FileStat stat(const std::string& path) override;
  Result<std::string> read_records(const std::string& path, size_t max_bytes = kDefaultReadLimit) override {
    return inner_->read_records(path, max_bytes);
  }

 private:
  std::unique_ptr<FileSystem> inner_;
  std::map<std::string, FileStat> nodes_;
};

}  // namespace rocmdoc
