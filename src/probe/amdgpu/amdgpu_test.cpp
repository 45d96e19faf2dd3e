#include "catch.h"
#include "probe/amdgpu/blacklist.h"
#include "memory_filesystem.h"
#include "probe/probe.h"
#include "probe_test_support.h"

using namespace rocmdoc;

namespace {

const char* kRelease = "6.8.0-45-generic";

struct Box : test::MemoryMachine {
  Box() {
    fs->file("/proc/sys/kernel/osrelease", std::string(kRelease) + "\n");
    fs->file("/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=UUID=1234 ro quiet splash\n");
  }
  Json run(const Json& facts = Json::object()) { return MemoryMachine::run(probe_amdgpu, facts); }
};

// A pci section as the pci probe writes it (docs/facts.md "pci").
Json pci_facts(std::vector<std::tuple<std::string, std::string, std::string, Json>> devices) {
  Json list = Json::array();
  for (auto& [address, vendor, cls, driver] : devices)
    list.push_back({{"address", address}, {"vendor_id", vendor}, {"class", cls}, {"driver", driver}});
  return {{"pci", {{"devices", list}, {"gpus", Json::array()}}}};
}

void loadable_module(MemoryFileSystem& fs) {
  fs.file("/proc/modules",
          "amdgpu 19841024 23 - Live 0x0000000000000000\n"
          "amdxcp 12288 1 amdgpu, Live 0x0000000000000000\n"
          "drm_buddy 20480 1 amdgpu, Live 0x0000000000000000\n");
  fs.file("/sys/module/amdgpu/initstate", "live\n");
  fs.file("/sys/module/amdgpu/refcnt", "23\n");
}

}  // namespace

TEST_CASE("amdgpu: a loaded in-kernel module has no version", "[amdgpu]") {
  Box box;
  loadable_module(*box.fs);
  Json a = box.run();
  CHECK(a["module"]["loaded"] == true);
  CHECK(a["module"]["builtin"] == false);
  CHECK(a["module"]["version"].is_null());
  CHECK(a["blacklisted"]["value"] == false);
  CHECK(a["blacklisted"]["sources"] == Json::array());
}

TEST_CASE("amdgpu: AMD's DKMS module reports its version", "[amdgpu]") {
  Box box;
  loadable_module(*box.fs);
  box.fs->file("/sys/module/amdgpu/version", "6.8.5\n");
  CHECK(box.run()["module"]["version"] == "6.8.5");
}

TEST_CASE("amdgpu: a module that is not loaded", "[amdgpu]") {
  Box box;
  box.fs->file("/proc/modules", "snd_hda_intel 61440 4 - Live 0x0000000000000000\n");
  box.fs->file("/lib/modules/6.8.0-45-generic/modules.builtin", "kernel/drivers/char/mem.ko\n");
  Json a = box.run();
  CHECK(a["module"]["loaded"] == false);
  CHECK(a["module"]["builtin"] == false);
  CHECK(a["module"]["version"].is_null());
}

TEST_CASE("amdgpu: built into the kernel", "[amdgpu]") {
  SECTION("a /sys/module entry without initstate") {
    Box box;
    box.fs->file("/proc/modules", "");
    box.fs->file("/sys/module/amdgpu/parameters/ppfeaturemask", "0xfff7bfff\n");
    Json a = box.run();
    CHECK(a["module"]["loaded"] == true);
    CHECK(a["module"]["builtin"] == true);
  }
  SECTION("listed in modules.builtin") {
    Box box;
    box.fs->file("/proc/modules", "");
    box.fs->file("/lib/modules/6.8.0-45-generic/modules.builtin",
                 "kernel/drivers/char/mem.ko\nkernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko\n");
    CHECK(box.run()["module"]["builtin"] == true);
  }
}

TEST_CASE("amdgpu: without /proc/modules, loaded is unknown unless /sys/module answers", "[amdgpu][malformed]") {
  Box box;
  Json a = box.run();
  CHECK(is_unknown(a["module"]["loaded"]));
  CHECK(unknown_reason(a["module"]["loaded"]).find("/proc/modules") != std::string::npos);
  CHECK(unknown_reason(a["module"]["loaded"]).find("/sys/module/amdgpu: absent") != std::string::npos);
  CHECK(is_unknown(a["module"]["builtin"]));
  CHECK(unknown_reason(a["module"]["builtin"]).find("modules.builtin") != std::string::npos);

  box.fs->file("/sys/module/amdgpu/initstate", "live\n");
  CHECK(box.run()["module"]["loaded"] == true);
}

TEST_CASE("amdgpu: unreadable or garbage module files", "[amdgpu][malformed]") {
  Box box;
  box.fs->file("/proc/modules", "x").fail("/proc/modules", "permission denied");
  box.fs->file("/sys/module/amdgpu/version", std::string("\0\x01\x02", 3));
  box.fs->file("/sys/module/amdgpu/initstate", "live\n");
  Json a = box.run();
  CHECK(a["module"]["loaded"] == true);  // /sys/module answers
  CHECK(unknown_reason(a["module"]["version"]).find("binary") != std::string::npos);

  Box denied;
  denied.fs->file("/proc/modules", "x").fail("/proc/modules", "permission denied");
  CHECK(unknown_reason(denied.run()["module"]["loaded"]).find("permission denied") != std::string::npos);

  Box garbage;
  garbage.fs->file("/proc/modules", std::string(100000, '\xff'));
  CHECK(garbage.run()["module"]["loaded"] == false);  // no amdgpu line in it
}

TEST_CASE("amdgpu: the kernel release falls back on the kernel probe's", "[amdgpu]") {
  Box box;
  box.fs->fail("/proc/sys/kernel/osrelease", "permission denied");
  box.fs->file("/proc/modules", "");
  box.fs->file("/lib/modules/6.1.0-26-amd64/modules.builtin", "kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko\n");
  Json facts = {{"kernel", {{"release", "6.1.0-26-amd64"}}}};
  CHECK(box.run(facts)["module"]["builtin"] == true);
  CHECK(is_unknown(box.run()["module"]["builtin"]));
}

TEST_CASE("amdgpu: modprobe.d lines that keep a module from loading", "[amdgpu][blacklist]") {
  CHECK(modprobe_lines_blocking("# comment\nblacklist radeon\nblacklist amdgpu\n", "amdgpu") == std::vector<int>{3});
  CHECK(modprobe_lines_blocking("  blacklist\tamdgpu  \n", "amdgpu") == std::vector<int>{1});
  CHECK(modprobe_lines_blocking("install amdgpu /bin/false\ninstall amdgpu /bin/true\n", "amdgpu") ==
        std::vector<int>{1, 2});
  CHECK(modprobe_lines_blocking("install amdgpu /usr/bin/false\n", "amdgpu") == std::vector<int>{1});
  // An install command that still loads the module is not a blacklist.
  CHECK(modprobe_lines_blocking("install amdgpu /sbin/modprobe --ignore-install amdgpu\n", "amdgpu").empty());
  CHECK(modprobe_lines_blocking("#blacklist amdgpu\n# blacklist amdgpu\n", "amdgpu").empty());
  CHECK(modprobe_lines_blocking("blacklist amdgpu_extra\nblacklist amdgpux\noptions amdgpu si_support=1\n", "amdgpu")
            .empty());
  // kmod joins continued lines; the fact points at the line they start on.
  CHECK(modprobe_lines_blocking("options radeon x=1\ninstall amdgpu \\\n  /bin/false\n", "amdgpu") ==
        std::vector<int>{2});
  // '-' and '_' are the same in module names.
  CHECK(modprobe_lines_blocking("blacklist snd-hda-intel\n", "snd_hda_intel") == std::vector<int>{1});
}

TEST_CASE("amdgpu: modprobe.d parsing survives garbage", "[amdgpu][blacklist][malformed]") {
  CHECK(modprobe_lines_blocking("", "amdgpu").empty());
  CHECK(modprobe_lines_blocking("blacklist", "amdgpu").empty());
  CHECK(modprobe_lines_blocking("\\", "amdgpu").empty());
  CHECK(modprobe_lines_blocking("\\\n\\\n\\", "amdgpu").empty());
  CHECK(modprobe_lines_blocking(std::string("black\0list amdgpu\n", 18), "amdgpu").empty());
  std::string huge;
  for (int i = 0; i < 20000; ++i) huge += "blacklist mod" + std::to_string(i) + "\n";
  huge += "blacklist amdgpu";
  CHECK(modprobe_lines_blocking(huge, "amdgpu") == std::vector<int>{20001});
}

TEST_CASE("amdgpu: the kernel command line's blacklists", "[amdgpu][blacklist]") {
  CHECK(cmdline_blacklists("ro quiet modprobe.blacklist=nouveau,amdgpu splash", "amdgpu"));
  CHECK(cmdline_blacklists("module_blacklist=amdgpu", "amdgpu"));
  CHECK_FALSE(cmdline_blacklists("modprobe.blacklist=amdgpu_x amdgpu.modeset=0", "amdgpu"));
  CHECK_FALSE(cmdline_blacklists("", "amdgpu"));
  CHECK_FALSE(cmdline_blacklists("modprobe.blacklist=", "amdgpu"));
}

TEST_CASE("amdgpu: blacklist sources across modprobe directories", "[amdgpu][blacklist]") {
  Box box;
  box.fs->file("/etc/modprobe.d/blacklist-amdgpu.conf", "# keep the GPU for vfio\n\nblacklist amdgpu\n");
  box.fs->file("/usr/lib/modprobe.d/gpu-off.conf", "install amdgpu /bin/false\n");
  // Same name in /etc hides the packaged file.
  box.fs->file("/lib/modprobe.d/radeon.conf", "blacklist amdgpu\n");
  box.fs->file("/etc/modprobe.d/radeon.conf", "options radeon si_support=0\n");
  // A link to /dev/null masks a packaged file too.
  box.fs->file("/usr/lib/modprobe.d/masked.conf", "blacklist amdgpu\n");
  box.fs->symlink("/etc/modprobe.d/masked.conf", "/dev/null");
  // Only *.conf files are read.
  box.fs->file("/etc/modprobe.d/old.conf.dpkg-old", "blacklist amdgpu\n");
  box.fs->file("/proc/cmdline", "ro modprobe.blacklist=amdgpu\n");
  Json b = box.run()["blacklisted"];
  CHECK(b["value"] == true);
  CHECK(b["sources"] == Json::array({"/etc/modprobe.d/blacklist-amdgpu.conf:3", "/usr/lib/modprobe.d/gpu-off.conf:1",
                                     "kernel command line"}));
}

TEST_CASE("amdgpu: /lib linked to /usr/lib is read once", "[amdgpu][blacklist]") {
  Box box;
  box.fs->file("/usr/lib/modprobe.d/x.conf", "blacklist amdgpu\n");
  box.fs->symlink("/lib", "usr/lib");
  CHECK(box.run()["blacklisted"]["sources"] == Json::array({"/lib/modprobe.d/x.conf:1"}));
}

TEST_CASE("amdgpu: an unreadable configuration makes 'not blacklisted' unknown", "[amdgpu][blacklist][malformed]") {
  Box box;
  box.fs->file("/etc/modprobe.d/secret.conf", "blacklist amdgpu\n").fail("/etc/modprobe.d/secret.conf",
                                                                         "permission denied");
  box.fs->file("/etc/modprobe.d/binary.conf", std::string("\x7f" "ELF\0\0\0", 7));
  Json b = box.run()["blacklisted"];
  CHECK(is_unknown(b["value"]));
  CHECK(unknown_reason(b["value"]).find("secret.conf: permission denied") != std::string::npos);
  CHECK(unknown_reason(b["value"]).find("binary.conf: binary") != std::string::npos);

  // A blacklist found elsewhere is a known yes all the same.
  box.fs->file("/run/modprobe.d/x.conf", "blacklist amdgpu\n");
  CHECK(box.run()["blacklisted"]["value"] == true);

  Box no_cmdline;
  no_cmdline.fs->fail("/proc/cmdline", "permission denied");
  CHECK(is_unknown(no_cmdline.run()["blacklisted"]["value"]));
}

TEST_CASE("amdgpu: AMD GPUs and their drivers from the pci facts", "[amdgpu]") {
  Box box;
  Json facts = pci_facts({
      {"0000:00:08.1", "0x1022", "0x060400", "pcieport"},   // AMD, but the CPU's bridge
      {"0000:03:00.0", "0x1002", "0x030000", "amdgpu"},
      {"0000:03:00.1", "0x1002", "0x040300", "snd_hda_intel"},  // the card's audio
      {"0000:07:00.0", "0x1002", "0x030000", "radeon"},
      {"0000:0c:00.0", "0x1002", "0x120000", "vfio-pci"},   // an Instinct accelerator
      {"0000:0d:00.0", "0x1002", "0x038000", nullptr},
      {"0000:01:00.0", "0x10de", "0x030000", "nvidia"},
  });
  Json a = box.run(facts);
  Json expected = Json::array({{{"address", "0000:03:00.0"}, {"driver", "amdgpu"}},
                               {{"address", "0000:07:00.0"}, {"driver", "radeon"}},
                               {{"address", "0000:0c:00.0"}, {"driver", "vfio-pci"}},
                               {{"address", "0000:0d:00.0"}, {"driver", nullptr}}});
  CHECK(a["devices"] == expected);
  CHECK(a["radeon_bound"] == Json::array({"0000:07:00.0"}));
}

TEST_CASE("amdgpu: without pci facts the devices come from sysfs", "[amdgpu]") {
  Box box;
  auto device = [&](const std::string& addr, const std::string& vendor, const std::string& cls, const char* driver) {
    std::string real = "/sys/devices/pci0000:00/0000:00:01.1/" + addr;
    box.fs->symlink("/sys/bus/pci/devices/" + addr, "../../../devices/pci0000:00/0000:00:01.1/" + addr);
    box.fs->file(real + "/vendor", vendor + "\n");
    box.fs->file(real + "/class", cls + "\n");
    if (driver) box.fs->symlink(real + "/driver", std::string("../../../../bus/pci/drivers/") + driver);
  };
  device("0000:03:00.0", "0x1002", "0x030000", "amdgpu");
  device("0000:04:00.0", "0x1002", "0x030000", nullptr);
  device("0000:05:00.0", "0x8086", "0x030000", "i915");
  for (Json facts : {Json::object(), Json{{"pci", unknown("the pci probe failed")}}}) {
    Json a = box.run(facts);
    CHECK(a["devices"] == Json::array({{{"address", "0000:03:00.0"}, {"driver", "amdgpu"}},
                                       {{"address", "0000:04:00.0"}, {"driver", nullptr}}}));
    CHECK(a["radeon_bound"] == Json::array());
  }
  box.fs->fail("/sys/bus/pci/devices", "permission denied");
  Json a = box.run();
  CHECK(unknown_reason(a["devices"]).find("permission denied") != std::string::npos);
  CHECK(is_unknown(a["radeon_bound"]));
}

TEST_CASE("amdgpu: pci facts of the wrong shape do not crash the probe", "[amdgpu][malformed]") {
  Box box;
  for (Json facts : {Json{{"pci", 5}}, Json{{"pci", {{"devices", "x"}}}}, Json{{"pci", {{"devices", {1, "a", nullptr}}}}},
                     Json{{"pci", {{"devices", {{{"address", 7}}, {{"address", "0000:03:00.0"}, {"vendor_id", 4098}}}}}}},
                     Json(nullptr), Json::array()}) {
    Json a = box.run(facts);
    CHECK((a["devices"].is_array() || is_unknown(a["devices"])));
  }
  Json odd = {{"pci", {{"devices", {{{"address", "0000:03:00.0"}, {"vendor_id", "0x1002"}, {"class", "0x030000"},
                                     {"driver", 12}}}}}}};
  CHECK(is_unknown(box.run(odd)["devices"][0]["driver"]));
}

TEST_CASE("amdgpu: DKMS builds and the running kernel", "[amdgpu][dkms]") {
  Box box;
  const std::string tree = "/var/lib/dkms/amdgpu";
  box.fs->dir(tree + "/6.8.5-2009582.22.04/6.8.0-45-generic/x86_64/module");
  box.fs->dir(tree + "/6.8.5-2009582.22.04/6.5.0-41-generic/x86_64/module");
  box.fs->symlink(tree + "/6.8.5-2009582.22.04/source", "/usr/src/amdgpu-6.8.5-2009582.22.04");
  box.fs->dir(tree + "/6.3.6-1718217.22.04/6.2.0-39-generic/x86_64/module");
  box.fs->symlink(tree + "/kernel-6.8.0-45-generic-x86_64", "6.8.5-2009582.22.04/6.8.0-45-generic/x86_64");
  box.fs->dir("/usr/src/linux-headers-6.8.0-45-generic/include");
  box.fs->symlink("/lib/modules/6.8.0-45-generic/build", "/usr/src/linux-headers-6.8.0-45-generic");
  Json d = box.run()["dkms"];
  CHECK(d["installed"] == Json::array({"6.3.6-1718217.22.04", "6.8.5-2009582.22.04"}));
  CHECK(d["built_for_running_kernel"] == true);
  CHECK(d["headers_for_running_kernel"] == true);
}

TEST_CASE("amdgpu: DKMS built only for an older kernel, headers removed", "[amdgpu][dkms]") {
  Box box;
  box.fs->dir("/var/lib/dkms/amdgpu/6.3.6-1718217.22.04/6.2.0-39-generic/x86_64/module");
  box.fs->dir("/var/lib/dkms/amdgpu/6.3.6-1718217.22.04/build");
  // The build link dangles once the headers package is gone.
  box.fs->symlink("/lib/modules/6.8.0-45-generic/build", "/usr/src/linux-headers-6.8.0-45-generic");
  Json d = box.run()["dkms"];
  CHECK(d["installed"] == Json::array({"6.3.6-1718217.22.04"}));
  CHECK(d["built_for_running_kernel"] == false);
  CHECK(d["headers_for_running_kernel"] == false);
}

TEST_CASE("amdgpu: no DKMS at all, and unknowable DKMS state", "[amdgpu][dkms][malformed]") {
  Box box;
  Json d = box.run()["dkms"];
  CHECK(d["installed"] == Json::array());
  CHECK(d["built_for_running_kernel"] == false);
  CHECK(d["headers_for_running_kernel"] == false);

  box.fs->fail("/proc/sys/kernel/osrelease", "permission denied");
  d = box.run()["dkms"];
  CHECK(d["built_for_running_kernel"] == false);  // nothing installed, whatever the kernel
  CHECK(is_unknown(d["headers_for_running_kernel"]));

  Box denied;
  denied.fs->dir("/var/lib/dkms/amdgpu/6.8.5/6.8.0-45-generic/x86_64");
  denied.fs->fail("/var/lib/dkms/amdgpu", "permission denied");
  d = denied.run()["dkms"];
  CHECK(unknown_reason(d["installed"]).find("permission denied") != std::string::npos);
  CHECK(is_unknown(d["built_for_running_kernel"]));
}
