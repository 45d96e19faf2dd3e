// Writing a file whole or not at all: a temporary file beside the target,
// fsync, rename, fsync of the directory. A crash leaves the old file or the
// new one, never half of either.
//
// A temporary is locked (flock) by its writer from its creation until it is
// renamed into place. A writer killed outright (SIGKILL, a power cut) leaves
// its temporary behind, unlocked; the next write into the same directory
// removes it, so the directory ends as if the kill had not happened (apt
// would otherwise list a stray `rocm.list.tmp-rocmdoc-...` under
// sources.list.d on every update).
#pragma once

#include <memory>
#include <string>

#include "base/result.h"

namespace rocmdoc {

Result<bool> write_file_atomically(const std::string& path, const std::string& content, unsigned mode = 0644);

class RemoveOnSignal;

// A temporary file beside `path` (`<path>.tmp-rocmdoc-XXXXXX`, 0600, locked)
// for content another program writes by name (curl -o, gpg -o), then put in
// place whole by commit(). Creating one first removes the temporaries
// killed writers left in that directory (see above).
class TemporaryBeside {
 public:
  explicit TemporaryBeside(const std::string& path);
  ~TemporaryBeside();  // removes the temporary unless it was committed
  TemporaryBeside(const TemporaryBeside&) = delete;
  TemporaryBeside& operator=(const TemporaryBeside&) = delete;

  bool ok() const { return fd_ >= 0; }
  const std::string& error() const { return error_; }
  const std::string& name() const { return name_; }
  int fd() const { return fd_; }
  // The file now at name() (the same one, or one the program put there)
  // gets `mode`, is flushed to disk and renamed over the target; then the
  // directory is flushed. Errors name the target.
  Result<bool> commit(unsigned mode);

 private:
  std::string path_, name_, error_;
  int fd_ = -1;
  std::unique_ptr<RemoveOnSignal> on_signal_;  // Ctrl-C before the rename leaves nothing
};

// Removes, from `dir`, rocmdoc's temporaries that no writer holds: regular
// files of this user named `*.tmp-rocmdoc-XXXXXX`. Returns how many.
int remove_abandoned_temporaries(const std::string& dir);

}  // namespace rocmdoc
