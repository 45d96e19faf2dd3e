// dpkg's package database as one facts collection sees it: the status file
// is read and parsed once, on the first probe that asks (kernel's HWE
// check, rocm's packages), and every package is kept.
#pragma once

#include <optional>
#include <string>

#include "base/result.h"
#include "formats/dpkg_status.h"
#include "platform/filesystem.h"

namespace rocmdoc {

class DpkgDatabase {
 public:
  explicit DpkgDatabase(FileSystem& fs) : fs_(fs) {}

  // The status file's bytes (at most kDpkgStatusMaxBytes), or why not.
  const Result<std::string>& text();
  // Every package in text(), in file order; none when it could not be read.
  const DpkgStatus& status();

 private:
  FileSystem& fs_;
  std::optional<Result<std::string>> text_;
  std::optional<DpkgStatus> status_;
};

}  // namespace rocmdoc
