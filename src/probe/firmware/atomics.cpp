#include "probe/firmware/atomics.h"

namespace rocmdoc {

namespace {

Json hop_json(const AtomicsHop& hop) {
  Json j = Json::object();
  j["address"] = hop.address;
  const char* fields[] = {"role", "routing", "completer_32", "completer_64", "completer_128", "requester_enabled",
                          "egress_blocked"};
  if (!hop.capability) {
    for (const char* f : fields) j[f] = unknown(hop.capability.error());
    return j;
  }
  if (!*hop.capability) {
    j["role"] = "not_pcie";
    for (size_t i = 1; i < std::size(fields); ++i) j[fields[i]] = nullptr;
    return j;
  }
  const PcieAtomicsCapability& c = **hop.capability;
  j["role"] = pcie_port_type_name(c.port_type);
  j["routing"] = c.routing;
  j["completer_32"] = c.completer_32;
  j["completer_64"] = c.completer_64;
  j["completer_128"] = c.completer_128;
  j["requester_enabled"] = c.requester_enabled;
  j["egress_blocked"] = c.egress_blocked;
  return j;
}

std::string named(const AtomicsHop& hop, const PcieAtomicsCapability& c) {
  return hop.address + " (" + pcie_port_type_name(c.port_type) + ")";
}

// Why the kernel refuses, judging the GPU itself; empty when it accepts.
std::string device_refusal(const AtomicsHop& gpu, const PcieAtomicsCapability& c) {
  if (c.port_type == kPcieEndpoint || c.port_type == kPcieLegacyEndpoint || c.port_type == kPcieRcIntegratedEndpoint)
    return "";
  return named(gpu, c) + " is not an endpoint; the kernel enables AtomicOps only for endpoints";
}

// Why the kernel refuses, judging one bridge; empty when it passes.
std::string bridge_refusal(const AtomicsHop& bridge, const PcieAtomicsCapability& c) {
  bool switch_port = c.port_type == kPcieSwitchUpstream || c.port_type == kPcieSwitchDownstream;
  if (switch_port && !c.routing) return named(bridge, c) + " does not support AtomicOp routing";
  if (c.port_type == kPcieRootPort && !(c.completer_32 && c.completer_64))
    return named(bridge, c) + " cannot complete 32- and 64-bit AtomicOps";
  if (c.port_type == kPcieSwitchUpstream && c.egress_blocked) return named(bridge, c) + " blocks AtomicOps on egress";
  return "";
}

}  // namespace

Json decide_atomics_routing(const std::vector<AtomicsHop>& hops) {
  Json out = Json::object();
  Json path = Json::array();
  for (auto& hop : hops) path.push_back(hop_json(hop));
  std::string refusal, unreadable;
  const AtomicsHop* root_port = nullptr;
  for (size_t i = 0; i < hops.size() && refusal.empty(); ++i) {
    const AtomicsHop& hop = hops[i];
    if (!hop.capability) {
      if (unreadable.empty()) unreadable = hop.capability.error();  // names the file already
      continue;
    }
    if (!*hop.capability) {
      if (i == 0) refusal = hop.address + " is not a PCI Express device";
      continue;  // a conventional bridge: the kernel does not check it
    }
    const PcieAtomicsCapability& c = **hop.capability;
    refusal = i == 0 ? device_refusal(hop, c) : bridge_refusal(hop, c);
    if (i > 0 && c.port_type == kPcieRootPort) root_port = &hop;
  }
  // A refusal anywhere decides, even if other hops were unreadable: the
  // kernel would refuse whichever it checked first.
  if (hops.empty()) {
    out["routed_to_root"] = unknown("no device to check");
    out["reason"] = "no device to check";
  } else if (!refusal.empty()) {
    out["routed_to_root"] = false;
    out["reason"] = refusal;
  } else if (!unreadable.empty()) {
    out["routed_to_root"] = unknown(unreadable);
    out["reason"] = unreadable;
  } else {
    out["routed_to_root"] = true;
    if (hops.size() == 1)
      out["reason"] = "no bridge between " + hops[0].address +
                      " and the root complex; the kernel enables AtomicOps without checking a completer";
    else if (!root_port)
      out["reason"] = "every switch port routes AtomicOps; no root port on the path, so the kernel checks no completer";
    else
      out["reason"] = "every switch port routes AtomicOps and root port " + root_port->address +
                      " completes 32- and 64-bit AtomicOps";
  }
  out["path"] = path;
  return out;
}

}  // namespace rocmdoc
