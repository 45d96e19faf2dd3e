// What SIGINT, SIGTERM and SIGHUP do to rocmdoc while it holds temporaries
// or waits for a command it runs on the user's behalf.
//
// Without handlers, Ctrl-C or a `kill` ends rocmdoc at once: no destructor
// runs, so a temporary directory or file stays behind (a snapshot's tree is
// a copy of this machine's files), and a child that is not in rocmdoc's
// process group keeps running, reparented to init.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <string>

namespace rocmdoc {

// While alive, `path` (a file or a whole directory tree) is removed if one of
// these signals ends the process; the signal then ends it as it would have
// (so the shell still sees 130 or 143). Signals the process ignores stay
// ignored. Up to 16 at a time: a path past that is just not removed.
class RemoveOnSignal {
 public:
  explicit RemoveOnSignal(const std::string& path);
  ~RemoveOnSignal();  // forgets the path; removing it is the owner's job
  RemoveOnSignal(const RemoveOnSignal&) = delete;
  RemoveOnSignal& operator=(const RemoveOnSignal&) = delete;

 private:
  int slot_ = -1;
};

// While alive, SIGINT, SIGTERM and SIGHUP wait (blocked) instead of
// arriving; they arrive when it ends. Creating a temporary and registering
// it with RemoveOnSignal is then one step: a signal between the two would
// otherwise end rocmdoc with the temporary made but not yet known.
class HoldSignals {
 public:
  HoldSignals();
  ~HoldSignals();
  HoldSignals(const HoldSignals&) = delete;
  HoldSignals& operator=(const HoldSignals&) = delete;

 private:
  sigset_t saved_;
};

// While alive, these signals sent to rocmdoc go to `child` instead of ending
// rocmdoc, which then waits for the child and reports how it ended. A
// signal the terminal sent to the whole foreground group is not sent again
// when the child shares rocmdoc's group (it has it already). The previous
// handlers come back afterwards. One at a time.
class ForwardSignals {
 public:
  ForwardSignals(pid_t child, bool child_shares_group);
  ~ForwardSignals();
  ForwardSignals(const ForwardSignals&) = delete;
  ForwardSignals& operator=(const ForwardSignals&) = delete;
};

// The signals both classes handle, for blocking them around a spawn.
void add_handled_signals(sigset_t& set);

}  // namespace rocmdoc
