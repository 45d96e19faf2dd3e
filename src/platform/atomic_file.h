// Writing a file whole or not at all: a temporary file beside the target,
// fsync, rename, fsync of the directory. A crash leaves the old file or the
// new one, never half of either.
#pragma once

#include <string>

#include "base/result.h"

namespace rocmdoc {

Result<bool> write_file_atomically(const std::string& path, const std::string& content, unsigned mode = 0644);

}  // namespace rocmdoc
