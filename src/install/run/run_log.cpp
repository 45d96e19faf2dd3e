#include "install/run/run_log.h"

#include <chrono>
#include <ctime>

namespace rocmdoc {

namespace {

constexpr size_t kFlushEvery = 64 * 1024;
constexpr size_t kTailKept = 20;

// "20261130T023441Z" from "2026-11-30T02:34:41Z": a file name without colons.
std::string compact(const std::string& timestamp) {
  std::string out;
  for (char c : timestamp)
    if (c != '-' && c != ':') out += c;
  return out;
}

}  // namespace

std::string utc_timestamp() {
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

RunLog::RunLog(SystemChanger& changer, FileSystem& fs, const ExecutorPaths& paths, const std::string& started_at)
    : changer_(changer) {
  std::string base = path_join(paths.log_dir, paths.log_prefix + "-" + compact(started_at));
  path_ = base + ".log";
  // Two runs in the same second keep both logs.
  for (int n = 2; fs.exists(path_) && n < 1000; ++n) path_ = base + "-" + std::to_string(n) + ".log";
}

void RunLog::line(const std::string& text) {
  text_ += text;
  text_ += '\n';
}

void RunLog::output(std::string_view data) {
  text_.append(data);
  for (char c : data) {
    if (c == '\r') continue;  // progress bars redraw with \r; keep only whole lines
    if (c != '\n') {
      partial_ += c;
      continue;
    }
    tail_.push_back(std::move(partial_));
    partial_.clear();
    if (tail_.size() > kTailKept) tail_.pop_front();
  }
  if (text_.size() - flushed_size_ >= kFlushEvery) flush();
}

std::string RunLog::tail(size_t lines) const {
  std::deque<std::string> all = tail_;
  if (!partial_.empty()) all.push_back(partial_);
  size_t from = all.size() > lines ? all.size() - lines : 0;
  std::string out;
  for (size_t i = from; i < all.size(); ++i) out += all[i] + "\n";
  return out;
}

void RunLog::flush() {
  if (text_.size() == flushed_size_ && flushed_size_ != 0) return;
  auto written = changer_.write_file(path_, text_, 0640);
  if (written) {
    flushed_size_ = text_.size();
  } else if (write_error_.empty()) {
    write_error_ = written.error();
  }
}

}  // namespace rocmdoc
