// The amdgpu, kfd and access probes on the real capture of a Debian 12 VM:
// virtio devices only, a monolithic kernel (no /proc/modules), no GPU.
#include "catch.h"
#include "test_support.h"

using namespace rocmdoc;

TEST_CASE("amdgpu, kfd and access on the Debian 12 VM capture", "[amdgpu][kfd][access][machines]") {
  Json facts = test::facts_for_root(test::machine_root("debian12-vm-distro-rocm"));

  const Json& amdgpu = facts["amdgpu"];
  INFO(amdgpu.dump(2));
  CHECK(unknown_reason(amdgpu["module"]["loaded"]).find("/proc/modules") != std::string::npos);
  CHECK(amdgpu["module"]["version"].is_null());
  CHECK(amdgpu["devices"] == Json::array());
  CHECK(amdgpu["radeon_bound"] == Json::array());
  // The capture kept no /proc/cmdline, so "not blacklisted" cannot be said.
  CHECK(unknown_reason(amdgpu["blacklisted"]["value"]).find("/proc/cmdline") != std::string::npos);
  CHECK(amdgpu["dkms"]["installed"] == Json::array());

  const Json& kfd = facts["kfd"];
  INFO(kfd.dump(2));
  CHECK(kfd["device_node"] == Json({{"present", false}, {"type", nullptr}}));
  CHECK(kfd["nodes"] == Json::array());
  CHECK(kfd["gpus"] == Json::array());

  const Json& access = facts["access"];
  INFO(access.dump(2));
  CHECK(access["user"]["name"] == "root");  // from cmd/id.txt
  CHECK(access["user"]["uid"] == 0);
  // capture-machine.sh keeps no SUDO_ variables: who runs ROCm is open.
  CHECK(is_unknown(access["user"]["sudo_user"]));
  CHECK(is_unknown(access["user"]["target"]));
  CHECK(access["process_groups"] == Json::array({"root"}));
  CHECK(access["render_group"] == Json({{"exists", false}, {"gid", nullptr}}));
  CHECK(access["video_group"] == Json({{"exists", true}, {"gid", 44}}));
  CHECK(access["nodes"] == Json::array());
}
