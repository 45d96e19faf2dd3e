// kernel_log: the amdgpu/kfd lines of the kernel ring buffer. On the live
// machine they are read from /dev/kmsg (records until it would block):
// running dmesg for the same lines took longer than every other probe. A
// recording keeps dmesg's output instead, so elsewhere (and when /dev/kmsg
// cannot be read) the probe runs dmesg, with a timeout, recorded in
// commands_run. When kernel.dmesg_restrict is 1 an unprivileged read is
// refused: that is unknown, not "no errors", and the reason says so from the
// kernel section's fact (the kernel probe runs first), so that the reason
// and the fact are one reading of the file and cannot disagree.
#include "probe/kernel_log.h"

#include <cstdio>

#include "probe/probe.h"
#include "base/fact.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

constexpr size_t kMaxLines = 200;

// Asked of every kernel log record: views, so no strlen per needle per line.
bool interesting(std::string_view line) {
  static constexpr std::string_view needles[] = {
      "amdgpu", "kfd", "[drm]", "drm:", "iommu", "AMD-Vi", "DMAR", "PCIE atomic", "pcieport", "AER", "radeon", "hsa",
      "vfio",   "BAR", "Resizable", "lockdown", "Secure boot", "module verification failed"};
  for (std::string_view n : needles)
    if (line.find(n) != std::string_view::npos) return true;
  return false;
}

// dmesg's "\x0a"-style escapes of the bytes kmsg would not print as they
// are, decoded where the byte is printable.
std::string unescape(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  for (size_t i = 0; i < message.size(); ++i) {
    if (message[i] == '\\' && i + 3 < message.size() && message[i + 1] == 'x') {
      auto byte = parse_uint(message.substr(i + 2, 2), 16);
      if (byte && *byte >= 0x20 && *byte != 0x7f) {
        out += static_cast<char>(*byte);
        i += 3;
        continue;
      }
    }
    out += message[i];
  }
  return out;
}

Json matching_lines(const std::vector<std::string>& all, const char* source) {
  Json lines = Json::array();
  size_t matched = 0;
  for (auto& line : all) {
    if (!interesting(line)) continue;
    ++matched;
    lines.push_back(line);
    if (lines.size() > kMaxLines) lines.erase(lines.begin());  // keep the newest
  }
  Json k = Json::object();
  k["readable"] = true;
  k["source"] = source;
  k["matched_lines"] = matched;
  k["lines"] = lines;
  return k;
}

}  // namespace

std::vector<std::string> kmsg_records_as_dmesg_lines(std::string_view records, bool (*keep)(std::string_view)) {
  std::vector<std::string> lines;
  constexpr auto npos = std::string_view::npos;
  // Views into the records, not a copy of each line and of its fields: a
  // long-running machine's log holds thousands of records.
  LineReader reader(records);
  for (std::string_view record; reader.next(record);) {
    // "6,339,5140900,-;message": priority, sequence, microseconds since
    // boot, flags (Documentation/ABI/testing/dev-kmsg). Lines that start
    // with a space are the record's key=value dictionary, not text.
    size_t semicolon = record.find(';');
    if (record.empty() || record.front() == ' ' || semicolon == npos) continue;
    std::string_view header = record.substr(0, semicolon);
    size_t first = header.find(',');
    size_t second = first == npos ? npos : header.find(',', first + 1);
    if (second == npos) continue;  // fewer than three fields
    size_t third = header.find(',', second + 1);
    auto usec = parse_uint(header.substr(second + 1, third == npos ? npos : third - second - 1));
    if (!usec) continue;
    std::string message = unescape(record.substr(semicolon + 1));
    if (keep && !keep(message)) continue;
    char stamp[48];
    std::snprintf(stamp, sizeof stamp, "[%5llu.%06llu] ", static_cast<unsigned long long>(*usec / 1000000),
                  static_cast<unsigned long long>(*usec % 1000000));
    lines.push_back(stamp + message);
  }
  return lines;
}

Json probe_kernel_log(ProbeContext& ctx, const Json& facts) {
  if (auto records = ctx.fs().read_records("/dev/kmsg", 64u << 20); records && !looks_binary(*records))
    return matching_lines(kmsg_records_as_dmesg_lines(*records, interesting), "kmsg");
  ProcessResult r = ctx.run_tool({"dmesg"}, std::chrono::seconds(5));
  if (!r.started) return unknown("dmesg: " + r.error);
  if (r.timed_out) return unknown(r.error);
  if (r.exit_code != 0) {
    std::string why = trim(r.err.empty() ? r.out : r.err);
    if (why.empty()) why = "exit code " + std::to_string(r.exit_code);
    if (field(field(facts, "kernel"), "dmesg_restrict") == 1) why += " (kernel.dmesg_restrict is 1: only root may read the kernel log)";
    return unknown("dmesg: " + why.substr(0, 300));
  }
  return matching_lines(split_lines(r.out), "dmesg");
}

}  // namespace rocmdoc
