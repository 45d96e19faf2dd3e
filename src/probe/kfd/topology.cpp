#include "probe/kfd/topology.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "probe/kfd/gfx.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

// Heap types of mem_banks (kfd_topology.h): 1 FB_PUBLIC (VRAM the CPU can
// map), 2 FB_PRIVATE (VRAM it cannot); 0 is system memory, 3-5 GDS, LDS
// and scratch.
constexpr uint64_t kHeapFbPublic = 1;
constexpr uint64_t kHeapFbPrivate = 2;

// A properties file, parsed; or the reason it could not be.
struct Properties {
  std::string path;
  std::map<std::string, std::string> values;
  std::string error;

  Json number(const char* key) const {
    if (!error.empty()) return unknown(error);
    auto it = values.find(key);
    if (it == values.end()) return unknown(path + ": no " + key + " line");
    auto v = parse_uint(it->second);
    if (!v) return unknown(path + ": " + key + " is not a number: " + quote_for_reason(it->second));
    return *v;
  }
};

Properties read_properties(FileSystem& fs, const std::string& path) {
  Properties p{path, {}, {}};
  auto text = fs.read_file(path, 64 * 1024);
  if (!text) p.error = text.error();
  else if (looks_binary(*text)) p.error = path + ": binary content, not KFD properties";
  else if (trim(*text).empty()) p.error = path + ": empty";
  else p.values = parse_key_value_lines(*text);
  return p;
}

Json read_number_file(FileSystem& fs, const std::string& path) {
  auto text = fs.read_file(path, 4096);
  if (!text) return unknown(text.error());
  auto v = parse_uint(trim(*text));
  if (!v) return unknown(path + ": not a number: " + quote_for_reason(*text));
  return *v;
}

// The kernel writes an empty name for CPU nodes: that is null, not unknown.
Json read_name(FileSystem& fs, const std::string& path) {
  auto text = fs.read_file(path, 4096);
  if (!text) return unknown(text.error());
  if (looks_binary(*text)) return unknown(path + ": binary content, not a name");
  std::string name = trim(*text);
  if (name.empty()) return nullptr;
  return name;
}

// PCI ids as the rest of the document writes them ("0x1002"); CPU nodes
// have none (0).
Json pci_id(const Json& number) {
  if (!number.is_number_unsigned()) return number;
  uint64_t v = number.get<uint64_t>();
  if (v == 0) return nullptr;
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%04llx", static_cast<unsigned long long>(v));
  return std::string(buf);
}

Json vram_bytes(FileSystem& fs, const std::string& node_dir) {
  std::string banks_dir = node_dir + "/mem_banks";
  auto banks = fs.list_dir(banks_dir);
  if (!banks) return unknown(banks.error());
  uint64_t total = 0;
  for (auto& bank : *banks) {
    Properties p = read_properties(fs, banks_dir + "/" + bank + "/properties");
    Json heap = p.number("heap_type");
    if (is_unknown(heap)) return heap;
    if (heap.get<uint64_t>() != kHeapFbPublic && heap.get<uint64_t>() != kHeapFbPrivate) continue;
    Json size = p.number("size_in_bytes");
    if (is_unknown(size)) return size;
    uint64_t bytes = size.get<uint64_t>();
    if (total + bytes < total) return unknown(banks_dir + ": the banks' sizes add up to more than 2^64 bytes");
    total += bytes;
  }
  return total;
}

Json gfx_of(const Json& target_version, bool is_gpu) {
  if (!is_gpu) return nullptr;
  if (is_unknown(target_version)) return target_version;
  uint64_t v = target_version.get<uint64_t>();
  if (auto name = gfx_name_from_target_version(v)) return *name;
  return unknown("gfx_target_version " + std::to_string(v) + " does not decode to a gfx target");
}

Json pci_address_of(const Json& domain, const Json& location, bool is_gpu) {
  if (!is_gpu) return nullptr;
  if (is_unknown(domain)) return domain;
  if (is_unknown(location)) return location;
  return pci_address_from_location(domain.get<uint64_t>(), location.get<uint64_t>());
}

}  // namespace

std::string pci_address_from_location(uint64_t domain, uint64_t location_id) {
  unsigned bus = (location_id >> 8) & 0xff, devfn = location_id & 0xff;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04llx:%02x:%02x.%x", static_cast<unsigned long long>(domain), bus, devfn >> 3,
                devfn & 7);
  return buf;
}

Json read_kfd_node(FileSystem& fs, uint64_t id) {
  std::string dir = std::string(kKfdTopologyNodes) + "/" + std::to_string(id);
  Properties props = read_properties(fs, dir + "/properties");
  Json simd = props.number("simd_count");
  // A node is a GPU when it has SIMDs; while that is unknown, so is every
  // fact that depends on it.
  bool is_gpu = simd.is_number_unsigned() && simd.get<uint64_t>() > 0;
  auto gpu_only = [&](Json v) { return is_unknown(simd) ? simd : v; };

  Json n = Json::object();
  n["id"] = id;
  n["name"] = read_name(fs, dir + "/name");
  n["gpu_id"] = read_number_file(fs, dir + "/gpu_id");
  n["cpu_cores_count"] = props.number("cpu_cores_count");
  n["simd_count"] = simd;
  n["gfx_target_version"] = props.number("gfx_target_version");
  n["gfx"] = gpu_only(gfx_of(n["gfx_target_version"], is_gpu));
  n["vendor_id"] = pci_id(props.number("vendor_id"));
  n["device_id"] = pci_id(props.number("device_id"));
  n["location_id"] = props.number("location_id");
  n["domain"] = props.number("domain");
  n["pci_address"] = gpu_only(pci_address_of(n["domain"], n["location_id"], is_gpu));
  n["drm_render_minor"] = props.number("drm_render_minor");
  n["vram_bytes"] = vram_bytes(fs, dir);
  return n;
}

Result<std::vector<Json>> read_kfd_nodes(FileSystem& fs) {
  using R = Result<std::vector<Json>>;
  auto names = fs.list_dir(kKfdTopologyNodes);
  if (!names) {
    FileStat st = fs.stat_follow(kKfdTopologyNodes);
    if (st.absent()) return R::ok({});
    return R::fail(names.error());
  }
  std::vector<uint64_t> ids;
  for (auto& name : *names)
    if (auto id = parse_uint(name); id && *id < (1u << 20)) ids.push_back(*id);
  std::sort(ids.begin(), ids.end());
  std::vector<Json> nodes;
  for (uint64_t id : ids) nodes.push_back(read_kfd_node(fs, id));
  return R::ok(std::move(nodes));
}

}  // namespace rocmdoc
