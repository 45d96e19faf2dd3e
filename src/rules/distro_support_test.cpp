// distro_support on the shipped matrix: every distribution a user brings
// gets "listed, for these releases" or "not listed; use ...".
#include <algorithm>

#include "catch.h"
#include "base/fact.h"
#include "rules/derived_facts.h"
#include "rules/matrix.h"
#include "rules/rule_loader.h"

using namespace rocmdoc;

namespace {

const Matrix& shipped() {
  static Matrix m = [] {
    std::vector<LoadError> errors;
    Matrix loaded = Matrix::load(files_under(embedded_rule_files(), "matrix"), errors);
    REQUIRE(errors.empty());
    return loaded;
  }();
  return m;
}

Json support(const std::string& id, const Json& version_id, const std::string& name = "",
             const std::string& pretty = "", const std::string& device_id = "") {
  Json f = Json::object();
  f["distro"] = {{"id", id}, {"version_id", version_id}, {"name", name.empty() ? Json(nullptr) : Json(name)},
                 {"pretty_name", pretty.empty() ? Json(nullptr) : Json(pretty)}};
  f["pci"] = {{"gpus", Json::array()}};
  // One AMD GPU, its target from the matrix (no driver bound).
  if (!device_id.empty())
    f["pci"]["gpus"].push_back({{"address", "0000:03:00.0"}, {"vendor", "amd"}, {"device_id", device_id}});
  add_derived_facts(f, shipped(), std::nullopt);
  return f["distro_support"];
}

}  // namespace

TEST_CASE("distro support: listed distributions name the releases that list them", "[matrix][distro]") {
  Json s = support("ubuntu", "24.04", "Ubuntu");
  CHECK(s["listed"] == true);
  CHECK(s["first"] == "6.2.0");
  CHECK(s["label"] == "Ubuntu 24.04");
  CHECK(s["nearest"] == "Ubuntu 24.04");  // listed: the nearest is itself

  // AMD lists Oracle Linux and Rocky by major release from 6.4.0 and 7.14.1:
  // "ol 9" covers Oracle Linux 9.6.
  s = support("ol", "9.6", "Oracle Linux Server");
  CHECK(s["listed"] == true);
  CHECK(s["last"] == "10.1.0");
  s = support("rocky", "9.6", "Rocky Linux");
  CHECK(s["listed"] == true);
  CHECK(s["first"] == "7.0.0");
  CHECK(s["label"] == "Rocky Linux 9.6");

  // RHEL 9.5 is listed by 6.3.0 to 6.4.1 only.
  s = support("rhel", "9.5", "Red Hat Enterprise Linux");
  CHECK(s["first"] == "6.3.0");
  CHECK(s["last"] == "6.4.1");
}

TEST_CASE("distro support: the rest are told the nearest listed release or their own ROCm", "[matrix][distro]") {
  Json s = support("centos", "9", "CentOS Stream");
  CHECK(s["listed"] == false);
  CHECK(s["label"] == "CentOS Stream 9");
  // CentOS 7 (6.1.2's list) is no advice for Stream 9: RHEL's newest 9.x
  // is, in the newest production release (not the Core SDK's 10.1.0, which
  // lists RHEL 9.8: check's target and install's default are production).
  CHECK(s["nearest"] == "RHEL 9.7");
  CHECK(s["nearest_release"] == "7.2.4");
  CHECK(s["use"] == "RHEL 9.7, which ROCm 7.2.4 lists");
  CHECK(s["caveat"].get<std::string>().find("Not confirmed:") == 0);

  s = support("almalinux", "9.6", "AlmaLinux");
  CHECK(s["use"] == "RHEL 9.6, which ROCm 7.2.4 lists");

  s = support("opensuse-leap", "15.6", "openSUSE Leap");
  CHECK(s["use"] == "SLES 15.7, which ROCm 7.2.4 lists");

  s = support("arch", nullptr, "Arch Linux", "Arch Linux");
  CHECK(s["listed"] == false);
  CHECK(s["label"] == "Arch Linux");
  CHECK(s["nearest"] == nullptr);
  // Arch's own packages first, then the way to AMD's support: a listed distribution.
  std::string use = s["use"].get<std::string>();
  CHECK(use.find("Arch Linux's own ROCm packages from [extra] (sudo pacman -S rocm-hip-runtime") == 0);
  CHECK(use.find("rocm-hip-sdk to build them") != std::string::npos);
  CHECK(use.find(", or a distribution ROCm 10.1.0 lists (Ubuntu 26.04/24.04/22.04, Debian 13/12, RHEL ") !=
        std::string::npos);

  s = support("fedora", "43", "Fedora Linux");
  CHECK(s["use"].get<std::string>().find("Fedora's own ROCm packages") == 0);
  CHECK(s["use"].get<std::string>().find(", or a distribution ROCm 10.1.0 lists (") != std::string::npos);
  // A distribution whose nearest listed version is known is not sent elsewhere.
  CHECK(support("centos", "9", "CentOS Stream")["use"].get<std::string>().find("a distribution ROCm") ==
        std::string::npos);

  // Ubuntu 25.10: its nearest LTS that AMD lists, or Ubuntu's own packages.
  s = support("ubuntu", "25.10", "Ubuntu");
  CHECK(s["listed"] == false);
  CHECK(s["use"].get<std::string>().find("Ubuntu 26.04, which ROCm 10.1.0 lists, or Ubuntu's own ROCm") == 0);

  // A distribution rocmdoc does not describe: the newest release's list.
  s = support("gentoo", "2.17", "", "Gentoo Linux");
  CHECK(s["label"] == "Gentoo Linux");
  CHECK(s["use"].get<std::string>().find("a distribution ROCm 10.1.0 lists (") == 0);
}

TEST_CASE("distro support: the advice is for this machine's GPU", "[matrix][distro]") {
  // 10.1.0 lists SLES 15.7 and RHEL for Instinct GPUs only: an RX 7900 XTX
  // (0x744c, gfx1100) on Leap or Alma is told what lists its GPU instead.
  std::string radeon = support("opensuse-leap", "15.6", "openSUSE Leap", "", "0x744c")["use"].get<std::string>();
  CHECK(radeon.find("SLES 15.7, which ROCm 10.1.0") == std::string::npos);
  CHECK(radeon.find(" for gfx1100") != std::string::npos);
  // The newest production release, 7.2.4, lists RHEL 9.6 for Instinct GPUs
  // only and 9.7 for every family (10.1.0: 9.6 for Instinct, and 9.8).
  CHECK(support("almalinux", "9.6", "AlmaLinux")["use"] == "RHEL 9.6, which ROCm 7.2.4 lists");
  CHECK(support("almalinux", "9.6", "AlmaLinux", "", "0x744c")["use"] == "RHEL 9.7, which ROCm 7.2.4 lists for gfx1100");
  // The MI300X (0x74a1, gfx942): SLES 15.7 of the production release too.
  CHECK(support("opensuse-leap", "15.6", "openSUSE Leap", "", "0x74a1")["use"] ==
        "SLES 15.7, which ROCm 7.2.4 lists for gfx942");
  // Fedora with a Radeon: the list names no distribution 10.1.0 lists for Instinct only.
  std::string fedora = support("fedora", "43", "Fedora Linux", "", "0x744c")["use"].get<std::string>();
  CHECK(fedora.find("lists for gfx1100 (Ubuntu ") != std::string::npos);
  CHECK(fedora.find("SLES") == std::string::npos);
  // A GPU no release lists (RX 580, gfx803) gets the advice for any GPU, with no target named.
  std::string polaris = support("fedora", "43", "Fedora Linux", "", "0x67df")["use"].get<std::string>();
  CHECK(polaris.find(" for gfx") == std::string::npos);
  CHECK(polaris.find("a distribution ROCm 10.1.0 lists (") != std::string::npos);
}

// The distribution's own ROCm is advice only where it is built for the GPU,
// and named as installed where it is (not as packages to install again).
TEST_CASE("distro support: the distribution's own ROCm only where it has the GPU's code", "[matrix][distro]") {
  // Ubuntu 26.04's own ROCm 7.1.0 is built for gfx1100, not for the MI50's gfx906.
  CHECK(support("ubuntu", "26.04", "Ubuntu", "", "0x744c")["use"].get<std::string>().find("Ubuntu's own ROCm") !=
        std::string::npos);
  CHECK(support("ubuntu", "26.04", "Ubuntu", "", "0x66a1")["use"].get<std::string>().find("own ROCm") ==
        std::string::npos);
  // Fedora 43 with its own ROCm installed.
  Json f = Json::object();
  f["distro"] = {{"id", "fedora"}, {"version_id", "43"}, {"name", "Fedora Linux"}, {"pretty_name", nullptr}};
  f["pci"] = {{"gpus", Json::array({{{"address", "0000:03:00.0"}, {"vendor", "amd"}, {"device_id", "0x744c"}}})}};
  f["rocm"] = {{"distro_release", {{"release", "6.4.2"}}}};
  add_derived_facts(f, shipped(), std::nullopt);
  std::string use = f["distro_support"]["use"].get<std::string>();
  CHECK(use.find("Fedora's own ROCm packages, installed here, or ") == 0);
  CHECK(use.find("dnf install") == std::string::npos);
}

TEST_CASE("distro support: a distribution built on Ubuntu is told its Ubuntu release", "[matrix][distro]") {
  auto derivative = [](const char* id, const char* version, const char* codename, const std::string& device = "") {
    Json f = Json::object();
    f["distro"] = {{"id", id},          {"version_id", version},  {"id_like", {"ubuntu", "debian"}},
                   {"name", nullptr},   {"pretty_name", nullptr}, {"ubuntu_codename", codename}};
    f["pci"] = {{"gpus", Json::array()}};
    if (!device.empty())
      f["pci"]["gpus"].push_back({{"address", "0000:03:00.0"}, {"vendor", "amd"}, {"device_id", device}});
    add_derived_facts(f, shipped(), std::nullopt);
    return f["distro_support"];
  };
  // Linux Mint 22's VERSION_ID is no Ubuntu version; its UBUNTU_CODENAME is.
  Json mint = derivative("linuxmint", "22", "noble", "0x744c");
  CHECK(mint["listed"] == false);
  CHECK(mint["based_on"] == "Ubuntu 24.04");
  CHECK(mint["nearest"] == "Ubuntu 24.04");
  std::string use = mint["use"].get<std::string>();
  CHECK(use.find("Ubuntu 24.04, which ROCm ") == 0);
  CHECK(use.find("lists for gfx1100 (linuxmint 22 is built on Ubuntu 24.04: AMD's packages for it may install here") !=
        std::string::npos);
  CHECK(derivative("pop", "24.04", "noble")["based_on"] == "Ubuntu 24.04");
  // Without ID_LIKE ubuntu, or with a codename rocmdoc does not know, nothing is claimed.
  CHECK(derivative("linuxmint", "22", "wilma")["based_on"] == nullptr);
  CHECK(support("ubuntu", "24.04", "Ubuntu")["based_on"] == nullptr);
}

TEST_CASE("distro support: an unknown distribution stays unknown", "[matrix][distro]") {
  Json f = Json::object();
  f["distro"] = Json{{"unknown", "/etc/os-release: no such file"}};
  add_derived_facts(f, shipped(), std::nullopt);
  CHECK(is_unknown(f["distro_support"]));
}

TEST_CASE("distro support: a rolling release is recognised, not called unknown", "[matrix][distro]") {
  Json f = Json::object();
  f["distro"] = {{"id", "arch"}, {"version_id", nullptr}, {"name", "Arch Linux"}, {"pretty_name", "Arch Linux"}};
  f["pci"] = {{"gpus", Json::array({Json{{"address", "0000:03:00.0"}, {"vendor", "amd"}, {"device_id", "0x744c"}}})}};
  add_derived_facts(f, shipped(), std::nullopt);
  // No release lists Arch: the target says so, naming it, instead of "the distribution is not known".
  REQUIRE(is_unknown(f["target"]["rocm"]));
  std::string why = f["target"]["rocm"]["unknown"].get<std::string>();
  CHECK(why == "no ROCm release lists Arch Linux, a rolling release without VERSION_ID (AMD lists distribution "
               "versions)");
  CHECK(f["target"]["newest_for_gpu"] == f["target"]["rocm"]);
  // With --rocm the kernels the release lists are not for Arch either, for the same reason.
  add_derived_facts(f, shipped(), std::string("7.2.4"));
  REQUIRE(is_unknown(f["target"]["kernels"]));
  CHECK(f["target"]["kernels"]["unknown"].get<std::string>().find("no ROCm release lists Arch Linux") == 0);

  // An os-release that could not be read keeps its own reason.
  Json g = Json::object();
  g["distro"] = {{"id", Json{{"unknown", "/etc/os-release: permission denied"}}},
                 {"version_id", Json{{"unknown", "/etc/os-release: permission denied"}}}};
  g["pci"] = {{"gpus", Json::array()}};
  add_derived_facts(g, shipped(), std::nullopt);
  CHECK(g["target"]["rocm"]["unknown"] == "/etc/os-release: permission denied");
}

TEST_CASE("distro support: the GPU targets of a distribution's own packages, where rocmdoc has read them",
          "[matrix][distro]") {
  auto own = [](const std::string& id, const Json& version_id, const Json& installed) {
    Json f = Json::object();
    f["distro"] = {{"id", id}, {"version_id", version_id}, {"name", nullptr}, {"pretty_name", nullptr}};
    f["pci"] = {{"gpus", Json::array()}};
    f["rocm"] = {{"distro_release", installed.is_null() ? Json(nullptr) : Json{{"release", installed}}}};
    add_derived_facts(f, shipped(), std::nullopt);
    return f["distro_support"]["own_packages"];
  };
  // Arch, a rolling release: its one entry, for the release extra has.
  Json arch = own("arch", nullptr, "7.2.0");
  CHECK(arch["release"] == "7.2.0");
  REQUIRE(arch["gpu_targets"].is_array());
  CHECK(std::find(arch["gpu_targets"].begin(), arch["gpu_targets"].end(), "gfx1100") != arch["gpu_targets"].end());
  CHECK(std::find(arch["gpu_targets"].begin(), arch["gpu_targets"].end(), "gfx803") == arch["gpu_targets"].end());
  CHECK(arch["confidence"] == "low");
  CHECK(arch["caveat"].get<std::string>().find(" Not confirmed: that Arch's rocblas 7.2.0-1 PKGBUILD") == 0);
  CHECK(own("arch", nullptr, "7.2.3")["gpu_targets"].is_array());  // a point release of the same series
  // Once Arch has moved on to another series the list read is no longer its.
  Json moved = own("arch", nullptr, "10.0")["gpu_targets"];
  REQUIRE(is_unknown(moved));
  CHECK(moved["unknown"] ==
        "Arch Linux's own ROCm 10.0 is installed; rocmdoc has read the GPU targets of its 7.2.0 packages only");
  // Fedora 43 and 44: rocm-rpm-macros' default list, read in openSUSE's copy,
  // so medium and saying what is not confirmed.
  auto has = [](const Json& list, const char* gfx) { return std::find(list.begin(), list.end(), gfx) != list.end(); };
  for (const char* version : {"43", "44"}) {
    Json fedora = own("fedora", version, nullptr);
    INFO(version);
    REQUIRE(fedora["gpu_targets"].is_array());
    CHECK(fedora["gpu_targets"].size() == 21);
    CHECK(has(fedora["gpu_targets"], "gfx1100"));
    CHECK(has(fedora["gpu_targets"], "gfx1201"));
    CHECK(has(fedora["gpu_targets"], "gfx1153"));
    CHECK_FALSE(has(fedora["gpu_targets"], "gfx1032"));  // RX 6600: not in the list
    CHECK_FALSE(has(fedora["gpu_targets"], "gfx803"));
    CHECK(fedora["confidence"] == "medium");
    CHECK(fedora["caveat"].get<std::string>().find(" Not confirmed: the GPU targets, read in openSUSE's copy of "
                                                   "rocm-rpm-macros' macros.rocm") == 0);
  }
  // Fedora 43 ships ROCm 6.4.2 (its rocm-hip; 6.4.4 was rocBLAS's own version).
  CHECK(own("fedora", "43", "6.4.2")["release"] == "6.4.2");
  // Ubuntu 26.04 and 24.04: read in the packages themselves, nothing unconfirmed.
  Json resolute = own("ubuntu", "26.04", "7.1.0");
  REQUIRE(resolute["gpu_targets"].is_array());
  CHECK(resolute["gpu_targets"].size() == 9);
  CHECK(has(resolute["gpu_targets"], "gfx1201"));
  CHECK_FALSE(has(resolute["gpu_targets"], "gfx906"));
  CHECK(resolute["confidence"] == "high");
  CHECK(resolute["caveat"] == "");
  Json noble = own("ubuntu", "24.04", "5.7.1");
  CHECK(noble["gpu_targets"].size() == 10);
  CHECK(has(noble["gpu_targets"], "gfx803"));
  CHECK(noble["caveat"] == "");
  // Debian 12: no rocBLAS, but its other libraries' targets are read in the packages.
  Json debian = own("debian", "12", "5.2.3");
  CHECK(debian["release"] == "5.2.3");
  REQUIRE(debian["gpu_targets"].is_array());
  CHECK(debian["gpu_targets"].size() == 6);
  CHECK(has(debian["gpu_targets"], "gfx1030"));
  CHECK_FALSE(has(debian["gpu_targets"], "gfx1100"));
  CHECK(debian["confidence"] == "high");
  // Debian 13's list is unchanged, and has nothing unconfirmed to say.
  Json trixie = own("debian", "13", "5.7.1");
  CHECK(trixie["gpu_targets"].size() == 10);
  CHECK(trixie["caveat"] == "");
  // A version with no entry has none.
  CHECK(own("fedora", "41", nullptr).is_null());
}

// One distribution version can have several rows in a release: Ubuntu 22.04.4
// (6.5 HWE) and 22.04.5 (6.8 HWE) in 6.2.4; in 7.1.1 the Radeon pages' 24.04
// row (6.8 only) before the compatibility table's (6.8 and the 6.14 HWE). A
// kernel any of them lists is listed: os-release's VERSION_ID ("22.04") does
// not say which point release a machine is.
TEST_CASE("kernel support reads every row of a distribution's version", "[matrix][distro]") {
  const Matrix& m = shipped();
  CHECK(m.kernel_support("6.2.4", "ubuntu", "22.04", "6.5.0-45-generic").is_true());  // 22.04.4's HWE
  CHECK(m.kernel_support("6.2.4", "ubuntu", "22.04", "6.8.0-49-generic").is_true());  // 22.04.5's HWE
  CHECK(m.kernel_support("6.2.4", "ubuntu", "22.04", "5.15.0-126-generic").is_true());
  CHECK(m.kernel_support("6.2.4", "ubuntu", "22.04", "6.2.0-39-generic").is_false());
  CHECK(m.kernel_support("7.1.1", "ubuntu", "24.04", "6.14.0-36-generic", "radeon", "gfx1100").is_true());
  CHECK(m.kernel_support("7.1.1", "ubuntu", "24.04", "6.11.0-29-generic", "radeon", "gfx1100").is_false());

  // The kernels a fix names are the union, each once.
  Json f = Json::object();
  f["distro"] = {{"id", "ubuntu"}, {"version_id", "22.04"}};
  f["kernel"] = {{"release", "6.2.0-39-generic"}};
  f["pci"] = {{"gpus", Json::array({{{"address", "0000:03:00.0"}, {"vendor", "amd"}, {"device_id", "0x744c"}}})}};
  add_derived_facts(f, m, std::string("6.2.4"));
  INFO(f["target"].dump());
  REQUIRE(f["target"]["kernels"].is_array());
  std::vector<std::string> kernels;
  for (auto& k : f["target"]["kernels"]) kernels.push_back(k.get<std::string>());
  for (std::string want : {"5.15", "6.5", "6.8"}) {
    INFO(want);
    CHECK(std::count_if(kernels.begin(), kernels.end(), [&](auto& k) { return k.find(want) != std::string::npos; }) == 1);
  }
}
