// `rocmdoc facts` on the machine running the tests agrees with the
// machine's own tools: uname -r, /etc/os-release, lspci -nn.
#include <fstream>
#include <sstream>

#include "catch.h"
#include "platform/process_runner.h"
#include "base/text.h"
#include "test_support.h"

using namespace rocmdoc;
using namespace rocmdoc::test;

namespace {
ProcessResult tool(const std::vector<std::string>& argv) {
  SystemProcessRunner runner;
  return runner.run(argv, std::chrono::seconds(30));
}
Json live_facts() {
  auto r = run_rocmdoc({"facts"});
  REQUIRE(r.exit_code == 0);
  return Json::parse(r.out);
}
}  // namespace

TEST_CASE("live facts: the kernel release is what uname -r says", "[live]") {
  auto uname = tool({"uname", "-r"});
  REQUIRE(uname.succeeded());
  CHECK(live_facts()["kernel"]["release"] == trim(uname.out));
}

TEST_CASE("live facts: the distribution is what /etc/os-release says", "[live]") {
  std::ifstream in("/etc/os-release");
  std::stringstream ss;
  ss << in.rdbuf();
  auto fields = parse_env_file(ss.str());
  Json d = live_facts()["distro"];
  CHECK(d["id"] == fields["ID"]);
  if (fields.count("VERSION_ID")) CHECK(d["version_id"] == fields["VERSION_ID"]);
  CHECK(d["pretty_name"] == fields["PRETTY_NAME"]);
}

TEST_CASE("live facts: the PCI devices are the ones lspci -nn lists", "[live]") {
  auto lspci = tool({"lspci", "-nn", "-D"});
  if (!lspci.started) {
    FAIL("lspci is not installed (pciutils, in packaging/build-deps.txt)");
  }
  // "0000:00:01.0 Unassigned class [ffff]: Red Hat, Inc. Virtio ... [1af4:1045] (rev 01)"
  std::map<std::string, std::string> listed;
  for (auto& line : split_lines(lspci.out)) {
    auto words = split_words(line);
    if (words.empty()) continue;
    size_t ids = line.rfind("] (rev");
    size_t close = ids != std::string::npos ? ids : line.rfind(']');
    size_t open = line.rfind('[', close);
    if (open == std::string::npos) continue;
    listed[words[0]] = line.substr(open + 1, close - open - 1);  // "1af4:1045"
  }
  Json devices = live_facts()["pci"]["devices"];
  REQUIRE(devices.is_array());
  CHECK(devices.size() == listed.size());
  for (auto& d : devices) {
    std::string address = d["address"];
    INFO(address);
    REQUIRE(listed.count(address));
    std::string vendor = d["vendor_id"].get<std::string>().substr(2), device = d["device_id"].get<std::string>().substr(2);
    CHECK(listed[address] == vendor + ":" + device);
  }
}
