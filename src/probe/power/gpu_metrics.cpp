#include "probe/power/gpu_metrics.h"

#include <cstdint>
#include <string>

#include <fmt/format.h>

namespace rocmdoc {

namespace {

// struct metrics_table_header: u16 structure_size, u8 format_revision,
// u8 content_revision; the table is little-endian (x86_64 only).
constexpr size_t kHeaderBytes = 4;

struct Layout {
  unsigned format, content;
  size_t size;               // sizeof the struct, natural alignment
  size_t indep_throttle_at;  // offset of uint64_t indep_throttle_status
};

// Offsets worked out field by field from kgd_pp_interface.h (natural
// alignment, NUM_HBM_INSTANCES 4):
//  v1.3 (dGPUs: Arcturus, Navi 2x/3x): indep_throttle_status after
//       firmware_timestamp (96), three voltages and padding1, at 112.
//  v2.2 (APUs: Van Gogh, Rembrandt...): after throttle_status (108),
//       fan_pwm and padding[3], at 120.
// Later versions drop the field (v1.4-1.6: MI300's throttle_status is ASIC
// dependent) or were not checked, so they are left unknown.
constexpr Layout kLayouts[] = {
    {1, 3, 120, 112},
    {2, 2, 128, 120},
};

uint64_t read_le(std::string_view bytes, size_t at, size_t width) {
  uint64_t v = 0;
  for (size_t i = 0; i < width; ++i) v |= uint64_t(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  return v;
}

}  // namespace

Json decode_gpu_metrics_throttle(std::string_view bytes, const std::string& path) {
  if (bytes.size() < kHeaderBytes)
    return unknown(path + ": " + std::to_string(bytes.size()) + " bytes, shorter than the table's 4-byte header");
  size_t declared = read_le(bytes, 0, 2);
  unsigned format = static_cast<unsigned char>(bytes[2]), content = static_cast<unsigned char>(bytes[3]);
  std::string version = fmt::format("{}.{}", format, content);
  const Layout* layout = nullptr;
  for (auto& l : kLayouts)
    if (l.format == format && l.content == content) layout = &l;
  if (!layout)
    return unknown(path + ": table version " + version +
                   " is not one rocmdoc decodes (1.3 and 2.2 carry the GPU-independent throttle bits; other versions "
                   "have none or were not checked against the kernel's header)");
  if (declared != layout->size || bytes.size() < layout->size)
    return unknown(path + ": version " + version + " should be " + std::to_string(layout->size) + " bytes; the header says " +
                   std::to_string(declared) + " and the file has " + std::to_string(bytes.size()));
  uint64_t status = read_le(bytes, layout->indep_throttle_at, 8);
  // The word's four groups (amdgpu_smu.h): power limits (PPT, SPL) in bits
  // 0-15, current limits (TDC, EDC) 16-31, temperatures (and VR/PROCHOT)
  // 32-55, other (PPM, FIT) 56-63.
  Json active = Json::array();
  if (status & 0xFFFFull) active.push_back("power");
  if (status & 0xFFFF0000ull) active.push_back("current");
  if (status & 0x00FFFFFF00000000ull) active.push_back("temperature");
  if (status & 0xFF00000000000000ull) active.push_back("other");
  Json out = Json::object();
  out["metrics_version"] = version;
  out["raw"] = fmt::format("0x{:016x}", status);
  out["active"] = active;
  return out;
}

}  // namespace rocmdoc
