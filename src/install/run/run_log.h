// The executor's log: every command's full output and every change, one
// file per run under ExecutorPaths.log_dir. Files are never appended, so the
// log is rewritten whole (atomically, through the SystemChanger) after each
// action and whenever it has grown; a kill loses at most the last 64 KiB of
// a running command's output, never the file.
#pragma once

#include <deque>
#include <string>
#include <string_view>

#include "install/run/executor.h"

namespace rocmdoc {

class RunLog {
 public:
  RunLog(SystemChanger& changer, FileSystem& fs, const ExecutorPaths& paths, const std::string& started_at);
  const std::string& path() const { return path_; }
  void line(const std::string& text);          // one line of rocmdoc's own
  void output(std::string_view data);          // a command's output, as it comes
  // The last lines of the current command's output.
  std::string tail(size_t lines) const;
  void start_command() { tail_.clear(); partial_.clear(); }
  void flush();
  // Why the log could not be written (once), empty when it could.
  const std::string& write_error() const { return write_error_; }

 private:
  SystemChanger& changer_;
  std::string path_;
  std::string text_;
  size_t flushed_size_ = 0;
  std::deque<std::string> tail_;
  std::string partial_;
  std::string write_error_;
};

// "2026-11-30T02:34:41Z"
std::string utc_timestamp();

}  // namespace rocmdoc
