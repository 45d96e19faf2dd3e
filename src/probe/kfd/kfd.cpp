// kfd: the compute driver's device node and its topology, with each GPU
// node tied to its PCI device (by address, never by position: KFD numbers
// nodes in its own order) and to its DRM render node (by minor number).

#include <map>

#include "probe/amdgpu/pci_devices.h"
#include "probe/kfd/topology.h"
#include "probe/probe.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

// Device nodes of a bare recorded tree were not kept (only a sidecar or a
// capture's ls listing records them), so their absence says nothing.
bool device_nodes_unrecorded(ProbeContext& ctx) {
  return !ctx.machine().live && ctx.machine().recording_kind == "tree";
}

Json device_node_fact(ProbeContext& ctx) {
  const std::string path = "/dev/kfd";
  FileStat st = ctx.fs().stat(path);
  Json d = Json::object();
  if (st.unreadable()) {
    d["present"] = unknown(path + ": " + st.error);
    d["type"] = unknown(path + ": " + st.error);
  } else if (st.type == FileType::missing && device_nodes_unrecorded(ctx)) {
    Json why = unknown("the recorded tree has no sidecar, so its device nodes were not recorded");
    d["present"] = why;
    d["type"] = why;
  } else {
    d["present"] = st.type != FileType::missing;
    d["type"] = st.type == FileType::missing ? Json(nullptr) : Json(file_type_name(st.type));
  }
  return d;
}

// The PCI device behind /sys/class/drm/renderD<minor>: "0000:03:00.0", or
// a partition's platform device ("amdgpu_xcp_1"); null without that node.
Json render_node_device(FileSystem& fs, uint64_t minor) {
  std::string node = "/sys/class/drm/renderD" + std::to_string(minor);
  FileStat st = fs.stat_follow(node);
  if (st.type == FileType::missing) return st.error.empty() ? Json(nullptr) : unknown(node + ": " + st.error);
  auto device = fs.resolve(node + "/device");
  if (!device) return unknown(device.error());
  return path_basename(*device);
}

Json matched_pci(const Json& address, const Result<std::vector<PciDeviceSummary>>& pci) {
  if (!address.is_string()) return address.is_null() ? unknown("the node has no PCI address") : address;
  if (!pci) return unknown("the PCI devices are unknown: " + pci.error());
  for (auto& d : *pci)
    if (d.address == address.get<std::string>()) return true;
  return false;
}

// "DDDD:BB:DD", the address without its function.
std::string slot_of(const std::string& address) { return address.substr(0, address.rfind('.')); }

// A partitioned GPU (MI300 in CPX mode) has one KFD node per partition,
// and the kernel ORs the partition number into location_id's low bits
// (kfd_topology_add_device), so partitions read as functions .1 to .7 of
// one slot, as amd-smi shows them. The PCI function they run on is the
// slot's function 0.
Json pci_device_of(const Json& address, const std::map<std::string, int>& gpus_per_slot) {
  if (!address.is_string()) return address;
  std::string slot = slot_of(address.get<std::string>());
  auto it = gpus_per_slot.find(slot);
  return it != gpus_per_slot.end() && it->second > 1 ? Json(slot + ".0") : address;
}

Json gpu_entry(ProbeContext& ctx, const Json& node, const std::map<std::string, int>& gpus_per_slot,
               const Result<std::vector<PciDeviceSummary>>& pci) {
  Json g = Json::object();
  g["node"] = node["id"];
  g["gfx"] = node["gfx"];
  g["pci_address"] = node["pci_address"];
  g["pci_device"] = pci_device_of(node["pci_address"], gpus_per_slot);
  const Json& minor = node["drm_render_minor"];
  // Render minors start at 128 (DRM_MINOR_RENDER); a GPU without a render
  // node writes 0.
  bool has_render = minor.is_number_unsigned() && minor.get<uint64_t>() >= 128;
  g["render_node"] = has_render ? Json("/dev/dri/renderD" + std::to_string(minor.get<uint64_t>()))
                                : (is_unknown(minor) ? minor : Json(nullptr));
  g["render_node_device"] = has_render ? render_node_device(ctx.fs(), minor.get<uint64_t>()) : g["render_node"];
  g["matched_pci"] = matched_pci(g["pci_device"], pci);
  g["vram_bytes"] = node["vram_bytes"];
  return g;
}

}  // namespace

Json probe_kfd(ProbeContext& ctx, const Json& facts) {
  Json out = Json::object();
  out["device_node"] = device_node_fact(ctx);
  auto nodes = read_kfd_nodes(ctx.fs());
  if (!nodes) {
    out["nodes"] = unknown(nodes.error());
    out["gpus"] = unknown(nodes.error());
    return out;
  }
  auto pci = pci_device_summaries(ctx, facts);
  std::map<std::string, int> gpus_per_slot;
  for (auto& node : *nodes)
    if (node["pci_address"].is_string()) ++gpus_per_slot[slot_of(node["pci_address"].get<std::string>())];
  Json list = Json::array(), gpus = Json::array();
  for (auto& node : *nodes) {
    list.push_back(node);
    const Json& simd = node["simd_count"];
    if (is_unknown(simd)) {
      gpus.push_back(unknown("node " + node["id"].dump() + ": " + unknown_reason(simd)));
      continue;
    }
    if (simd.get<uint64_t>() > 0) gpus.push_back(gpu_entry(ctx, node, gpus_per_slot, pci));
  }
  out["nodes"] = list;
  out["gpus"] = gpus;
  return out;
}

}  // namespace rocmdoc
