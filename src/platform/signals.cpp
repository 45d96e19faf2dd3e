#include "platform/signals.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace rocmdoc {

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr int kSlots = 16;
constexpr size_t kPathMax = 4096;

// Written by the main thread, read by the handler: a slot is filled before
// `used` is set and `used` cleared before it is reused.
struct Slot {
  volatile sig_atomic_t used = 0;
  char path[kPathMax] = {};
};
Slot g_slots[kSlots];
volatile pid_t g_child = 0;
volatile sig_atomic_t g_child_shares_group = 0;

// Everything below runs in the signal handler: system calls only, no
// allocation, no locks, no exceptions.

// getdents64's record: inode (8), offset (8), length (2), type (1), name.
constexpr size_t kReclenOffset = 16, kNameOffset = 19;

void remove_tree(int dirfd, const char* name, int depth) {
  if (::unlinkat(dirfd, name, 0) == 0 || errno == ENOENT) return;
  if (depth > 64) return;  // deeper than any tree rocmdoc writes
  int fd = ::openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  // Removing entries while reading the directory may skip some: read it
  // again from the start until a pass finds nothing left to remove.
  alignas(8) char buf[2048];
  for (int pass = 0; pass < 16; ++pass) {
    bool removed = false;
    ::lseek(fd, 0, SEEK_SET);
    long n;
    while ((n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
      for (long off = 0; off < n;) {
        std::uint16_t reclen;
        std::memcpy(&reclen, buf + off + kReclenOffset, sizeof reclen);
        const char* entry = buf + off + kNameOffset;
        off += reclen;
        if (std::strcmp(entry, ".") == 0 || std::strcmp(entry, "..") == 0) continue;
        remove_tree(fd, entry, depth + 1);
        removed = true;
      }
    }
    if (!removed) break;
  }
  ::close(fd);
  ::unlinkat(dirfd, name, AT_REMOVEDIR);
}

void on_signal(int sig, siginfo_t* info, void*) {
  int saved_errno = errno;
  pid_t child = g_child;
  if (child > 0) {
    // SI_KERNEL: the terminal's Ctrl-C (or hang-up) to the foreground group.
    bool from_terminal = info && info->si_code == SI_KERNEL;
    if (!(from_terminal && g_child_shares_group)) ::kill(child, sig);
    errno = saved_errno;
    return;
  }
  for (auto& slot : g_slots)
    if (slot.used) remove_tree(AT_FDCWD, slot.path, 0);
  // End the process as the signal would have: blocked until this handler
  // returns, then delivered with the default action.
  ::signal(sig, SIG_DFL);
  ::raise(sig);
  errno = saved_errno;
}

struct sigaction handler_action() {
  struct sigaction sa {};
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  for (int s : kSignals) sigaddset(&sa.sa_mask, s);
  return sa;
}

// Installs the handler where the signal still has its default action: an
// ignored one (nohup) stays ignored, another handler is left alone. Asked
// each time, not remembered: whatever set a signal back to its default since
// (a forked child, a library) would otherwise leave the temporaries behind.
void install_where_default() {
  struct sigaction sa = handler_action();
  for (int s : kSignals) {
    struct sigaction old {};
    if (::sigaction(s, nullptr, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
      ::sigaction(s, &sa, nullptr);
  }
}

struct sigaction g_saved[3];

}  // namespace

RemoveOnSignal::RemoveOnSignal(const std::string& path) {
  if (path.empty() || path.size() >= kPathMax) return;
  for (int i = 0; i < kSlots; ++i) {
    if (g_slots[i].used) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].used = 1;
    slot_ = i;
    break;
  }
  install_where_default();
}

RemoveOnSignal::~RemoveOnSignal() {
  if (slot_ >= 0) g_slots[slot_].used = 0;
}

HoldSignals::HoldSignals() {
  sigset_t held;
  sigemptyset(&held);
  for (int s : kSignals) sigaddset(&held, s);
  ::sigprocmask(SIG_BLOCK, &held, &saved_);
}

HoldSignals::~HoldSignals() { ::sigprocmask(SIG_SETMASK, &saved_, nullptr); }

ForwardSignals::ForwardSignals(pid_t child, bool child_shares_group) {
  g_child_shares_group = child_shares_group ? 1 : 0;
  g_child = child;
  struct sigaction sa = handler_action();
  for (size_t i = 0; i < 3; ++i) {
    ::sigaction(kSignals[i], nullptr, &g_saved[i]);
    if ((g_saved[i].sa_flags & SA_SIGINFO) || g_saved[i].sa_handler != SIG_IGN) ::sigaction(kSignals[i], &sa, nullptr);
  }
}

ForwardSignals::~ForwardSignals() {
  for (size_t i = 0; i < 3; ++i) ::sigaction(kSignals[i], &g_saved[i], nullptr);
  g_child = 0;
}

void add_handled_signals(sigset_t& set) {
  for (int s : kSignals) sigaddset(&set, s);
}

}  // namespace rocmdoc
