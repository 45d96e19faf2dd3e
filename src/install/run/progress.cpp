#include "install/run/progress.h"

#include <fmt/format.h>

#include "base/columns.h"

namespace rocmdoc {

std::string clock_text(std::chrono::steady_clock::duration elapsed) {
  long long s = std::chrono::duration_cast<std::chrono::seconds>(elapsed).count();
  if (s < 0) s = 0;
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

Progress::Progress(std::ostream& out, ProgressStyle style) : out_(out), style_(std::move(style)) {
  if (style_.width < 20) style_.width = 20;
}

std::chrono::steady_clock::time_point Progress::now() const {
  return style_.clock ? style_.clock() : std::chrono::steady_clock::now();
}

void Progress::clear() {
  if (!drawn_) return;
  out_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

void Progress::line(const std::string& text) {
  clear();
  out_ << text << std::endl;
  if (running_ && style_.live) draw();
}

void Progress::start_step(const std::string& counter, const std::string& title) {
  clear();
  counter_ = counter, title_ = title, command_.clear();
  started_ = now();
  running_ = true;
  // Flushed: piped to a file or a terminal multiplexer, the user sees what
  // runs now, and a kill or a power cut does not swallow the last lines.
  if (!style_.live) out_ << counter << title << std::endl;
  else draw();
}

void Progress::command(const std::string& command) {
  command_ = command;
  if (style_.live && running_) draw();
}

void Progress::tick() {
  if (!style_.live || !running_) return;
  if (clock_text(now() - started_) != shown_clock_) draw();
}

// The clock is at the end, so the head is cut, never the time: the line
// stays within the width and a redraw never spills onto a second line.
void Progress::draw() {
  shown_clock_ = clock_text(now() - started_);
  std::string head = counter_ + title_ + (command_.empty() ? "" : ": " + command_);
  // The last column stays free: a terminal that wraps at the edge would
  // push the next redraw onto a second line.
  size_t room = style_.width - 1;
  std::string line = head + " … " + shown_clock_;
  // Cut, the head ends in "…" already, which then says "running" alone.
  if (columns(line) > room) line = cut_to_columns(head, room - shown_clock_.size() - 1) + " " + shown_clock_;
  out_ << "\r\033[K" << line << std::flush;
  drawn_ = true;
}

void Progress::step_done(const std::string& plain_seconds) {
  if (!running_) return;
  running_ = false;
  if (!style_.live) {
    out_ << "    done in " << plain_seconds << std::endl;
    return;
  }
  std::string elapsed = clock_text(now() - started_);
  clear();
  out_ << counter_ << title_ << ": done in " << elapsed << std::endl;
}

void Progress::step_stopped(const std::string& outcome) {
  if (!running_) return;
  running_ = false;
  if (!style_.live) return;
  std::string elapsed = clock_text(now() - started_);
  clear();
  out_ << counter_ << title_ << ": " << outcome << " (" << elapsed << ")" << std::endl;
}

}  // namespace rocmdoc
