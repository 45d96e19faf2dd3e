#include "platform/filesystem.h"

#include <algorithm>
#include <vector>

namespace rocmdoc {

const char* file_type_name(FileType t) {
  switch (t) {
    case FileType::missing: return "missing";
    case FileType::regular: return "file";
    case FileType::directory: return "directory";
    case FileType::symlink: return "symlink";
    case FileType::char_device: return "char_device";
    case FileType::block_device: return "block_device";
    case FileType::other: return "other";
  }
  return "other";
}

std::string path_join(const std::string& dir, const std::string& name) {
  if (name.empty()) return dir;
  if (name.front() == '/') return name;
  if (dir.empty() || dir.back() == '/') return dir + name;
  return dir + "/" + name;
}

std::string path_dirname(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string path_basename(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

static std::vector<std::string> split_components(const std::string& path) {
  std::vector<std::string> parts;
  size_t i = 0;
  while (i < path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    if (j > i) parts.push_back(path.substr(i, j - i));
    i = j + 1;
  }
  return parts;
}

std::string path_normalize(const std::string& path) {
  std::vector<std::string> out;
  for (auto& part : split_components(path)) {
    if (part == ".") continue;
    if (part == "..") {
      if (!out.empty()) out.pop_back();
      continue;
    }
    out.push_back(part);
  }
  std::string result;
  for (auto& part : out) result += "/" + part;
  return result.empty() ? "/" : result;
}

Result<std::string> FileSystem::resolve(const std::string& path) {
  // Walk component by component so that absolute link targets are read in
  // the machine's namespace, never the host's. 40 hops is the kernel's
  // MAXSYMLINKS; more means a loop.
  std::vector<std::string> pending = split_components(path);
  std::reverse(pending.begin(), pending.end());
  std::string current = "/";
  int hops = 0;
  while (!pending.empty()) {
    std::string part = pending.back();
    pending.pop_back();
    if (part == ".") continue;
    if (part == "..") {
      current = path_dirname(current);
      continue;
    }
    std::string next = path_join(current, part);
    FileStat st = stat_under_resolved(next);
    if (st.type == FileType::missing) {
      if (!st.error.empty()) return Result<std::string>::fail(path + ": " + st.error);
      return Result<std::string>::fail(path + ": no such file or directory");
    }
    if (st.type != FileType::symlink) {
      current = next;
      continue;
    }
    if (++hops > 40) return Result<std::string>::fail(path + ": too many levels of symbolic links");
    auto target = read_link_under_resolved(next);
    if (!target) return Result<std::string>::fail(target.error());
    auto target_parts = split_components(*target);
    if (!target->empty() && target->front() == '/') current.assign(1, '/');
    for (auto it = target_parts.rbegin(); it != target_parts.rend(); ++it) pending.push_back(*it);
  }
  return Result<std::string>::ok(path_normalize(current));
}

Result<std::string> FileSystem::read_records(const std::string& path, size_t) {
  return Result<std::string>::fail(path + ": only a live machine's device gives records");
}

Result<std::vector<std::string>> FileSystem::list_dir_starting_with(const std::string& path, std::string_view prefix) {
  auto names = list_dir(path);
  if (!names) return names;
  std::vector<std::string> kept;
  for (auto& name : *names)
    if (name.starts_with(prefix)) kept.push_back(name);
  return Result<std::vector<std::string>>::ok(std::move(kept));
}

Result<bool> FileSystem::try_open_read_write(const std::string& path) {
  return Result<bool>::fail(path + ": not a live machine, so nothing can be opened");
}

FileStat FileSystem::stat_follow(const std::string& path) {
  auto real = resolve(path);
  if (!real) {
    FileStat st;
    // A dangling link or missing parent is "missing"; keep other reasons.
    if (real.error().find("no such file") == std::string::npos) st.error = real.error();
    return st;
  }
  return stat(*real);
}

}  // namespace rocmdoc
