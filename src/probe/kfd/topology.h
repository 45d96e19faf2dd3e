// KFD's topology in sysfs: /sys/class/kfd/kfd/topology/nodes/N, one node
// per CPU socket and per GPU (or GPU partition). Each node has
// `properties` ("key value" lines, kfd_topology.c node_show), `name`,
// `gpu_id`, and mem_banks/M/properties (heap_type, size_in_bytes, ...).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/fact.h"
#include "platform/filesystem.h"
#include "base/result.h"

namespace rocmdoc {

constexpr const char* kKfdTopologyNodes = "/sys/class/kfd/kfd/topology/nodes";

// "DDDD:BB:DD.F" from the node's `domain` and `location_id`. The kernel
// writes location_id = pci_dev_id() = bus << 8 | devfn, with a partition
// number ORed into the low bits on partitioned GPUs (see kfd.cpp); one
// short-lived kernel put it in bits 28-31 instead, which are not part of
// the address either way.
std::string pci_address_from_location(uint64_t domain, uint64_t location_id);

// One nodes[] entry of the facts document (see docs/facts.md "kfd").
// Never fails: what cannot be read becomes unknown field by field.
Json read_kfd_node(FileSystem& fs, uint64_t id);

// Every node, sorted by id (numerically: node 10 follows node 9). An
// absent nodes directory is an empty list (KFD is not loaded); one that
// cannot be listed fails with the reason.
Result<std::vector<Json>> read_kfd_nodes(FileSystem& fs);

}  // namespace rocmdoc
