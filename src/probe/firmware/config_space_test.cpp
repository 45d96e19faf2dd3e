#include "catch.h"
#include "probe/firmware/atomics.h"
#include "probe/firmware/config_space.h"
#include "config_space_test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {

AtomicsHop hop(const std::string& address, const ConfigSpace& c) { return {address, read_pcie_atomics(c.bytes())}; }

const uint32_t kRootCompleter = kCompleter32 | kCompleter64 | kCompleter128;

}  // namespace

TEST_CASE("config space: the PCIe capability's atomics bits are read", "[firmware]") {
  auto cap = read_pcie_atomics(ConfigSpace::port(kPcieRootPort, kRootCompleter | kAtomicRouting, kEgressBlocking).bytes());
  REQUIRE(cap.ok());
  REQUIRE(cap->has_value());
  const PcieAtomicsCapability& c = **cap;
  CHECK(c.port_type == kPcieRootPort);
  CHECK(c.routing);
  CHECK(c.completer_32);
  CHECK(c.completer_64);
  CHECK(c.completer_128);
  CHECK_FALSE(c.requester_enabled);
  CHECK(c.egress_blocked);
  auto gpu = read_pcie_atomics(ConfigSpace::port(kPcieEndpoint, 0, kRequesterEnable).bytes());
  REQUIRE(gpu.ok());
  CHECK((*gpu)->requester_enabled);
  CHECK_FALSE((*gpu)->routing);
}

TEST_CASE("config space: conventional PCI and version 1 capabilities", "[firmware]") {
  ConfigSpace plain;  // no capability list at all
  auto none = read_pcie_atomics(plain.bytes());
  REQUIRE(none.ok());
  CHECK_FALSE(none->has_value());
  ConfigSpace v1;
  v1.pcie(0x40, kPcieEndpoint, kCompleter32, kRequesterEnable, 1);
  auto old = read_pcie_atomics(v1.truncate(0x40 + 0x24).bytes());  // v1 ends before DevCap2
  REQUIRE(old.ok());
  REQUIRE(old->has_value());
  CHECK_FALSE((*old)->completer_32);
  CHECK_FALSE((*old)->requester_enabled);
}

TEST_CASE("config space: truncated, looping and garbage bytes are errors, not crashes", "[firmware][malformed]") {
  SECTION("64 bytes, as sysfs gives a user who is not root") {
    auto r = read_pcie_atomics(ConfigSpace::port(kPcieEndpoint, 0).truncate(64).bytes());
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == kConfigSpaceNeedsRoot);
  }
  SECTION("cut inside the capability") {
    auto r = read_pcie_atomics(ConfigSpace::port(kPcieEndpoint, 0).truncate(0x80).bytes());
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().find("ends at 128 bytes") != std::string::npos);
  }
  SECTION("a capability loop") {
    ConfigSpace c;
    c.capability(0x50, 0x01).capability(0x60, 0x05).set8(0x61, 0x50);
    auto r = read_pcie_atomics(c.bytes());
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().find("loop") != std::string::npos);
  }
  SECTION("a self-pointing capability") {
    ConfigSpace c;
    c.capability(0x50, 0x01).set8(0x51, 0x50);
    CHECK_FALSE(read_pcie_atomics(c.bytes()).ok());
  }
  SECTION("empty, short, absent device") {
    CHECK(read_pcie_atomics("").error().find("empty") != std::string::npos);
    CHECK(read_pcie_atomics(std::string(10, 'x')).error().find("shorter than the 64-byte header") != std::string::npos);
    CHECK(read_pcie_atomics(std::string(256, '\xff')).error().find("0xffff") != std::string::npos);
  }
  SECTION("text where bytes should be, and every byte value") {
    std::string text(256, 'Q');  // status 0x5151 has the list bit; every pointer is 0x50, pointing at itself
    CHECK_FALSE(read_pcie_atomics(text).ok());
    for (int v = 0; v < 256; ++v) {
      std::string bytes(256, static_cast<char>(v));
      bytes[0] = 0x02;  // not 0xffff
      (void)read_pcie_atomics(bytes);  // must return, whatever it says
      (void)read_pcie_atomics(bytes.substr(0, 70));
    }
  }
  SECTION("pointers into the header end the walk") {
    ConfigSpace c;
    c.capability(0x50, 0x01).set8(0x51, 0x20);
    auto r = read_pcie_atomics(c.bytes());
    REQUIRE(r.ok());
    CHECK_FALSE(r->has_value());
  }
}

TEST_CASE("atomics are routed through a switch to a root port that completes them", "[firmware]") {
  Json a = decide_atomics_routing({
      hop("0000:03:00.0", ConfigSpace::port(kPcieEndpoint, 0, kRequesterEnable)),
      hop("0000:02:00.0", ConfigSpace::port(kPcieSwitchDownstream, kAtomicRouting)),
      hop("0000:01:00.0", ConfigSpace::port(kPcieSwitchUpstream, kAtomicRouting)),
      hop("0000:00:01.1", ConfigSpace::port(kPcieRootPort, kRootCompleter)),
  });
  CHECK(a["routed_to_root"] == true);
  CHECK(a["reason"].get<std::string>().find("root port 0000:00:01.1") != std::string::npos);
  REQUIRE(a["path"].size() == 4);
  CHECK(a["path"][0]["role"] == "endpoint");
  CHECK(a["path"][0]["requester_enabled"] == true);
  CHECK(a["path"][1]["role"] == "switch_downstream_port");
  CHECK(a["path"][2]["routing"] == true);
  CHECK(a["path"][3]["role"] == "root_port");
  CHECK(a["path"][3]["completer_64"] == true);
}

TEST_CASE("atomics stop at a chipset switch that does not route them", "[firmware]") {
  Json a = decide_atomics_routing({
      hop("0000:08:00.0", ConfigSpace::port(kPcieEndpoint, 0)),
      hop("0000:07:08.0", ConfigSpace::port(kPcieSwitchDownstream, 0)),
      hop("0000:06:00.0", ConfigSpace::port(kPcieSwitchUpstream, 0)),
      hop("0000:00:01.2", ConfigSpace::port(kPcieRootPort, kRootCompleter)),
  });
  CHECK(a["routed_to_root"] == false);
  CHECK(a["reason"] == "0000:07:08.0 (switch_downstream_port) does not support AtomicOp routing");
}

TEST_CASE("atomics need a root port that completes 32- and 64-bit operations", "[firmware]") {
  Json a = decide_atomics_routing({
      hop("0000:01:00.0", ConfigSpace::port(kPcieEndpoint, 0)),
      hop("0000:00:01.0", ConfigSpace::port(kPcieRootPort, kCompleter32)),
  });
  CHECK(a["routed_to_root"] == false);
  CHECK(a["reason"].get<std::string>().find("cannot complete") != std::string::npos);
}

TEST_CASE("atomics are blocked by an upstream port's egress blocking", "[firmware]") {
  Json a = decide_atomics_routing({
      hop("0000:03:00.0", ConfigSpace::port(kPcieEndpoint, 0)),
      hop("0000:02:00.0", ConfigSpace::port(kPcieSwitchDownstream, kAtomicRouting)),
      hop("0000:01:00.0", ConfigSpace::port(kPcieSwitchUpstream, kAtomicRouting, kEgressBlocking)),
      hop("0000:00:01.1", ConfigSpace::port(kPcieRootPort, kRootCompleter)),
  });
  CHECK(a["routed_to_root"] == false);
  CHECK(a["reason"].get<std::string>().find("blocks AtomicOps on egress") != std::string::npos);
}

TEST_CASE("atomics: unreadable config is unknown unless another hop already refuses", "[firmware][malformed]") {
  auto truncated = [](unsigned type, uint32_t cap) { return ConfigSpace::port(type, cap).truncate(64); };
  Json a = decide_atomics_routing({
      hop("0000:03:00.0", truncated(kPcieEndpoint, 0)),
      hop("0000:00:01.1", truncated(kPcieRootPort, kRootCompleter)),
  });
  CHECK(is_unknown(a["routed_to_root"]));
  CHECK(unknown_reason(a["routed_to_root"]).find(kConfigSpaceNeedsRoot) != std::string::npos);
  CHECK(is_unknown(a["path"][1]["completer_32"]));
  Json refused = decide_atomics_routing({
      hop("0000:03:00.0", truncated(kPcieEndpoint, 0)),
      hop("0000:00:01.1", ConfigSpace::port(kPcieRootPort, 0)),
  });
  CHECK(refused["routed_to_root"] == false);
}

TEST_CASE("atomics: the device must be a PCIe endpoint, and conventional bridges are skipped", "[firmware]") {
  CHECK(decide_atomics_routing({hop("0000:00:02.0", ConfigSpace())})["routed_to_root"] == false);
  CHECK(decide_atomics_routing({hop("0000:01:00.0", ConfigSpace::port(kPcieRootPort, 0))})["routed_to_root"] == false);
  Json on_root_bus = decide_atomics_routing({hop("0000:00:02.0", ConfigSpace::port(kPcieRcIntegratedEndpoint, 0))});
  CHECK(on_root_bus["routed_to_root"] == true);
  CHECK(on_root_bus["reason"].get<std::string>().find("no bridge") != std::string::npos);
  Json behind_pci_bridge = decide_atomics_routing({
      hop("0000:02:00.0", ConfigSpace::port(kPcieEndpoint, 0)),
      hop("0000:01:00.0", ConfigSpace()),  // conventional PCI bridge: not checked
      hop("0000:00:01.0", ConfigSpace::port(kPcieRootPort, kRootCompleter)),
  });
  CHECK(behind_pci_bridge["routed_to_root"] == true);
  CHECK(behind_pci_bridge["path"][1]["role"] == "not_pcie");
  CHECK(behind_pci_bridge["path"][1]["routing"].is_null());
}
