// Finding rule files on disk (--rules DIR, /etc/rocmdoc/rules.d).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "rules/rule_loader.h"

namespace rocmdoc {

namespace {

// Run as root, rules decide what root is told to type (and what `fix`
// runs), so like sudoers they must be root's alone: a file or folder that
// another user could write would let that user choose root's commands.
// An ancestor of the rules directory may be writable by others only when it
// is sticky, as /tmp is: then nobody else can rename what root made there.
std::string not_root_only(const std::string& path, const struct stat& st, bool ancestor) {
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  if (st.st_uid != 0)
    return path + ": owned by uid " + std::to_string(st.st_uid) +
           ", and rocmdoc runs as root: rules root reads must be root's alone (chown root:root " + path + ")";
  bool writable = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
  if (writable && !(ancestor && (st.st_mode & S_ISVTX)))
    return path + ": writable by " + ((st.st_mode & S_IWOTH) ? "everyone" : "its group") + " (mode " + mode +
           "), and rocmdoc runs as root: rules root reads must be root's alone (chmod go-w " + path + ")";
  return "";
}

// The rules directory and every directory above it.
std::string check_directory_chain(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(dir, ec).lexically_normal();
  bool first = true;
  while (true) {
    struct stat st;
    if (::stat(p.c_str(), &st) != 0) return p.string() + ": " + std::strerror(errno);
    if (auto why = not_root_only(p.string(), st, !first); !why.empty()) return why;
    first = false;
    if (p == p.root_path() || !p.has_parent_path() || p.parent_path() == p) return "";
    p = p.parent_path();
  }
}

// One rule file, at most kMaxRuleFileBytes, opened without blocking (a FIFO
// named *.yaml must not hang the load) and read only if it is a regular file.
Result<std::string> read_rule_file(const std::string& path, bool as_root) {
  using R = Result<std::string>;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return R::fail(path + ": cannot read: " + std::strerror(errno));
  struct stat st;
  std::string text;
  std::string problem;
  if (::fstat(fd, &st) != 0) problem = path + ": " + std::strerror(errno);
  else if (!S_ISREG(st.st_mode)) problem = path + ": not a regular file";
  else if (as_root) problem = not_root_only(path, st, false);
  if (problem.empty() && st.st_size > static_cast<off_t>(kMaxRuleFileBytes))
    problem = path + ": " + std::to_string(st.st_size) + " bytes, more than a rules file may hold (" +
              std::to_string(kMaxRuleFileBytes) + ", docs/rules.md)";
  char buf[65536];
  while (problem.empty()) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) problem = path + ": " + std::strerror(errno);
    else if (n == 0) break;
    else if (text.size() + static_cast<size_t>(n) > kMaxRuleFileBytes)
      problem = path + ": more than a rules file may hold (" + std::to_string(kMaxRuleFileBytes) + " bytes)";
    else text.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  if (!problem.empty()) return R::fail(problem);
  return R::ok(std::move(text));
}

}  // namespace

Result<std::vector<RuleFile>> read_rule_files(const std::string& dir) {
  namespace fs = std::filesystem;
  using R = Result<std::vector<RuleFile>>;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return R::fail(dir + ": not a directory");
  bool as_root = ::geteuid() == 0;
  if (as_root)
    if (auto why = check_directory_chain(dir); !why.empty()) return R::fail(why);
  std::vector<RuleFile> files;
  fs::path base = fs::path(dir).lexically_normal();
  std::string label = base.filename().empty() ? base.parent_path().filename().string() : base.filename().string();
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  if (ec) return R::fail(dir + ": " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) return R::fail(dir + ": " + ec.message());
    if (as_root && it->is_directory(ec)) {
      struct stat st;
      if (::stat(it->path().c_str(), &st) == 0)
        if (auto why = not_root_only(it->path().string(), st, false); !why.empty()) return R::fail(why);
    }
    // Anything named *.yaml is read, whatever it is: a FIFO, a directory, a
    // link that loops or to /dev/zero is an error naming it, never a rule
    // file skipped without a word.
    if (it->path().extension() != ".yaml") continue;
    auto text = read_rule_file(it->path().string(), as_root);
    if (!text) return R::fail(text.error());
    files.push_back({label + "/" + fs::relative(it->path(), base, ec).generic_string(), std::move(*text)});
  }
  std::sort(files.begin(), files.end(), [](const RuleFile& a, const RuleFile& b) { return a.name < b.name; });
  return R::ok(std::move(files));
}

std::vector<RuleFile> files_under(const std::vector<RuleFile>& files, const std::string& folder) {
  std::vector<RuleFile> out;
  std::string needle = "/" + folder + "/";
  for (auto& f : files)
    if (f.name.find(needle) != std::string::npos) out.push_back(f);
  return out;
}

}  // namespace rocmdoc
