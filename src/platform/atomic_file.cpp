#include "platform/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "platform/filesystem.h"
#include "platform/host_filesystem.h"
#include "platform/signals.h"

namespace rocmdoc {

namespace {

// All of content, or false with errno set.
bool write_all(int fd, const std::string& content) {
  for (size_t done = 0; done < content.size();) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// A device or a pipe (/dev/null, /dev/stdout, a FIFO) is written to, never
// replaced: renaming over /dev/null as root made it a regular file, and
// every later `>/dev/null` on the machine wrote into that file.
Result<bool> write_into(const std::string& path, const std::string& content) {
  using R = Result<bool>;
  int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return R::fail(path + ": " + errno_reason(errno));
  // What was opened, not what stat saw: a link swapped in between could
  // point at a regular file, which must never be written over in place.
  struct stat opened {};
  if (::fstat(fd, &opened) != 0 || !(S_ISCHR(opened.st_mode) || S_ISFIFO(opened.st_mode) || S_ISSOCK(opened.st_mode))) {
    ::close(fd);
    return R::fail(path + ": changed while it was being opened; nothing written");
  }
  if (!write_all(fd, content)) {
    int err = errno;
    ::close(fd);
    return R::fail(path + ": write: " + errno_reason(err));
  }
  if (::close(fd) != 0) return R::fail(path + ": close: " + errno_reason(errno));
  return R::ok(true);
}

constexpr const char* kTemporaryTag = ".tmp-rocmdoc-";
constexpr size_t kRandomChars = 6;  // mkstemp's XXXXXX

bool is_temporary_name(const std::string& name) {
  size_t tag = name.rfind(kTemporaryTag);
  return tag != std::string::npos && tag > 0 && name.size() == tag + std::string(kTemporaryTag).size() + kRandomChars;
}

void sync_directory(const std::string& dir) {
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);  // best effort: the rename is what matters for atomicity
    ::close(dfd);
  }
}

}  // namespace

int remove_abandoned_temporaries(const std::string& dir) {
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return 0;
  DIR* listing = ::fdopendir(::dup(dfd));
  if (!listing) {
    ::close(dfd);
    return 0;
  }
  std::vector<std::string> names;
  while (struct dirent* entry = ::readdir(listing))
    if (is_temporary_name(entry->d_name)) names.push_back(entry->d_name);
  ::closedir(listing);
  int removed = 0;
  for (auto& name : names) {
    // Another user's file of that name (a world-writable /tmp) is not ours
    // to remove, and a link is never followed.
    struct stat st {};
    if (::fstatat(dfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid())
      continue;
    int fd = ::openat(dfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    // Locked: a live writer's (it keeps the lock until its rename).
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0 && ::unlinkat(dfd, name.c_str(), 0) == 0) ++removed;
    ::close(fd);
  }
  ::close(dfd);
  return removed;
}

TemporaryBeside::TemporaryBeside(const std::string& path) : path_(path) {
  std::string dir = path.find('/') == std::string::npos ? "." : path_dirname(path);
  remove_abandoned_temporaries(dir);
  name_ = path + kTemporaryTag + std::string(kRandomChars, 'X');
  HoldSignals made_and_known_together;
  // Close-on-exec: the lock stays with rocmdoc, not with the curl or gpg it starts.
  fd_ = ::mkostemp(name_.data(), O_CLOEXEC);
  if (fd_ < 0) {
    error_ = path + ": cannot create a temporary file beside it: " + errno_reason(errno);
    return;
  }
  on_signal_ = std::make_unique<RemoveOnSignal>(name_);
  // A cleaner that opened the name between mkstemp and here may still take
  // it (a concurrent writer into the same directory, for microseconds): the
  // rename then fails and says so; nothing is half-written.
  ::flock(fd_, LOCK_EX | LOCK_NB);
}

TemporaryBeside::~TemporaryBeside() {
  // Removed before it is forgotten: a signal in between finds it registered.
  if (fd_ >= 0) {
    ::unlink(name_.c_str());
    ::close(fd_);
  }
  on_signal_.reset();
}

Result<bool> TemporaryBeside::commit(unsigned mode) {
  using R = Result<bool>;
  if (fd_ < 0) return R::fail(error_.empty() ? path_ + ": nothing to commit" : error_);
  auto fail = [&](const std::string& what, int err) { return R::fail(path_ + ": " + what + ": " + errno_reason(err)); };
  // By name: the program that wrote it may have replaced the file.
  int fd = ::open(name_.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return fail("the temporary file is gone", errno);
  if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) {
    int err = errno;
    ::close(fd);
    return fail("fsync", err);
  }
  if (::close(fd) != 0) return fail("close", errno);
  if (::rename(name_.c_str(), path_.c_str()) != 0) return fail("rename", errno);
  // Renamed: nothing of ours is left to remove; the lock goes with the fd.
  on_signal_.reset();
  ::close(fd_);
  fd_ = -1;
  sync_directory(path_.find('/') == std::string::npos ? "." : path_dirname(path_));
  return R::ok(true);
}

Result<bool> write_file_atomically(const std::string& path, const std::string& content, unsigned mode) {
  using R = Result<bool>;
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0) {
    if (S_ISDIR(existing.st_mode)) return R::fail(path + ": is a directory");
    if (S_ISBLK(existing.st_mode)) return R::fail(path + ": is a block device; nothing written");
    if (S_ISCHR(existing.st_mode) || S_ISFIFO(existing.st_mode) || S_ISSOCK(existing.st_mode))
      return write_into(path, content);
  }
  TemporaryBeside tmp(path);
  if (!tmp.ok()) return R::fail(tmp.error());
  if (!write_all(tmp.fd(), content)) return R::fail(path + ": write: " + errno_reason(errno));
  return tmp.commit(mode);
}

}  // namespace rocmdoc
