#include "platform/terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

namespace rocmdoc {

bool is_terminal(int fd) { return ::isatty(fd) == 1; }

size_t terminal_columns(int fd) {
  struct winsize size {};
  if (::ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

}  // namespace rocmdoc
