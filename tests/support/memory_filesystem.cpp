#include "memory_filesystem.h"

namespace rocmdoc {

void MemoryFileSystem::make_parents(const std::string& path) {
  for (std::string p = path_dirname(path); p != "/" && !nodes_.count(p); p = path_dirname(p))
    nodes_[p] = Node{FileType::directory, {}, 0755, 0, 0};
}

MemoryFileSystem& MemoryFileSystem::file(const std::string& path, std::string content, unsigned mode) {
  auto p = path_normalize(path);
  make_parents(p);
  nodes_[p] = Node{FileType::regular, std::move(content), mode, 0, 0};
  return *this;
}

MemoryFileSystem& MemoryFileSystem::dir(const std::string& path) {
  auto p = path_normalize(path);
  make_parents(p);
  nodes_[p] = Node{FileType::directory, {}, 0755, 0, 0};
  return *this;
}

MemoryFileSystem& MemoryFileSystem::symlink(const std::string& path, std::string target) {
  auto p = path_normalize(path);
  make_parents(p);
  nodes_[p] = Node{FileType::symlink, std::move(target), 0777, 0, 0};
  return *this;
}

MemoryFileSystem& MemoryFileSystem::device(const std::string& path, unsigned mode, uint32_t uid, uint32_t gid) {
  auto p = path_normalize(path);
  make_parents(p);
  nodes_[p] = Node{FileType::char_device, {}, mode, uid, gid};
  return *this;
}

MemoryFileSystem& MemoryFileSystem::records(const std::string& path, std::string content) {
  records_[path_normalize(path)] = std::move(content);
  return *this;
}

Result<std::string> MemoryFileSystem::read_records(const std::string& path, size_t max_bytes) {
  if (auto f = failures_.find(path_normalize(path)); f != failures_.end()) return Result<std::string>::fail(path + ": " + f->second);
  auto it = records_.find(path_normalize(path));
  if (it == records_.end()) return FileSystem::read_records(path, max_bytes);
  if (it->second.size() > max_bytes)
    return Result<std::string>::fail(path + ": larger than " + std::to_string(max_bytes) + " bytes");
  return Result<std::string>::ok(it->second);
}

MemoryFileSystem& MemoryFileSystem::fail(const std::string& path, std::string reason) {
  failures_[path_normalize(path)] = std::move(reason);
  return *this;
}

FileStat MemoryFileSystem::stat(const std::string& path) {
  FileStat st;
  auto p = path_normalize(path);
  if (p == "/") {
    st.type = FileType::directory;
    st.mode = 0755;
    return st;
  }
  if (auto f = failures_.find(p); f != failures_.end()) {
    st.error = f->second;
    return st;
  }
  auto it = nodes_.find(p);
  if (it == nodes_.end()) return st;
  st.type = it->second.type;
  st.mode = it->second.mode;
  st.uid = it->second.uid;
  st.gid = it->second.gid;
  st.size = it->second.data.size();
  return st;
}

Result<std::string> MemoryFileSystem::read_file(const std::string& path, size_t max_bytes) {
  auto real = resolve(path);
  if (!real) return real;
  if (auto f = failures_.find(*real); f != failures_.end()) return Result<std::string>::fail(path + ": " + f->second);
  auto it = nodes_.find(*real);
  if (it == nodes_.end()) return Result<std::string>::fail(path + ": no such file or directory");
  if (it->second.type == FileType::directory) return Result<std::string>::fail(path + ": is a directory");
  if (it->second.type != FileType::regular) return Result<std::string>::fail(path + ": not a regular file");
  if (it->second.data.size() > max_bytes)
    return Result<std::string>::fail(path + ": larger than " + std::to_string(max_bytes) + " bytes");
  return Result<std::string>::ok(it->second.data);
}

Result<std::vector<std::string>> MemoryFileSystem::list_dir(const std::string& path) {
  using R = Result<std::vector<std::string>>;
  auto real = resolve(path);
  if (!real) return R::fail(real.error());
  if (auto f = failures_.find(*real); f != failures_.end()) return R::fail(path + ": " + f->second);
  if (*real != "/") {
    auto it = nodes_.find(*real);
    if (it == nodes_.end()) return R::fail(path + ": no such file or directory");
    if (it->second.type != FileType::directory) return R::fail(path + ": not a directory");
  }
  std::string prefix = *real == "/" ? "/" : *real + "/";
  std::vector<std::string> names;
  for (auto it = nodes_.lower_bound(prefix); it != nodes_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    std::string rest = it->first.substr(prefix.size());
    if (!rest.empty() && rest.find('/') == std::string::npos) names.push_back(rest);
  }
  return R::ok(std::move(names));  // std::map order is sorted
}

Result<std::string> MemoryFileSystem::read_link(const std::string& path) {
  auto p = path_normalize(path);
  if (auto f = failures_.find(p); f != failures_.end()) return Result<std::string>::fail(path + ": " + f->second);
  auto it = nodes_.find(p);
  if (it == nodes_.end() || it->second.type != FileType::symlink)
    return Result<std::string>::fail(path + ": not a symbolic link");
  return Result<std::string>::ok(it->second.data);
}

}  // namespace rocmdoc
