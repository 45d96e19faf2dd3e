// pci: every PCI function under /sys/bus/pci/devices (links resolved into
// /sys/devices/...), with names from pci.ids, and the GPUs among them.
#include "probe/pci/device.h"
#include "formats/pci_names.h"
#include "probe/pci/ip_discovery.h"
#include "probe/pci/sriov.h"
#include "probe/pci/topology.h"
#include "probe/probe.h"

namespace rocmdoc {

Json probe_pci(ProbeContext& ctx, const Json&) {
  const std::string bus = "/sys/bus/pci/devices";
  auto entries = ctx.fs().list_dir(bus);
  if (!entries) return unknown(entries.error());
  PciNameDatabase& names = system_pci_names();
  Json devices = Json::array();
  Json gpus = Json::array();
  // list_dir is sorted, and fixed-width lower-case addresses sort as text.
  for (auto& address : *entries) {
    if (!is_pci_address(address)) continue;  // not a device the kernel would name
    Json device = read_pci_device(ctx, address, names);
    if (is_gpu_device(device)) {
      Json gpu = gpu_summary(device);
      add_sriov_facts(ctx, device, gpu);
      add_ip_discovery_facts(ctx, device, gpu);
      gpus.push_back(std::move(gpu));
    }
    devices.push_back(std::move(device));
  }
  Json out = Json::object();
  out["devices"] = devices;
  out["gpus"] = gpus;
  return out;
}

}  // namespace rocmdoc
