#include "probe/firmware/gpus.h"

#include <algorithm>
#include <optional>

#include "probe/firmware/atomics.h"
#include "probe/firmware/config_space.h"
#include "probe/pci/resource.h"

namespace rocmdoc {

namespace {

// A section of the facts document, or why it is not there.
const Json* section(const Json& facts, const char* name, std::string* why) {
  if (!facts.is_object() || !facts.contains(name)) {
    *why = std::string("the ") + name + " section is missing";
    return nullptr;
  }
  const Json& s = facts[name];
  if (!s.is_object() || is_unknown(s)) {
    *why = std::string("the ") + name + " section is unknown" + (is_unknown(s) ? ": " + unknown_reason(s) : "");
    return nullptr;
  }
  return &s;
}

// A non-negative integer however the JSON stores it (signed or unsigned).
std::optional<uint64_t> byte_count(const Json& j) {
  if (j.is_number_unsigned()) return j.get<uint64_t>();
  if (j.is_number_integer() && j.get<int64_t>() >= 0) return static_cast<uint64_t>(j.get<int64_t>());
  return std::nullopt;
}

const Json* pci_device(const Json& pci, const std::string& address) {
  if (!pci.contains("devices") || !pci["devices"].is_array()) return nullptr;
  for (auto& d : pci["devices"])
    if (d.is_object() && d.value("address", Json()) == address) return &d;
  return nullptr;
}

std::string sysfs_dir(const Json& pci, const std::string& address) {
  const Json* d = pci_device(pci, address);
  if (d && d->contains("sysfs_path") && (*d)["sysfs_path"].is_string()) return (*d)["sysfs_path"];
  return "/sys/bus/pci/devices/" + address;
}

Json iommu_group_type(ProbeContext& ctx, const std::string& dir) {
  std::string group = dir + "/iommu_group";
  FileStat st = ctx.fs().stat(group);
  if (st.type == FileType::missing)
    return unknown(group + ": " + (st.error.empty() ? "absent (no IOMMU translates for this device)" : st.error));
  return ctx.read_text_fact(group + "/type");
}

AtomicsHop read_hop(ProbeContext& ctx, const Json& pci, const std::string& address) {
  std::string path = sysfs_dir(pci, address) + "/config";
  // Config space is 256 or 4096 bytes; anything larger is not a config file.
  auto bytes = ctx.fs().read_file(path, 8192);
  if (!bytes) return {address, Result<std::optional<PcieAtomicsCapability>>::fail(bytes.error())};
  auto cap = read_pcie_atomics(*bytes);
  if (!cap) return {address, Result<std::optional<PcieAtomicsCapability>>::fail(path + ": " + cap.error())};
  return {address, cap};
}

Json atomics(ProbeContext& ctx, const Json& pci, const Json& device, const std::string& address) {
  Json parents = device.is_object() ? device.value("parents", Json()) : Json();
  if (!parents.is_array()) {
    std::string why = "the bridges above " + address + " are unknown";
    if (is_unknown(parents)) why += ": " + unknown_reason(parents);
    return unknown(why);
  }
  std::vector<AtomicsHop> hops{read_hop(ctx, pci, address)};
  for (auto& p : parents)
    if (p.is_string()) hops.push_back(read_hop(ctx, pci, p));
  Json out = decide_atomics_routing(hops);
  // A virtual function's AtomicOp Requester Enable is its physical
  // function's; the kernel refuses a VF outright.
  if (ctx.fs().exists(sysfs_dir(pci, address) + "/physfn")) {
    out["routed_to_root"] = false;
    out["reason"] = address + " is an SR-IOV virtual function; the kernel does not enable AtomicOps for one";
  }
  return out;
}

Json largest_memory_bar(const Json& device) {
  Json bars = device.is_object() ? device.value("bars", Json()) : Json();
  if (!bars.is_array()) return unknown("the BARs are unknown" + (is_unknown(bars) ? ": " + unknown_reason(bars) : ""));
  uint64_t largest = 0;
  for (auto& b : bars) {
    if (!b.is_object() || b.value("kind", "") != "memory") continue;
    auto index = byte_count(b.value("index", Json()));
    auto size = byte_count(b.value("size_bytes", Json()));
    if (!index || *index >= kPciRomIndex || !size) continue;  // BARs 0-5 only: not the ROM
    largest = std::max(largest, *size);
  }
  if (largest == 0) return unknown("no memory BAR in the device's resource file");
  return largest;
}

// VRAM as KFD counts it, from the kfd section's gpus, else its nodes.
Json kfd_vram(const Json& facts, const std::string& address) {
  std::string why;
  const Json* kfd = section(facts, "kfd", &why);
  if (!kfd) return unknown(why);
  for (const char* list : {"gpus", "nodes"}) {
    if (!kfd->contains(list) || !(*kfd)[list].is_array()) continue;
    for (auto& n : (*kfd)[list])
      if (n.is_object() && n.value("pci_address", Json()) == address && n.contains("vram_bytes")) {
        const Json& v = n["vram_bytes"];
        if (is_unknown(v)) return v;
        if (auto bytes = byte_count(v)) return *bytes;
        return unknown("KFD's vram_bytes for " + address + " is not a number");
      }
  }
  return unknown("KFD lists no node with VRAM at " + address);
}

Json bar(const Json& facts, const Json& device, const std::string& address) {
  Json b = Json::object();
  b["largest_bytes"] = largest_memory_bar(device);
  b["vram_bytes"] = kfd_vram(facts, address);
  auto largest = byte_count(b["largest_bytes"]), vram = byte_count(b["vram_bytes"]);
  if (largest && vram)
    b["large_bar"] = *largest >= *vram;
  else
    b["large_bar"] = unknown(is_unknown(b["largest_bytes"]) ? unknown_reason(b["largest_bytes"])
                                                            : unknown_reason(b["vram_bytes"]));
  return b;
}

}  // namespace

Json firmware_gpus(ProbeContext& ctx, const Json& facts) {
  std::string why;
  const Json* pci = section(facts, "pci", &why);
  if (!pci) return unknown(why);
  if (!pci->contains("gpus") || !(*pci)["gpus"].is_array()) return unknown("the pci section has no gpus list");
  Json gpus = Json::array();
  for (auto& g : (*pci)["gpus"]) {
    if (!g.is_object() || g.value("vendor", Json()) != "amd" || !g.value("address", Json()).is_string()) continue;
    std::string address = g["address"];
    const Json* found = pci_device(*pci, address);
    Json device = found ? *found : Json();
    std::string dir = sysfs_dir(*pci, address);
    Json out = Json::object();
    out["address"] = address;
    out["iommu_group_type"] = iommu_group_type(ctx, dir);
    out["atomics"] = atomics(ctx, *pci, device, address);
    out["bar"] = bar(facts, device, address);
    gpus.push_back(out);
  }
  return gpus;
}

}  // namespace rocmdoc
