// A throw-away GnuPG home for reading and converting key files: gpg creates
// and writes its home on every call (pubring, trustdb, lock files), and
// rocmdoc must not leave that in root's ~/.gnupg (or fail where $HOME is not
// writable). Removed with everything in it when the object goes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "platform/signals.h"

namespace rocmdoc {

class TemporaryGpgHome {
 public:
  TemporaryGpgHome();  // mkdtemp under $TMPDIR or /tmp, mode 0700
  ~TemporaryGpgHome();
  TemporaryGpgHome(const TemporaryGpgHome&) = delete;
  TemporaryGpgHome& operator=(const TemporaryGpgHome&) = delete;

  bool ok() const { return !path_.empty(); }
  const std::string& path() const { return path_; }
  const std::string& error() const { return error_; }
  // gpg --homedir HOME --batch --no-options ARGS...
  std::vector<std::string> gpg(const std::vector<std::string>& args) const;

 private:
  std::string path_;
  std::string error_;
  std::optional<RemoveOnSignal> on_signal_;  // also gone on Ctrl-C or kill
};

}  // namespace rocmdoc
