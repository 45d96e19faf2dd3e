#include "platform/recording_filesystem.h"

namespace rocmdoc {

Result<std::string> RecordingFileSystem::read_file(const std::string& path, size_t max_bytes) {
  log_.read.insert(path_normalize(path));
  return inner_->read_file(path, max_bytes);
}

Result<std::string> RecordingFileSystem::read_records(const std::string& path, size_t max_bytes) {
  auto records = inner_->read_records(path, max_bytes);
  if (records) log_.records[path_normalize(path)] = *records;
  return records;
}

Result<std::vector<std::string>> RecordingFileSystem::list_dir(const std::string& path) {
  log_.listed.insert(path_normalize(path));
  return inner_->list_dir(path);
}

Result<std::string> RecordingFileSystem::read_link(const std::string& path) {
  log_.examined.insert(path_normalize(path));
  return inner_->read_link(path);
}

FileStat RecordingFileSystem::stat(const std::string& path) {
  log_.examined.insert(path_normalize(path));
  return inner_->stat(path);
}

Result<bool> RecordingFileSystem::try_open_read_write(const std::string& path) {
  log_.examined.insert(path_normalize(path));
  return inner_->try_open_read_write(path);
}

ProcessResult RecordingProcessRunner::run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  ProcessResult r = inner_->run(argv, timeout);
  results_[RecordedProcessRunner::key(argv)] = r;
  return r;
}

}  // namespace rocmdoc
