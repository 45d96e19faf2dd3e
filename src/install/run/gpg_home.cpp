#include "install/run/gpg_home.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace rocmdoc {

TemporaryGpgHome::TemporaryGpgHome() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp == '/' ? tmp : "/tmp") + "/rocmdoc-gpg-XXXXXX";
  HoldSignals made_and_known_together;
  if (::mkdtemp(pattern.data()) == nullptr) {
    error_ = "cannot make a temporary GnuPG home " + pattern + ": " + std::strerror(errno);
    return;
  }
  path_ = pattern;  // mkdtemp makes it 0700, as gpg wants
  on_signal_.emplace(path_);
}

TemporaryGpgHome::~TemporaryGpgHome() {
  if (path_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::vector<std::string> TemporaryGpgHome::gpg(const std::vector<std::string>& args) const {
  std::vector<std::string> argv = {"gpg", "--homedir", path_, "--batch", "--no-options"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

}  // namespace rocmdoc
