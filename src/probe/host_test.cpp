#include "catch.h"
#include "probe_test_support.h"

using namespace rocmdoc;
using rocmdoc::test::MemoryMachine;

TEST_CASE("host reads x86_64 from the lm flag when /proc/sys/kernel/arch is absent", "[host]") {
  MemoryMachine m;
  m.fs->file("/proc/cpuinfo",
             "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD Ryzen 9 7950X 16-Core Processor\n"
             "flags\t\t: fpu vme lm sse\n\nprocessor\t: 1\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu lm\n");
  m.fs->file("/proc/meminfo", "MemTotal:       65536000 kB\nMemFree: 1 kB\n");
  Json h = m.run(probe_host);
  CHECK(h["arch"] == "x86_64");
  CHECK(h["arch_source"] == "/proc/cpuinfo");
  CHECK(h["cpu_vendor"] == "AuthenticAMD");
  CHECK(h["cpu_model"] == "AMD Ryzen 9 7950X 16-Core Processor");
  CHECK(h["cpu_count"] == 2);
  CHECK(h["memory_bytes"] == 65536000ull * 1024);
}

TEST_CASE("host prefers the kernel's arch file and knows arm64 cpuinfo", "[host]") {
  MemoryMachine m;
  m.fs->file("/proc/sys/kernel/arch", "aarch64\n");
  m.fs->file("/proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\n"
                              "CPU architecture: 8\n");
  Json h = m.run(probe_host);
  CHECK(h["arch"] == "aarch64");
  CHECK(h["arch_source"] == "/proc/sys/kernel/arch");
  CHECK(h["cpu_vendor"] == "arm-implementer-0x41");
  CHECK(is_unknown(h["cpu_model"]));

  MemoryMachine no_arch_file;
  no_arch_file.fs->file("/proc/cpuinfo", "processor\t: 0\nFeatures\t: fp\nCPU architecture: 8\n");
  CHECK(no_arch_file.run(probe_host)["arch"] == "aarch64");
}

TEST_CASE("host records unknown for missing and garbage files", "[host][malformed]") {
  MemoryMachine missing;
  Json h = missing.run(probe_host);
  CHECK(is_unknown(h["arch"]));
  CHECK(unknown_reason(h["arch"]).find("/proc/cpuinfo") != std::string::npos);
  CHECK(is_unknown(h["memory_bytes"]));

  MemoryMachine garbage;
  garbage.fs->file("/proc/cpuinfo", std::string("\x7f\x45LF\0\0\0\x01\x02", 9));
  garbage.fs->file("/proc/meminfo", "MemTotal: lots kB\n");
  garbage.fs->file("/proc/sys/kernel/arch", "");
  Json g = garbage.run(probe_host);
  CHECK(is_unknown(g["arch"]));
  CHECK(is_unknown(g["cpu_count"]));
  CHECK(is_unknown(g["memory_bytes"]));

  MemoryMachine truncated;
  truncated.fs->file("/proc/cpuinfo", "processor\t: 0\nvendor_id\t: Genu");
  Json t = truncated.run(probe_host);
  CHECK(t["cpu_vendor"] == "Genu");
  CHECK(is_unknown(t["arch"]));  // no flags line: not enough to say
}

TEST_CASE("host reads the node's name from the kernel, for fleet merge", "[host]") {
  MemoryMachine m;
  m.fs->file("/proc/sys/kernel/hostname", "gpu017\n");
  CHECK(m.run(probe_host)["hostname"] == "gpu017");
  MemoryMachine missing;
  CHECK(is_unknown(missing.run(probe_host)["hostname"]));
}
