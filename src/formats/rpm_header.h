// rpm's header structure, as rpm keeps one per installed package in its
// database (the `blob` column of rpmdb.sqlite's Packages table): the
// "header blob" of rpm's lib/header.c, without the 8-byte magic that
// precedes a header inside a package file.
//
//   int32 il, int32 dl                (big-endian)
//   il index entries of 16 bytes:     tag, type, offset, count (big-endian)
//   dl bytes of data                  the entries' values, at their offsets
//
// Only the tags that identify a package are read. Every offset and length
// is checked against the blob, so a truncated or hostile blob is an error
// naming what is wrong and where, never a read outside it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace rocmdoc {

// The tag numbers of rpm's lib/rpmtag.h that are read here.
enum class RpmTag : std::uint32_t {
  name = 1000,
  version = 1001,
  release = 1002,
  epoch = 1003,
  distribution = 1010,
  vendor = 1011,
  packager = 1015,
  arch = 1022,
  sourcerpm = 1044,
};

struct RpmHeader {
  std::string name, version, release, arch;
  std::optional<std::uint32_t> epoch;  // absent for most packages
  std::string vendor;                  // "Fedora Project", "" when absent
  std::string packager;                // "Fedora Project", "AMD ROCm <...@amd.com>", ...
  std::string distribution;
  std::string sourcerpm;               // "rocm-runtime-6.4.2-1.fc43.src.rpm"

  // [epoch:]version-release, the form rpm -q --qf '%{EVR}' prints.
  std::string evr() const;
};

// rpm refuses headers with more entries or data than these (lib/header.c,
// HEADER_TAGS_MAX and HEADER_DATA_MAX); so does this parser.
constexpr std::uint32_t kRpmHeaderMaxEntries = 0x0000ffff;
constexpr std::uint32_t kRpmHeaderMaxData = 0x0fffffff;

// The package's identifying tags; an error when the blob is not a header
// or has no Name, Version and Release.
Result<RpmHeader> parse_rpm_header(std::string_view blob);

}  // namespace rocmdoc
