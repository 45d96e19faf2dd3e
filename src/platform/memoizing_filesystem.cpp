#include "platform/memoizing_filesystem.h"

namespace rocmdoc {

namespace {

// The remembered answer for key, or ask() once and remember it.
template <class Map, class Key, class Ask>
auto remembered(Map& map, const Key& key, Ask ask) -> typename Map::mapped_type {
  if (auto it = map.find(key); it != map.end()) return it->second;
  return map.try_emplace(key, ask()).first->second;
}

}  // namespace

FileStat MemoizingFileSystem::stat(const std::string& path) {
  return remembered(stats_, path, [&] { return inner_.stat(path); });
}

Result<std::string> MemoizingFileSystem::read_link(const std::string& path) {
  return remembered(links_, path, [&] { return inner_.read_link(path); });
}

Result<std::vector<std::string>> MemoizingFileSystem::list_dir(const std::string& path) {
  return remembered(listings_, path, [&] { return inner_.list_dir(path); });
}

}  // namespace rocmdoc
