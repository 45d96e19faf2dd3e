// firmware: how the machine booted and what the platform lets a GPU do:
// EFI and Secure Boot, kernel lockdown, the PCIe ASPM policy, the IOMMU,
// and per AMD GPU its IOMMU group, PCIe AtomicOps and BAR size.
#include "probe/firmware/gpus.h"
#include "probe/probe.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

constexpr const char* kSecureBootVariable = "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c";

// Whether `path` exists, judged only where its parent does: a sysfs
// directory such as /sys/firmware is always there on a real machine, so
// its absence means the recording did not keep it, not that the child is
// absent.
Json exists_under_known_parent(ProbeContext& ctx, const std::string& path) {
  FileStat st = ctx.fs().stat(path);
  if (st.type != FileType::missing) return true;
  if (!st.error.empty()) return unknown(path + ": " + st.error);
  std::string parent = path_dirname(path);
  FileStat p = ctx.fs().stat(parent);
  if (p.type == FileType::missing)
    return unknown(parent + ": " + (p.error.empty() ? "absent (not recorded?)" : p.error));
  return false;
}

Json secure_boot_malformed(const std::string& why) {
  std::string reason = kSecureBootVariable;  // appended, not "+": GCC 12 warns falsely on that
  reason += ": ";
  reason += why;
  return unknown(reason);
}

Json secure_boot(ProbeContext& ctx, const Json& efi) {
  if (is_unknown(efi)) return unknown("whether the machine booted with EFI is unknown: " + unknown_reason(efi));
  if (efi == false) return unknown("the machine did not boot with EFI (/sys/firmware/efi is absent)");
  auto bytes = ctx.fs().read_file(kSecureBootVariable, 64);
  if (!bytes) return unknown(bytes.error());
  // efivarfs: 4 bytes of attributes (little-endian), then the variable's
  // data; SecureBoot is one byte, 1 when enforcing.
  if (bytes->size() != 5)
    return secure_boot_malformed(std::to_string(bytes->size()) + " bytes, not 4 bytes of attributes and a 1-byte value");
  unsigned char value = static_cast<unsigned char>((*bytes)[4]);
  if (value > 1) return secure_boot_malformed("value " + std::to_string(value) + " is neither 0 nor 1");
  return value == 1;
}

// The [selected] word of a sysfs choice list ("[none] integrity
// confidentiality").
Json selected_word(ProbeContext& ctx, const std::string& path) {
  Json text = ctx.read_text_fact(path);
  if (is_unknown(text)) return text;
  std::string s = text.get<std::string>();
  auto open = s.find('[');
  auto close = open == std::string::npos ? open : s.find(']', open);
  std::string word = close == std::string::npos ? "" : s.substr(open + 1, close - open - 1);
  if (word.empty() || split_words(word).size() != 1) return unknown(path + ": no [selected] word in " + quote_for_reason(s));
  return word;
}

Json iommu_units(ProbeContext& ctx) {
  const std::string dir = "/sys/class/iommu";
  Json present = exists_under_known_parent(ctx, dir);
  if (is_unknown(present)) return present;
  Json units = Json::array();
  if (present == false) return units;  // no IOMMU driver registered a unit
  auto names = ctx.fs().list_dir(dir);
  if (!names) return unknown(names.error());
  for (auto& n : *names) units.push_back(n);
  return units;
}

constexpr const char* kIommuParameters[] = {"iommu", "amd_iommu", "intel_iommu"};

// From the kernel section when it has all three; else /proc/cmdline.
Json iommu_cmdline(ProbeContext& ctx, const Json& facts) {
  Json from_kernel = Json::object();
  const Json* cmdline = nullptr;
  if (facts.is_object() && facts.contains("kernel") && facts["kernel"].is_object() && facts["kernel"].contains("cmdline"))
    cmdline = &facts["kernel"]["cmdline"];
  bool complete = cmdline && cmdline->is_object() && !is_unknown(*cmdline);
  for (const char* p : kIommuParameters) {
    if (!complete) break;
    const Json v = cmdline->value(p, unknown("absent"));
    complete = v.is_string() || v.is_null();
    from_kernel[p] = v;
  }
  if (complete) return from_kernel;

  const std::string path = "/proc/cmdline";
  auto text = ctx.fs().read_file(path, 64 * 1024);
  if (!text) return unknown(text.error());
  if (looks_binary(*text)) return unknown(path + ": binary content, not a command line");
  Json out = Json::object();
  for (const char* p : kIommuParameters) out[p] = nullptr;
  // Later occurrences override earlier ones, as the kernel parses them.
  for (auto& word : split_words(*text)) {
    auto eq = word.find('=');
    std::string key = word.substr(0, eq);
    if (out.contains(key)) out[key] = eq == std::string::npos ? "" : word.substr(eq + 1);
  }
  return out;
}

}  // namespace

Json probe_firmware(ProbeContext& ctx, const Json& facts) {
  Json f = Json::object();
  f["efi"] = exists_under_known_parent(ctx, "/sys/firmware/efi");
  f["secure_boot"] = secure_boot(ctx, f["efi"]);
  f["lockdown"] = selected_word(ctx, "/sys/kernel/security/lockdown");
  f["aspm_policy"] = selected_word(ctx, "/sys/module/pcie_aspm/parameters/policy");
  Json iommu = Json::object();
  iommu["units"] = iommu_units(ctx);
  iommu["cmdline"] = iommu_cmdline(ctx, facts);
  f["iommu"] = iommu;
  f["gpus"] = firmware_gpus(ctx, facts);
  return f;
}

}  // namespace rocmdoc
