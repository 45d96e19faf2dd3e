#include "catch.h"
#include "probe_test_support.h"

using namespace rocmdoc;
using rocmdoc::test::MemoryMachine;

TEST_CASE("env: set, unset and per-device overrides", "[env]") {
  MemoryMachine m(std::map<std::string, std::string>{
      {"HSA_OVERRIDE_GFX_VERSION", "10.3.0"},
      {"HSA_OVERRIDE_GFX_VERSION_1", "11.0.0"},
      {"PATH", "/usr/bin:/opt/rocm/bin:/opt/rocm-6.2.0/bin"},
      {"LD_LIBRARY_PATH", "/opt/rocm-5.7.1/lib"},
      {"AWS_SECRET_ACCESS_KEY", "never recorded"}});
  Json e = m.run(probe_env);
  CHECK(e["HSA_OVERRIDE_GFX_VERSION"] == "10.3.0");
  CHECK(e["HIP_VISIBLE_DEVICES"].is_null());
  CHECK(e["hsa_override_per_device"]["1"] == "11.0.0");
  CHECK(e["path_rocm_entries"] == Json::array({"/opt/rocm/bin", "/opt/rocm-6.2.0/bin"}));
  CHECK(e["ld_library_path_rocm_entries"] == Json::array({"/opt/rocm-5.7.1/lib"}));
  CHECK(m.machine.env_names().size() == 4);  // the unrelated secret is not kept
}

TEST_CASE("env: variables a recording did not keep are unknown, not unset", "[env]") {
  MemoryMachine m;
  m.machine.set_env({{"PATH", "/usr/bin"}}, {"PATH", "HSA"});
  Json e = m.run(probe_env);
  CHECK(e["HSA_OVERRIDE_GFX_VERSION"].is_null());  // HSA* was recorded: known unset
  CHECK(is_unknown(e["HIP_VISIBLE_DEVICES"]));
  CHECK(is_unknown(e["ld_library_path_rocm_entries"]));
  CHECK(e["path_rocm_entries"] == Json::array());
}
