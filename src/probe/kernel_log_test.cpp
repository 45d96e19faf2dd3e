#include <initializer_list>

#include "catch.h"
#include "probe/kernel_log.h"
#include "probe/probe.h"
#include "probe_test_support.h"

using namespace rocmdoc;
using test::tool_output;
using rocmdoc::test::MemoryMachine;

TEST_CASE("kernel_log keeps the amdgpu and kfd lines", "[kernel_log]") {
  MemoryMachine m({}, {{"dmesg", tool_output(0,
                                              "[    0.1] Linux version 6.8.0\n"
                                              "[    4.2] amdgpu 0000:03:00.0: amdgpu: PCIE atomic ops is not supported\n"
                                              "[    4.3] usb 1-1: new device\n"
                                              "[    4.4] kfd kfd: amdgpu: skipped device 1002:744c, PCI rejects atomics 730<0\n")}});
  Json k = m.run(probe_kernel_log);
  CHECK(k["readable"] == true);
  REQUIRE(k["lines"].size() == 2);
  CHECK(k["lines"][1].get<std::string>().find("rejects atomics") != std::string::npos);
}

namespace {
// The probes run in order (probe_catalogue): kernel_log gets the kernel
// section, as collect_facts passes it.
Json kernel_log_after_kernel(MemoryMachine& m) { return m.run(probe_kernel_log, {{"kernel", m.run(probe_kernel)}}); }
}  // namespace

TEST_CASE("kernel_log is unknown when dmesg is refused, with dmesg_restrict named", "[kernel_log]") {
  MemoryMachine m({}, {{"dmesg", tool_output(1, "", "dmesg: read kernel buffer failed: Operation not permitted\n")}});
  m.fs->file("/proc/sys/kernel/dmesg_restrict", "1\n");
  Json k = kernel_log_after_kernel(m);
  REQUIRE(is_unknown(k));
  CHECK(unknown_reason(k).find("Operation not permitted") != std::string::npos);
  CHECK(unknown_reason(k).find("(kernel.dmesg_restrict is 1: only root may read the kernel log)") != std::string::npos);

  MemoryMachine unrecorded;
  CHECK(unknown_reason(unrecorded.run(probe_kernel_log)).find("not recorded") != std::string::npos);
}

// One reading of /proc/sys/kernel/dmesg_restrict: whatever the file holds,
// the refused dmesg's reason blames the restriction exactly where the fact
// says 1 (a second reader that trimmed or parsed differently would not).
TEST_CASE("kernel_log's reason and kernel.dmesg_restrict agree on every content of the file", "[kernel_log][kernel]") {
  for (const char* content : std::initializer_list<const char*>{"1\n", "1", " 1 \n", "0\n", "01\n", "2\n", "yes\n", "", "1\n1\n", nullptr}) {
    INFO((content ? content : "(no file)"));
    MemoryMachine m({}, {{"dmesg", tool_output(1, "", "dmesg: read kernel buffer failed: Operation not permitted\n")}});
    if (content) m.fs->file("/proc/sys/kernel/dmesg_restrict", content);
    Json restrict = m.run(probe_kernel)["dmesg_restrict"];
    Json k = kernel_log_after_kernel(m);
    REQUIRE(is_unknown(k));
    CHECK((unknown_reason(k).find("dmesg_restrict is 1") != std::string::npos) == (restrict == 1));
  }
  // The note is the fact's, not a reading of its own: a kernel section that
  // says 1 names it without the file.
  MemoryMachine m({}, {{"dmesg", tool_output(1, "", "dmesg: Operation not permitted\n")}});
  CHECK(unknown_reason(m.run(probe_kernel_log, {{"kernel", {{"dmesg_restrict", 1}}}})).find("dmesg_restrict is 1") !=
        std::string::npos);
  CHECK(unknown_reason(m.run(probe_kernel_log, {{"kernel", {{"dmesg_restrict", 0}}}})).find("dmesg_restrict") ==
        std::string::npos);
}

TEST_CASE("kernel_log keeps only the newest lines of a flood", "[kernel_log][malformed]") {
  std::string flood;
  for (int i = 0; i < 5000; ++i) flood += "[ " + std::to_string(i) + "] amdgpu: ring gfx timeout\n";
  flood += std::string("\0\xff binary amdgpu junk", 20);
  MemoryMachine m({}, {{"dmesg", tool_output(0, flood)}});
  Json k = m.run(probe_kernel_log);
  CHECK(k["lines"].size() == 200);
  CHECK(k["matched_lines"] == 5001);
}

TEST_CASE("kernel_log reads a live machine's /dev/kmsg records as dmesg prints them", "[kernel_log]") {
  MemoryMachine m;
  m.fs->records("/dev/kmsg",
                "5,0,0,-;Linux version 6.8.0\n"
                "3,812,5140900,-;amdgpu 0000:03:00.0: amdgpu: PCIE atomic ops is not supported\n"
                " SUBSYSTEM=pci\n"
                " DEVICE=+pci:0000:03:00.0\n"
                "4,813,12000001,c;kfd kfd: amdgpu: skipped device 1002:744c, PCI rejects atomics 730<0\\x0a\n"
                "6,814,12500000,-;amdgpu: name with \\x5c backslash and \\x01 control\n"
                "garbage without a header\n"
                "6,x,notanumber,-;amdgpu: bad timestamp\n");
  Json k = m.run(probe_kernel_log);
  CHECK(k["source"] == "kmsg");
  CHECK(k["matched_lines"] == 3);
  REQUIRE(k["lines"].size() == 3);
  CHECK(k["lines"][0] == "[    5.140900] amdgpu 0000:03:00.0: amdgpu: PCIE atomic ops is not supported");
  CHECK(k["lines"][1] == "[   12.000001] kfd kfd: amdgpu: skipped device 1002:744c, PCI rejects atomics 730<0\\x0a");
  CHECK(k["lines"][2] == "[   12.500000] amdgpu: name with \\ backslash and \\x01 control");
}

TEST_CASE("kernel_log falls back to dmesg when /dev/kmsg cannot be read", "[kernel_log]") {
  MemoryMachine m({}, {{"dmesg", tool_output(0, "[    4.2] amdgpu: ring gfx timeout\n")}});
  m.fs->fail("/dev/kmsg", "Operation not permitted");
  Json k = m.run(probe_kernel_log);
  CHECK(k["source"] == "dmesg");
  CHECK(k["lines"].size() == 1);
}

TEST_CASE("kmsg records: every text record as dmesg prints it, or only those `keep` accepts", "[kernel_log]") {
  const char* records = "5,0,0,-;Linux version 6.8.0\n 6,1,2,-;not a record: a dictionary line\n"
                        "3,812,5140900,-;amdgpu: \\x5cx\n";
  auto all = kmsg_records_as_dmesg_lines(records);
  REQUIRE(all.size() == 2);
  CHECK(all[0] == "[    0.000000] Linux version 6.8.0");
  CHECK(all[1] == "[    5.140900] amdgpu: \\x");
  // The filter sees the decoded message, not the timestamp.
  auto amd = kmsg_records_as_dmesg_lines(records, [](std::string_view m) { return m.rfind("amdgpu", 0) == 0; });
  REQUIRE(amd.size() == 1);
  CHECK(amd[0] == all[1]);
  // Headers with too few fields or a time that is not a number are not
  // records; three fields without flags are; a CR before the newline goes.
  auto odd = kmsg_records_as_dmesg_lines("6,1;two fields\n6,2,x7,-;not a time\n6,3,42;three fields\r\n;\n\n6,4,9,-;last");
  REQUIRE(odd.size() == 2);
  CHECK(odd[0] == "[    0.000042] three fields");
  CHECK(odd[1] == "[    0.000009] last");
}
