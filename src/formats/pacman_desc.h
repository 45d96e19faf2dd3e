// pacman's local database entry: /var/lib/pacman/local/<name>-<version>/desc,
// written by libalpm (lib/libalpm/be_local.c, local_db_write). Each field is
// a line "%NAME%" followed by its value lines, up to an empty line:
//
//   %NAME%
//   rocm-hip-runtime
//
//   %VERSION%
//   6.4.1-1
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace rocmdoc {

struct PacmanPackage {
  std::string name;
  std::string version;   // [epoch:]pkgver-pkgrel, "6.4.1-1"
  std::string base;      // the PKGBUILD that built it (%BASE%), "" when absent
  std::string arch;      // "x86_64", "any"
  std::string packager;  // "Name <user@archlinux.org>"
  std::string url;
};

// An error when the text has no %NAME% or %VERSION%, or is not a desc file.
Result<PacmanPackage> parse_pacman_desc(std::string_view text);

// Where pacman keeps its local database, and the most of one desc file read.
constexpr const char* kPacmanLocalDir = "/var/lib/pacman/local";
constexpr size_t kPacmanDescMaxBytes = 1024 * 1024;

}  // namespace rocmdoc
