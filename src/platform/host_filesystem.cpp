#include "platform/host_filesystem.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace rocmdoc {

std::string errno_reason(int err) {
  switch (err) {
    case ENOENT: return "no such file or directory";
    case EACCES: return "permission denied";
    case EPERM: return "operation not permitted";
    case ENOTDIR: return "not a directory";
    case EISDIR: return "is a directory";
    case ELOOP: return "too many levels of symbolic links";
    case EINVAL: return "invalid argument";
    default: return std::strerror(err);
  }
}

HostFileSystem::HostFileSystem(std::string prefix) : prefix_(std::move(prefix)) {
  while (!prefix_.empty() && prefix_.back() == '/') prefix_.pop_back();
}

// Recorded trees are often copied by tools that cannot keep symlinks (git
// with core.symlinks=false, some archivers): the link becomes a small
// regular file holding the target text. Kernel attribute files always end
// in a newline and real links never do, so a newline-free, space-free file
// under 4 KiB containing a '/' is taken for such a stub. Only on recorded
// trees: the live machine has real symlinks.
static bool read_link_stub(const std::string& host, std::string* target) {
  struct stat st {};
  if (::lstat(host.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0 || st.st_size > 4096) return false;
  int fd = ::open(host.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  char buf[4097];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return false;
  std::string text(buf, static_cast<size_t>(n));
  if (text.find('/') == std::string::npos) return false;
  for (unsigned char c : text)
    if (c <= ' ' || c == 0x7f) return false;
  if (target) *target = text;
  return true;
}

static FileType type_of(mode_t m) {
  if (S_ISREG(m)) return FileType::regular;
  if (S_ISDIR(m)) return FileType::directory;
  if (S_ISLNK(m)) return FileType::symlink;
  if (S_ISCHR(m)) return FileType::char_device;
  if (S_ISBLK(m)) return FileType::block_device;
  return FileType::other;
}

Result<std::string> HostFileSystem::host_path(const std::string& path) {
  if (is_live()) return Result<std::string>::ok(path);
  auto real = resolve(path);
  if (!real) return real;
  return Result<std::string>::ok(prefix_ + *real);
}

// The host path of a machine path's entry: its parent resolved inside the
// tree, so links in the middle stay in it; the entry itself not followed.
Result<std::string> HostFileSystem::entry_host_path(const std::string& path) {
  if (is_live()) return Result<std::string>::ok(path);
  std::string normal = path_normalize(path);
  std::string parent = path_dirname(normal);
  auto real_parent = parent == "/" ? Result<std::string>::ok("/") : resolve(parent);
  if (!real_parent) return real_parent;
  return Result<std::string>::ok(prefix_ + path_join(*real_parent, path_basename(normal)));
}

FileStat HostFileSystem::stat(const std::string& path) {
  auto host = entry_host_path(path);
  if (host) return stat_host(*host);
  FileStat out;
  if (host.error().find("no such file") == std::string::npos) out.error = host.error();
  return out;
}

FileStat HostFileSystem::stat_under_resolved(const std::string& path) {
  return stat_host(is_live() ? path : prefix_ + path);
}

FileStat HostFileSystem::stat_host(const std::string& host) const {
  FileStat out;
  struct stat st {};
  if (::lstat(host.c_str(), &st) != 0) {
    int err = errno;
    if (err != ENOENT && err != ENOTDIR) out.error = errno_reason(err);
    return out;
  }
  out.type = type_of(st.st_mode);
  out.mode = st.st_mode & 07777;
  out.uid = st.st_uid;
  out.gid = st.st_gid;
  out.size = static_cast<uint64_t>(st.st_size);
  if (!is_live() && out.type == FileType::regular && read_link_stub(host, nullptr)) out.type = FileType::symlink;
  return out;
}

Result<std::string> HostFileSystem::read_link(const std::string& path) {
  auto host = entry_host_path(path);
  if (!host) return host;
  return read_link_host(*host, path);
}

Result<std::string> HostFileSystem::read_link_under_resolved(const std::string& path) {
  return read_link_host(is_live() ? path : prefix_ + path, path);
}

Result<std::string> HostFileSystem::read_link_host(const std::string& host, const std::string& path) const {
  std::string stub;
  if (!is_live() && read_link_stub(host, &stub)) return Result<std::string>::ok(stub);
  char buf[4096];
  ssize_t n = ::readlink(host.c_str(), buf, sizeof buf - 1);
  if (n < 0) return Result<std::string>::fail(path + ": " + errno_reason(errno));
  return Result<std::string>::ok(std::string(buf, static_cast<size_t>(n)));
}

namespace {

// O_NONBLOCK: a FIFO or a device node must never hang a probe.
int open_for_reading(const std::string& host) { return ::open(host.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK); }

// read_file's answer for a file open as fd, whose fstat gave *st (null when
// fstat failed); closes fd.
Result<std::string> read_open_file(int fd, const struct stat* st, const std::string& path, size_t max_bytes) {
  if (st && !S_ISREG(st->st_mode)) {
    ::close(fd);
    return Result<std::string>::fail(path + ": not a regular file");
  }
  // Read straight into the string, sized from the file where it says its
  // size, so a large file takes one read. /proc and /sys files say 0 or 4096
  // whatever they hold, so the buffer still grows when they are longer. One
  // byte over max_bytes tells "larger than" apart from "exactly".
  size_t limit = max_bytes == SIZE_MAX ? max_bytes : max_bytes + 1;
  size_t stated = st && st->st_size > 0 ? static_cast<size_t>(st->st_size) : 0;
  std::string data(std::min(limit, std::max<size_t>(stated + 1, 4096)), '\0');
  size_t used = 0;
  for (;;) {
    if (used == data.size()) {
      if (data.size() >= limit) break;
      data.resize(std::min(limit, data.size() * 2));
    }
    ssize_t n = ::read(fd, data.data() + used, data.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return Result<std::string>::fail(path + ": " + errno_reason(err));
    }
    if (n == 0) break;
    used += static_cast<size_t>(n);
  }
  ::close(fd);
  if (used > max_bytes) return Result<std::string>::fail(path + ": larger than " + std::to_string(max_bytes) + " bytes");
  data.resize(used);
  return Result<std::string>::ok(std::move(data));
}

}  // namespace

Result<std::string> HostFileSystem::read_file(const std::string& path, size_t max_bytes) {
  auto host = host_path(path);
  if (!host) return host;
  int fd = open_for_reading(*host);
  if (fd < 0) return Result<std::string>::fail(path + ": " + errno_reason(errno));
  struct stat st {};
  bool stat_ok = ::fstat(fd, &st) == 0;
  return read_open_file(fd, stat_ok ? &st : nullptr, path, max_bytes);
}

Result<std::string> HostFileSystem::read_records(const std::string& path, size_t max_bytes) {
  // A recording keeps what the device gave as a plain file.
  if (!is_live()) {
    if (stat(path).type != FileType::regular) return FileSystem::read_records(path, max_bytes);
    return read_file(path, max_bytes);
  }
  // O_NONBLOCK: at the last record read() says EAGAIN instead of waiting
  // for the next one.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return Result<std::string>::fail(path + ": " + errno_reason(errno));
  std::string data;
  char record[8192];  // the kernel's longest /dev/kmsg record is 8 KiB
  for (;;) {
    ssize_t n = ::read(fd, record, sizeof record);
    if (n > 0) {
      if (data.size() + static_cast<size_t>(n) > max_bytes) {
        ::close(fd);
        return Result<std::string>::fail(path + ": larger than " + std::to_string(max_bytes) + " bytes");
      }
      data.append(record, static_cast<size_t>(n));
      continue;
    }
    if (n == 0 || errno == EAGAIN) break;
    // EPIPE: the record about to be read was overwritten; the next read
    // goes on with the oldest one still there.
    if (errno == EINTR || errno == EPIPE) continue;
    int err = errno;
    ::close(fd);
    return Result<std::string>::fail(path + ": " + errno_reason(err));
  }
  ::close(fd);
  return Result<std::string>::ok(std::move(data));
}

Result<bool> HostFileSystem::try_open_read_write(const std::string& path) {
  if (!is_live()) return FileSystem::try_open_read_write(path);
  // O_NONBLOCK and an immediate close: opening /dev/kfd or a render node
  // this way creates no GPU context and cannot hang.
  int fd = ::open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    int err = errno;
    if (err == EACCES || err == EPERM) return Result<bool>::ok(false);
    return Result<bool>::fail(path + ": " + errno_reason(err));
  }
  ::close(fd);
  return Result<bool>::ok(true);
}

Result<std::vector<std::string>> HostFileSystem::list_dir(const std::string& path) {
  auto host = host_path(path);
  if (!host) return Result<std::vector<std::string>>::fail(host.error());
  DIR* dir = ::opendir(host->c_str());
  if (!dir) return Result<std::vector<std::string>>::fail(path + ": " + errno_reason(errno));
  std::vector<std::string> names;
  while (auto* ent = ::readdir(dir)) {
    std::string_view name = ent->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  return Result<std::vector<std::string>>::ok(std::move(names));
}

}  // namespace rocmdoc
