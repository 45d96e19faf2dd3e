#include "platform/file_bytes.h"

#include <sys/mman.h>

#include <utility>

namespace rocmdoc {

FileBytes FileBytes::mapped(const void* data, size_t size) {
  FileBytes bytes;
  bytes.mapped_ = static_cast<const char*>(data);
  bytes.size_ = size;
  return bytes;
}

FileBytes::~FileBytes() {
  if (mapped_) ::munmap(const_cast<char*>(mapped_), size_);
}

FileBytes::FileBytes(FileBytes&& other) noexcept
    : owned_(std::move(other.owned_)),
      mapped_(std::exchange(other.mapped_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

FileBytes& FileBytes::operator=(FileBytes&& other) noexcept {
  if (this != &other) {
    if (mapped_) ::munmap(const_cast<char*>(mapped_), size_);
    owned_ = std::move(other.owned_);
    mapped_ = std::exchange(other.mapped_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

}  // namespace rocmdoc
