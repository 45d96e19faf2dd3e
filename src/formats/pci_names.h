// Names for PCI ids from the pci.ids database at libpci's path.
//
// The devices come from the probed machine's files (a recorded machine is
// not this computer), the names from this computer's pci.ids. Only the lines
// asked for are looked up, on the first use, where libpci would parse the
// whole 1.3 MB file into tables.
// A missing or unreadable database, or a line that does not parse, gives
// no name, never a failure.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace rocmdoc {

class PciNameDatabase {
 public:
  // ids_path: a pci.ids file; empty for libpci's default location.
  // Nothing is read until the first lookup.
  explicit PciNameDatabase(const std::string& ids_path = "");
  ~PciNameDatabase();
  PciNameDatabase(const PciNameDatabase&) = delete;
  PciNameDatabase& operator=(const PciNameDatabase&) = delete;

  std::optional<std::string> vendor(uint16_t vendor_id);
  std::optional<std::string> device(uint16_t vendor_id, uint16_t device_id);
  // class_code: the 24-bit class as sysfs writes it (0x030000); the name is
  // that of the subclass, else of the base class.
  std::optional<std::string> class_name(uint32_t class_code);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The process-wide database at libpci's default path, opened on first use.
PciNameDatabase& system_pci_names();

}  // namespace rocmdoc
