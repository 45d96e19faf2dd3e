// What the build knows: rocmdoc's version and where the distribution keeps
// pci.ids. Defined in one generated file, so a new version recompiles that
// file alone.
#pragma once

#include <string>

namespace rocmdoc {

std::string rocmdoc_version();
// libpci's pci.ids (its pkg-config idsdir), which the distribution's
// pci.ids package keeps current.
std::string pci_ids_path();

}  // namespace rocmdoc
