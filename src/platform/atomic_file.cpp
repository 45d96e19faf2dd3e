#include "platform/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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

}  // namespace

Result<bool> write_file_atomically(const std::string& path, const std::string& content, unsigned mode) {
  using R = Result<bool>;
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0) {
    if (S_ISDIR(existing.st_mode)) return R::fail(path + ": is a directory");
    if (S_ISBLK(existing.st_mode)) return R::fail(path + ": is a block device; nothing written");
    if (S_ISCHR(existing.st_mode) || S_ISFIFO(existing.st_mode) || S_ISSOCK(existing.st_mode))
      return write_into(path, content);
  }
  std::string dir = path.find('/') == std::string::npos ? "." : path_dirname(path);
  std::string tmp = path + ".tmp-rocmdoc-XXXXXX";
  int fd = ::mkstemp(tmp.data());
  if (fd < 0) return R::fail(path + ": cannot create a temporary file beside it: " + errno_reason(errno));
  RemoveOnSignal interrupted(tmp);  // Ctrl-C before the rename leaves nothing beside the file
  auto fail = [&](const std::string& what) {
    int err = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    return R::fail(path + ": " + what + ": " + errno_reason(err));
  };
  if (!write_all(fd, content)) return fail("write");
  if (::fchmod(fd, mode) != 0) return fail("chmod");
  if (::fsync(fd) != 0) return fail("fsync");
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return R::fail(path + ": close: " + errno_reason(err));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return R::fail(path + ": rename: " + errno_reason(err));
  }
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);  // best effort: the rename is what matters for atomicity
    ::close(dfd);
  }
  return R::ok(true);
}

}  // namespace rocmdoc
