// A piece of work that must finish by a deadline even when it cannot be
// interrupted from inside: a read of a hung sysfs file or a stuck device
// node blocks in the kernel, where no timer in the same process helps. So the
// work runs in a forked child; the parent waits for its answer with a
// timeout and, past it, kills the child's process group and returns without
// waiting for it (a child stuck in an uninterruptible read is reaped by init
// once it wakes).
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace rocmdoc {

struct BoundedCallResult {
  bool finished = false;   // the work returned and its answer arrived whole
  bool timed_out = false;  // not finished by the deadline: the child was killed
  std::string answer;      // what the work returned, when finished
  std::string error;       // why not finished: the timeout, a crash, what it threw, a failed fork
};

// Runs `work` in a child process and returns its answer (any bytes). The
// caller's state is the child's copy: nothing the work changes comes back
// but the answer. Call it before starting threads (fork copies only the
// calling one).
BoundedCallResult call_with_deadline(const std::function<std::string()>& work, std::chrono::milliseconds timeout);

}  // namespace rocmdoc
