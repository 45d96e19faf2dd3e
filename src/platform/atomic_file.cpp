#include "rocmdoc/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "rocmdoc/filesystem.h"
#include "rocmdoc/host_filesystem.h"

namespace rocmdoc {

Result<bool> write_file_atomically(const std::string& path, const std::string& content, unsigned mode) {
  using R = Result<bool>;
  std::string dir = path.find('/') == std::string::npos ? "." : path_dirname(path);
  std::string tmp = path + ".tmp-rocmdoc-XXXXXX";
  int fd = ::mkstemp(tmp.data());
  if (fd < 0) return R::fail(path + ": cannot create a temporary file beside it: " + errno_reason(errno));
  auto fail = [&](const std::string& what) {
    int err = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    return R::fail(path + ": " + what + ": " + errno_reason(err));
  };
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("write");
    }
    done += static_cast<size_t>(n);
  }
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
