// A file's bytes, either held in memory or mapped from the page cache.
//
// Mapping is for the one large file a probe reads whole, dpkg's ~1 MB status:
// reading it meant zero-filling a fresh megabyte, faulting in ~240 pages and
// copying the file into them (0.5-0.7 ms on a 2-vCPU VM, ~0.06 ms mapped).
// A mapped file must not shrink while it is mapped (the process would get
// SIGBUS), so only files that are replaced whole, never cut in place, are
// mapped: dpkg writes status-new and renames it over status.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rocmdoc {

class FileBytes {
 public:
  FileBytes() = default;
  explicit FileBytes(std::string bytes) : owned_(std::move(bytes)) {}
  // Takes over a mapping made with mmap(); unmaps it when destroyed.
  static FileBytes mapped(const void* data, size_t size);
  ~FileBytes();
  FileBytes(FileBytes&& other) noexcept;
  FileBytes& operator=(FileBytes&& other) noexcept;
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;

  std::string_view text() const { return mapped_ ? std::string_view(mapped_, size_) : std::string_view(owned_); }
  bool is_mapped() const { return mapped_ != nullptr; }

 private:
  std::string owned_;
  const char* mapped_ = nullptr;
  size_t size_ = 0;
};

}  // namespace rocmdoc
