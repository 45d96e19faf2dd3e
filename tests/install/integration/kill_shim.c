/* The power cut of the fault test (install_faults.sh): preloaded
 * (LD_PRELOAD) into rocmdoc and every process it starts inside the test
 * root, it kills the whole process group with SIGKILL at one exact point, so
 * the test needs no hook in rocmdoc itself. Inert unless
 * ROCMDOC_IT_KILL_AT names the point:
 *
 *   before-rename:PATH   a rename whose source or target is PATH, before it
 *                        happens (a file written beside PATH, not yet in place;
 *                        dpkg unpacking PATH; usermod replacing /etc/group)
 *   after-rename:PATH    the same rename, right after it happened (the
 *                        journal has just recorded a step)
 *   exec:NAME            a program about to start (posix_spawn from rocmdoc,
 *                        exec from dpkg): NAME is the path or the argv[0] given
 *
 * Just before the kill it writes the point into the file ROCMDOC_IT_KILLED,
 * so the test knows the run died there and not elsewhere. The real calls go
 * through dlsym(RTLD_NEXT) or the raw system call, so nothing else changes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int matches(const char *kind, const char *path) {
  const char *at = getenv("ROCMDOC_IT_KILL_AT");
  size_t n = strlen(kind);
  if (!at || !path || strncmp(at, kind, n) != 0 || at[n] != ':') return 0;
  return strcmp(at + n + 1, path) == 0;
}

static void power_cut(void) {
  const char *marker = getenv("ROCMDOC_IT_KILLED");
  const char *at = getenv("ROCMDOC_IT_KILL_AT");
  if (marker) {
    int fd = open(marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ssize_t ignored = write(fd, at, strlen(at));
      (void)ignored;
      close(fd);
    }
  }
  kill(0, SIGKILL);  /* this process group: rocmdoc, apt, dpkg, scripts */
  _exit(137);        /* not reached */
}

static void before_rename(const char *from, const char *to) {
  if (matches("before-rename", from) || matches("before-rename", to)) power_cut();
}

static int after_rename(long result, const char *from, const char *to) {
  if (result == 0 && (matches("after-rename", from) || matches("after-rename", to))) power_cut();
  return (int)result;
}

int rename(const char *from, const char *to) {
  before_rename(from, to);
  return after_rename(syscall(SYS_rename, from, to), from, to);
}

int renameat(int fd_from, const char *from, int fd_to, const char *to) {
  before_rename(from, to);
  return after_rename(syscall(SYS_renameat, fd_from, from, fd_to, to), from, to);
}

int renameat2(int fd_from, const char *from, int fd_to, const char *to, unsigned flags) {
  before_rename(from, to);
  return after_rename(syscall(SYS_renameat2, fd_from, from, fd_to, to, flags), from, to);
}

typedef int spawn_fn(pid_t *, const char *, const posix_spawn_file_actions_t *, const posix_spawnattr_t *,
                     char *const[], char *const[]);

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
                 const posix_spawnattr_t *attributes, char *const argv[], char *const envp[]) {
  if (matches("exec", file)) power_cut();
  spawn_fn *real = (spawn_fn *)dlsym(RTLD_NEXT, "posix_spawnp");
  return real(pid, file, actions, attributes, argv, envp);
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
                const posix_spawnattr_t *attributes, char *const argv[], char *const envp[]) {
  if (matches("exec", path)) power_cut();
  spawn_fn *real = (spawn_fn *)dlsym(RTLD_NEXT, "posix_spawn");
  return real(pid, path, actions, attributes, argv, envp);
}

typedef int execve_fn(const char *, char *const[], char *const[]);
typedef int execv_fn(const char *, char *const[]);

int execve(const char *path, char *const argv[], char *const envp[]) {
  if (matches("exec", path)) power_cut();
  execve_fn *real = (execve_fn *)dlsym(RTLD_NEXT, "execve");
  return real(path, argv, envp);
}

int execv(const char *path, char *const argv[]) {
  if (matches("exec", path)) power_cut();
  execv_fn *real = (execv_fn *)dlsym(RTLD_NEXT, "execv");
  return real(path, argv);
}

int execvp(const char *file, char *const argv[]) {
  if (matches("exec", file)) power_cut();
  execv_fn *real = (execv_fn *)dlsym(RTLD_NEXT, "execvp");
  return real(file, argv);
}
