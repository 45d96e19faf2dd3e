// PyTorch installs, read from torch/version.py as text: rocmdoc never
// imports torch or runs Python, so a broken install cannot hang or crash
// it, and a recorded machine tells as much as a live one.
#pragma once

#include <string>
#include <string_view>

#include "base/fact.h"

namespace rocmdoc {

// torch/version.py as pytorch's tools/generate_torch_version.py writes it:
//   __version__ = '2.5.1+rocm6.2'
//   cuda: Optional[str] = None        (older: cuda = None)
//   hip: Optional[str] = '6.2.41133-dd7f95766'
// Returns {version, hip, cuda, build}: each a value, null (a None) or
// unknown; build is "rocm" (hip set), "cuda" (cuda set), "xpu" (xpu set)
// or "cpu" (none set).
Json parse_torch_version_py(const std::string& path, std::string_view text);

// "/usr/lib/python3.12/site-packages" -> "3.12"; "" when no path component
// names a python3.N directory.
std::string python_version_in_path(std::string_view path);

// "python3.12" -> "3.12"; "" for any other name ("python3", "python3-config").
std::string python_version_of_name(std::string_view name);

}  // namespace rocmdoc
