#include "probe/pci_names.h"

// libpci 3.9's header has no extern "C" of its own.
extern "C" {
#include <pci/pci.h>
}

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace rocmdoc {

namespace {

// libpci reports fatal errors through pci_access::error, whose default
// prints and calls exit(): a doctor must never end because a database is
// odd. Ours jumps back to the guarded call that entered libpci instead
// (only C frames lie between, so nothing is skipped that needs unwinding),
// and the database then stops answering.
thread_local std::jmp_buf* libpci_escape = nullptr;

[[noreturn]] void libpci_error(char*, ...) {
  if (libpci_escape) std::longjmp(*libpci_escape, 1);
  std::abort();  // unreachable: every libpci call below is guarded
}

void libpci_quiet(char*, ...) {}

// Each guard keeps setjmp in a frame that changes no local after it, so
// nothing can be clobbered by the jump.
bool guarded_init(pci_access* access) {
  std::jmp_buf escape;
  libpci_escape = &escape;
  if (setjmp(escape) != 0) {
    libpci_escape = nullptr;
    return false;
  }
  pci_init(access);
  libpci_escape = nullptr;
  return true;
}

bool guarded_lookup(pci_access* access, char* buffer, int size, int flags, int a, int b, const char** name) {
  std::jmp_buf escape;
  libpci_escape = &escape;
  if (setjmp(escape) != 0) {
    libpci_escape = nullptr;
    return false;
  }
  *name = pci_lookup_name(access, buffer, size, flags, a, b);
  libpci_escape = nullptr;
  return true;
}

// Names only from the database: no numbers for unlisted ids, no udev hwdb
// (so that the answer is pci.ids, the same on every run) and no network.
constexpr int kLookupFlags = PCI_LOOKUP_NO_NUMBERS | PCI_LOOKUP_NO_HWDB;

}  // namespace

struct PciNameDatabase::Impl {
  std::mutex mutex;  // libpci is not thread-safe
  pci_access* access = nullptr;
  bool usable = false;
  char buffer[1024];

  std::optional<std::string> lookup(int flags, int a, int b) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!usable) return std::nullopt;
    const char* name = nullptr;
    if (!guarded_lookup(access, buffer, sizeof buffer, flags | kLookupFlags, a, b, &name)) {
      usable = false;
      return std::nullopt;
    }
    if (!name || !*name) return std::nullopt;
    return std::string(name);
  }
};

PciNameDatabase::PciNameDatabase(const std::string& ids_path) : impl_(std::make_unique<Impl>()) {
  pci_access* access = pci_alloc();
  impl_->access = access;
  access->error = libpci_error;
  access->warning = libpci_quiet;
  access->debug = libpci_quiet;
  // Builds with DNS support default to a cache under ~/.cache: not wanted.
  access->id_lookup_mode = 0;
  if (!ids_path.empty()) pci_set_name_list_path(access, strdup(ids_path.c_str()), 1);
  // pci_init() must pick an access method; the "dump" method reading an
  // empty file is one that never touches the bus or I/O ports (automatic
  // detection could, on a live root machine without sysfs).
  int dump = pci_lookup_method(const_cast<char*>("dump"));
  if (dump < 0 || pci_set_param(access, const_cast<char*>("dump.name"), const_cast<char*>("/dev/null")) != 0) {
    impl_->usable = true;  // names need no access method; pci_init only sets defaults
    return;
  }
  access->method = static_cast<unsigned>(dump);
  impl_->usable = guarded_init(access);
}

PciNameDatabase::~PciNameDatabase() {
  // libpci closes its files before it reports an error, so its state is
  // whole enough to free even after one.
  pci_cleanup(impl_->access);
}

std::optional<std::string> PciNameDatabase::vendor(uint16_t vendor_id) {
  return impl_->lookup(PCI_LOOKUP_VENDOR, vendor_id, 0);
}

std::optional<std::string> PciNameDatabase::device(uint16_t vendor_id, uint16_t device_id) {
  return impl_->lookup(PCI_LOOKUP_DEVICE, vendor_id, device_id);
}

std::optional<std::string> PciNameDatabase::class_name(uint32_t class_code) {
  int base_and_sub = static_cast<int>((class_code >> 8) & 0xffff);
  auto name = impl_->lookup(PCI_LOOKUP_CLASS, base_and_sub, 0);
  // When only the base class is listed, libpci appends the number
  // ("Unassigned class [ffff]") despite PCI_LOOKUP_NO_NUMBERS.
  char number[16];
  std::snprintf(number, sizeof number, " [%04x]", static_cast<unsigned>(base_and_sub));
  if (name && name->size() > std::strlen(number) && name->compare(name->size() - std::strlen(number), std::string::npos, number) == 0)
    name->resize(name->size() - std::strlen(number));
  return name;
}

PciNameDatabase& system_pci_names() {
  static PciNameDatabase database;
  return database;
}

}  // namespace rocmdoc
