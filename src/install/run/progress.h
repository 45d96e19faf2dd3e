// What the executor tells a person while it runs (docs/install.md,
// "Progress"). Plain, for a log, CI or a pipe: one line per event as it
// happens, flushed. Live, for a terminal: the running step is one status
// line redrawn in place, "[3/9] Install ROCm: apt-get install -y rocm … 0:42",
// whose clock moves while the command is silent (SystemChanger::run's
// heartbeat), and which the step's result replaces when it ends. Everything
// is written from the executor's one thread, between its own steps: no
// timer thread can draw into a prompt or a line being written.
#pragma once

#include <chrono>
#include <functional>
#include <ostream>
#include <string>

namespace rocmdoc {

struct ProgressStyle {
  bool live = false;   // a terminal
  size_t width = 80;   // the status line is cut to fit, so a redraw never wraps
  // Tests give a clock of their own.
  std::function<std::chrono::steady_clock::time_point()> clock;
};

// "0:07", "12:34", "1:02:03"
std::string clock_text(std::chrono::steady_clock::duration elapsed);

class Progress {
 public:
  Progress(std::ostream& out, ProgressStyle style);
  ~Progress() { clear(); }
  bool live() const { return style_.live; }
  // A line that stays (a step already done, a warning); a status line is
  // cleared first.
  void line(const std::string& text);
  // A step that changes the machine starts (plain: its line; live: the status line).
  void start_step(const std::string& counter, const std::string& title);
  // One of its commands starts: live, the status line names it.
  void command(const std::string& command);
  // Redraws the status line when its clock has moved (live; plain: nothing).
  void tick();
  // The step is done (live: its result replaces the status line;
  // plain: "    done in 3.2s").
  void step_done(const std::string& plain_seconds);
  // The run stops inside the step (live: "failed (0:42)", the outcome and
  // the clock, in place of the status line; plain: nothing, the report says
  // what happened).
  void step_stopped(const std::string& outcome);
  // Takes the status line off the screen (before a prompt or the report).
  void clear();

 private:
  std::chrono::steady_clock::time_point now() const;
  void draw();
  std::ostream& out_;
  ProgressStyle style_;
  bool running_ = false;  // a step is running
  bool drawn_ = false;    // a status line is on the screen
  std::string counter_, title_, command_, shown_clock_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace rocmdoc
