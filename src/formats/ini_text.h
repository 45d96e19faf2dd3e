// The INI files package managers configure repositories with: dnf's and
// zypper's *.repo files (/etc/yum.repos.d, /etc/zypp/repos.d) and pacman's
// /etc/pacman.conf with the files it includes:
//
//   [rocm]                                   [extra]
//   name=ROCm 6.4.1 repository               Include = /etc/pacman.d/mirrorlist
//   baseurl=https://repo.radeon.com/rocm/rhel9/6.4.1/main
//   enabled=1
//
// Bytes in, sections out; what the keys mean is the reader's business.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rocmdoc {

struct IniEntry {
  std::string key;    // as written, trimmed ("baseurl", "Server")
  std::string value;  // trimmed; "" for a bare key (pacman's "Color"); continuation lines joined by '\n'
  size_t line = 0;    // 1-based
};

struct IniSection {
  std::string name;  // between the brackets, trimmed; "" for the entries before the first header
  size_t line = 0;   // the header's line; 0 for the unnamed leading section
  std::vector<IniEntry> entries;
  // The last entry of that key (case-sensitive, as dnf and pacman read keys), or nullptr.
  const IniEntry* find(std::string_view key) const;
};

struct IniSyntax {
  // pacman cuts a line at its first '#'; dnf and zypper take '#' and ';'
  // as comments only at the start of a line.
  bool inline_hash_comments = false;
  // dnf (libdnf's ConfigParser) and zypper read a line that starts with
  // blanks as more of the previous value (a baseurl with several URLs).
  bool continuation_lines = false;
};

// Every section in file order; the leading unnamed one only when it has
// entries. Lines that are neither a header, an entry nor a comment are
// skipped, as the package managers' parsers stop at them or ignore them.
std::vector<IniSection> parse_ini(std::string_view text, IniSyntax syntax);

}  // namespace rocmdoc
