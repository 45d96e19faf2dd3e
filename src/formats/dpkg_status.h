// The control-file syntax of dpkg (deb-control(5), deb822(5)) and the
// package database written in it, /var/lib/dpkg/status.
//
// The same stanza syntax carries apt's deb822 sources (*.sources) and its
// preferences (preferences.d), so the stanza reader is shared by them.
// Nothing here throws for bad input: malformed lines are counted, and a
// stanza without a Package field is skipped and counted.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rocmdoc {

struct ControlField {
  std::string name;
  // The first line trimmed; continuation lines (starting with a space or
  // tab) follow, each on its own line with its leading blank removed.
  std::string value;
  size_t line = 0;  // 1-based line of the field name
};

struct ControlStanza {
  size_t line = 0;  // 1-based line where the stanza starts
  std::vector<ControlField> fields;
  // Lines inside the stanza that were neither "Name: value" nor a
  // continuation: how many, and the numbers of the first few (a garbage
  // file must not grow a list as long as itself).
  size_t malformed_count = 0;
  std::vector<size_t> malformed_lines;
  static constexpr size_t kMalformedLinesKept = 8;

  // Field names are case-insensitive (deb822(5)); nullptr when absent.
  const ControlField* find(std::string_view name) const;
  // The field's first line, or "" when absent.
  std::string first_line(std::string_view name) const;
};

// Stanzas are separated by lines that are empty or hold only blanks; lines
// starting with '#' outside a value are comments (deb822). One pass.
std::vector<ControlStanza> parse_control_stanzas(std::string_view text);

struct DpkgPackage {
  std::string name;
  std::string architecture;  // "" when the stanza has none
  std::string version;
  std::string status;        // "install ok installed"
  std::string maintainer;
  std::string source;        // "" when the source package has the same name
  // rpm's Vendor tag ("Fedora Project"): dpkg has none. rpm's and pacman's
  // packages are read into this record too (probe/package_list.h), so that
  // one packages fact serves every package manager.
  std::string vendor;
  size_t line = 0;

  // The third word of Status is the package's state: "installed" means
  // its files are on disk and configured, whatever the wanted action
  // ("install", "hold", "deinstall") says.
  std::string state() const;
  bool installed() const { return state() == "installed"; }
};

// Where dpkg keeps it, and the most of it anything here reads: status files
// of machines with many packages run to several MB, so the limit only
// guards against a runaway file.
constexpr const char* kDpkgStatusPath = "/var/lib/dpkg/status";
constexpr size_t kDpkgStatusMaxBytes = 64 * 1024 * 1024;

struct DpkgStatus {
  std::vector<DpkgPackage> packages;  // every stanza with a Package field, in file order
  size_t stanzas_without_package = 0;
  size_t malformed_lines = 0;
};

// The same reading as parse_control_stanzas, keeping only the fields a
// DpkgPackage has.
DpkgStatus parse_dpkg_status(std::string_view text);

}  // namespace rocmdoc
