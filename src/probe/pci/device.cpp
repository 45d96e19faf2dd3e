// pci device: the sysfs attributes the kernel writes for each PCI function
// (drivers/pci/pci-sysfs.c): ids as "0x%04x", class as "0x%06x", links as
// "16.0 GT/s PCIe", BARs in `resource`.
#include "probe/pci/device.h"

#include <cstdio>

#include "probe/pci/resource.h"
#include "probe/pci/topology.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

constexpr uint64_t kAmdVendor = 0x1002;

// A hex attribute of at most `digits` digits, written back as sysfs writes
// it (lower case, zero-padded), so that ids compare as strings.
Json read_hex_attribute(ProbeContext& ctx, const std::string& path, int digits) {
  Json text = ctx.read_text_fact(path);
  if (is_unknown(text)) return text;
  std::string s = text.get<std::string>();
  auto value = starts_with(s, "0x") && s.size() > 2 && s.size() <= static_cast<size_t>(2 + digits)
                   ? parse_hex(s)
                   : std::nullopt;
  if (!value) return unknown(path + ": not a hex id of up to " + std::to_string(digits) + " digits: " + quote_for_reason(s));
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(*value));
  return buf;
}

// Optional attributes (boot_vga, driver): null when absent, unknown when
// present but unreadable.
bool absent(ProbeContext& ctx, const std::string& path, Json* why) {
  FileStat st = ctx.fs().stat(path);
  if (st.type != FileType::missing) return false;
  *why = st.error.empty() ? Json(nullptr) : unknown(path + ": " + st.error);
  return true;
}

Json read_driver(ProbeContext& ctx, const std::string& dir) {
  std::string path = dir + "/driver";
  Json none;
  if (absent(ctx, path, &none)) return none;
  // The link points into /sys/bus/pci/drivers/<name>; its name is all we
  // need, so it is not followed (recordings rarely keep the drivers tree).
  auto target = ctx.fs().read_link(path);
  if (!target) return unknown(target.error());
  std::string name = path_basename(*target);
  if (name.empty() || name == "." || name == "..") return unknown(path + ": link target has no name: " + quote_for_reason(*target));
  return name;
}

Json read_boot_vga(ProbeContext& ctx, const std::string& dir) {
  std::string path = dir + "/boot_vga";
  Json none;
  if (absent(ctx, path, &none)) return none;
  Json text = ctx.read_text_fact(path);
  if (is_unknown(text)) return text;
  if (text == "1") return true;
  if (text == "0") return false;
  return unknown(path + ": neither 0 nor 1: " + quote_for_reason(text.get<std::string>()));
}

Json read_link_speed(ProbeContext& ctx, const std::string& path) {
  Json text = ctx.read_text_fact(path);
  if (is_unknown(text)) return text;
  // The kernel writes "Unknown" (sometimes with " speed") when the link
  // state cannot be read, for example for a device in D3cold.
  if (starts_with(text.get<std::string>(), "Unknown")) return unknown(path + ": the kernel reports the speed as unknown");
  return text;
}

Json read_link(ProbeContext& ctx, const std::string& dir) {
  const char* names[] = {"current_link_speed", "current_link_width", "max_link_speed", "max_link_width"};
  bool any = false;
  for (const char* n : names) any = any || ctx.fs().exists(dir + "/" + n);
  if (!any) return unknown(dir + ": no link attributes (not a PCI Express device, or a virtual one)");
  Json link = Json::object();
  link["current_speed"] = read_link_speed(ctx, dir + "/current_link_speed");
  link["current_width"] = ctx.read_integer_fact(dir + "/current_link_width");
  link["max_speed"] = read_link_speed(ctx, dir + "/max_link_speed");
  link["max_width"] = ctx.read_integer_fact(dir + "/max_link_width");
  return link;
}

Json read_bars(ProbeContext& ctx, const std::string& dir) {
  std::string path = dir + "/resource";
  auto text = ctx.fs().read_file(path, 64 * 1024);
  if (!text) return unknown(text.error());
  if (looks_binary(*text)) return unknown(path + ": binary content, not a resource table");
  if (trim(*text).empty()) return unknown(path + ": empty");
  auto regions = parse_pci_resources(*text);
  if (!regions) return unknown(path + ": " + regions.error());
  return pci_regions_json(*regions);
}

std::optional<uint64_t> id_value(const Json& fact) {
  if (!fact.is_string()) return std::nullopt;
  return parse_hex(fact.get<std::string>());
}

// A name fact: the database's answer (null when not listed), unknown when
// the id itself is.
Json name_fact(std::optional<std::string> name) { return name ? Json(*name) : Json(nullptr); }

void add_names(Json& d, PciNameDatabase& names) {
  auto vendor = id_value(d["vendor_id"]);
  auto device = id_value(d["device_id"]);
  auto cls = id_value(d["class"]);
  d["vendor_name"] = vendor ? name_fact(names.vendor(static_cast<uint16_t>(*vendor))) : unknown("vendor_id is unknown");
  d["device_name"] = vendor && device
                         ? name_fact(names.device(static_cast<uint16_t>(*vendor), static_cast<uint16_t>(*device)))
                         : unknown("vendor_id or device_id is unknown");
  d["class_name"] = cls ? name_fact(names.class_name(static_cast<uint32_t>(*cls))) : unknown("class is unknown");
}

}  // namespace

Json read_pci_device(ProbeContext& ctx, const std::string& address, PciNameDatabase& names) {
  std::string entry = "/sys/bus/pci/devices/" + address;
  auto resolved = ctx.fs().resolve(entry);
  // Unresolved, the entry itself still reads through (the file system
  // follows the link per read); only the topology is lost.
  std::string dir = resolved ? *resolved : entry;
  Json d = Json::object();
  d["address"] = address;
  d["sysfs_path"] = resolved ? Json(*resolved) : unknown(resolved.error());
  d["vendor_id"] = read_hex_attribute(ctx, dir + "/vendor", 4);
  d["device_id"] = read_hex_attribute(ctx, dir + "/device", 4);
  d["subsystem_vendor_id"] = read_hex_attribute(ctx, dir + "/subsystem_vendor", 4);
  d["subsystem_device_id"] = read_hex_attribute(ctx, dir + "/subsystem_device", 4);
  d["revision"] = read_hex_attribute(ctx, dir + "/revision", 2);
  d["class"] = read_hex_attribute(ctx, dir + "/class", 6);
  add_names(d, names);
  d["driver"] = read_driver(ctx, dir);
  d["boot_vga"] = read_boot_vga(ctx, dir);
  d["numa_node"] = ctx.read_integer_fact(dir + "/numa_node");
  d["link"] = read_link(ctx, dir);
  d["bars"] = read_bars(ctx, dir);
  if (resolved) {
    Json parents = Json::array();
    for (auto& p : pci_parents_from_sysfs_path(*resolved)) parents.push_back(p);
    d["parents"] = parents;
  } else {
    d["parents"] = unknown("sysfs_path is unknown: " + resolved.error());
  }
  auto cls = id_value(d["class"]);
  d["is_bridge"] = cls ? Json((*cls >> 8) == 0x0604) : unknown("class is unknown");
  return d;
}

bool is_gpu_device(const Json& device) {
  auto cls = id_value(device.value("class", Json()));
  auto vendor = id_value(device.value("vendor_id", Json()));
  if (!cls) return false;
  if ((*cls >> 16) == 0x03) return true;
  return vendor && *vendor == kAmdVendor && (*cls >> 8) == 0x1200;
}

Json gpu_summary(const Json& device) {
  auto vendor = id_value(device.value("vendor_id", Json()));
  Json g = Json::object();
  g["address"] = device["address"];
  if (!vendor) g["vendor"] = unknown("vendor_id is unknown");
  else if (*vendor == kAmdVendor) g["vendor"] = "amd";
  else if (*vendor == 0x10de) g["vendor"] = "nvidia";
  else if (*vendor == 0x8086) g["vendor"] = "intel";
  else g["vendor"] = "other";
  g["vendor_id"] = device["vendor_id"];
  g["device_id"] = device["device_id"];
  g["name"] = device["device_name"];
  g["driver"] = device["driver"];
  g["boot_vga"] = device["boot_vga"];
  return g;
}

}  // namespace rocmdoc
