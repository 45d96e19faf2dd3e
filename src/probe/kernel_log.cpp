// kernel_log: the amdgpu/kfd lines of the kernel ring buffer. /dev/kmsg is
// a stream, not a file, so this is the one probe that runs a tool: dmesg,
// with a timeout, recorded in commands_run. When kernel.dmesg_restrict is 1
// an unprivileged dmesg is refused: that is unknown, not "no errors".
#include "rocmdoc/probe.h"
#include "rocmdoc/text.h"

namespace rocmdoc {

namespace {

constexpr size_t kMaxLines = 200;

bool interesting(const std::string& line) {
  static const char* needles[] = {"amdgpu", "kfd", "[drm]", "drm:", "iommu", "AMD-Vi", "DMAR", "PCIE atomic",
                                  "pcieport", "AER", "radeon", "hsa", "vfio", "BAR", "Resizable", "lockdown",
                                  "Secure boot", "module verification failed"};
  for (const char* n : needles)
    if (line.find(n) != std::string::npos) return true;
  return false;
}

}  // namespace

Json probe_kernel_log(ProbeContext& ctx, const Json&) {
  ProcessResult r = ctx.run_tool({"dmesg"}, std::chrono::seconds(5));
  if (!r.started) return unknown("dmesg: " + r.error);
  if (r.timed_out) return unknown(r.error);
  if (r.exit_code != 0) {
    std::string why = trim(r.err.empty() ? r.out : r.err);
    if (why.empty()) why = "exit code " + std::to_string(r.exit_code);
    Json restrict = ctx.read_text_fact("/proc/sys/kernel/dmesg_restrict");
    if (restrict == "1") why += " (kernel.dmesg_restrict is 1: only root may read the kernel log)";
    return unknown("dmesg: " + why.substr(0, 300));
  }
  Json lines = Json::array();
  size_t matched = 0;
  for (auto& line : split_lines(r.out)) {
    if (!interesting(line)) continue;
    ++matched;
    lines.push_back(line);
    if (lines.size() > kMaxLines) lines.erase(lines.begin());  // keep the newest
  }
  Json k = Json::object();
  k["readable"] = true;
  k["source"] = "dmesg";
  k["matched_lines"] = matched;
  k["lines"] = lines;
  return k;
}

}  // namespace rocmdoc
