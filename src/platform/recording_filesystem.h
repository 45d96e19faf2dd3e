// A FileSystem decorator that remembers every path a probe touched and
// how, so `rocmdoc snapshot` can copy exactly what the probes read.
#pragma once

#include <map>
#include <memory>
#include <set>

#include "platform/filesystem.h"
#include "platform/process_runner.h"

namespace rocmdoc {

struct AccessLog {
  std::set<std::string> read;      // read_file
  std::set<std::string> listed;    // list_dir
  std::set<std::string> examined;  // stat, read_link, try_open_read_write
  // read_records: what the device gave, which a recording keeps as a file.
  std::map<std::string, std::string> records;
};

class RecordingFileSystem : public FileSystem {
 public:
  explicit RecordingFileSystem(std::unique_ptr<FileSystem> inner) : inner_(std::move(inner)) {}

  Result<std::string> read_file(const std::string& path, size_t max_bytes = kDefaultReadLimit) override;
  Result<std::vector<std::string>> list_dir(const std::string& path) override;
  Result<std::string> read_link(const std::string& path) override;
  FileStat stat(const std::string& path) override;
  Result<bool> try_open_read_write(const std::string& path) override;
  Result<std::string> read_records(const std::string& path, size_t max_bytes = kDefaultReadLimit) override;

  const AccessLog& log() const { return log_; }
  FileSystem& inner() { return *inner_; }

 private:
  std::unique_ptr<FileSystem> inner_;
  AccessLog log_;
};

// A ProcessRunner decorator that keeps every result, keyed as
// RecordedProcessRunner expects, so a recording replays them.
class RecordingProcessRunner : public ProcessRunner {
 public:
  explicit RecordingProcessRunner(std::unique_ptr<ProcessRunner> inner) : inner_(std::move(inner)) {}
  ProcessResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) override;
  const std::map<std::string, ProcessResult>& results() const { return results_; }

 private:
  std::unique_ptr<ProcessRunner> inner_;
  std::map<std::string, ProcessResult> results_;
};

}  // namespace rocmdoc
