#include "machine/node_overlay_filesystem.h"

#include <algorithm>

namespace rocmdoc {

NodeOverlayFileSystem::NodeOverlayFileSystem(std::unique_ptr<FileSystem> inner, std::map<std::string, FileStat> nodes)
    : inner_(std::move(inner)) {
  for (auto& [path, st] : nodes) nodes_[path_normalize(path)] = st;
}

Result<std::string> NodeOverlayFileSystem::read_file(const std::string& path, size_t max_bytes) {
  if (nodes_.count(path_normalize(path))) return Result<std::string>::fail(path + ": not a regular file");
  return inner_->read_file(path, max_bytes);
}

Result<std::vector<std::string>> NodeOverlayFileSystem::list_dir(const std::string& path) {
  auto dir = path_normalize(path);
  std::vector<std::string> extra;
  for (auto& [node, st] : nodes_)
    if (path_dirname(node) == dir) extra.push_back(path_basename(node));
  auto listed = inner_->list_dir(path);
  if (!listed) {
    if (extra.empty()) return listed;
    return Result<std::vector<std::string>>::ok(extra);
  }
  auto names = *listed;
  for (auto& e : extra)
    if (std::find(names.begin(), names.end(), e) == names.end()) names.push_back(e);
  std::sort(names.begin(), names.end());
  return Result<std::vector<std::string>>::ok(std::move(names));
}

Result<std::string> NodeOverlayFileSystem::read_link(const std::string& path) { return inner_->read_link(path); }

FileStat NodeOverlayFileSystem::stat(const std::string& path) {
  auto it = nodes_.find(path_normalize(path));
  if (it != nodes_.end()) return it->second;
  auto st = inner_->stat(path);
  // A directory that holds only recorded nodes may be absent from the tree.
  if (st.type == FileType::missing) {
    std::string prefix = path_normalize(path) + "/";
    for (auto& [node, ignored] : nodes_)
      if (node.compare(0, prefix.size(), prefix) == 0) {
        st.type = FileType::directory;
        st.mode = 0755;
        st.error.clear();
        break;
      }
  }
  return st;
}

}  // namespace rocmdoc
