// env: the variables that steer ROCm and PyTorch. A stale
// HSA_OVERRIDE_GFX_VERSION or a LD_LIBRARY_PATH into another ROCm explains
// many "it worked yesterday" reports, so they are facts like any file.
#include "probe/probe.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

// Entries of a PATH-like variable that lie in a ROCm install.
Json rocm_entries(const Json& value) {
  if (is_unknown(value)) return value;
  Json out = Json::array();
  if (!value.is_string()) return out;
  for (auto& entry : split(value.get<std::string>(), ':'))
    if (starts_with(entry, "/opt/rocm")) out.push_back(entry);
  return out;
}

}  // namespace

Json probe_env(ProbeContext& ctx, const Json&) {
  Machine& m = ctx.machine();
  Json e = Json::object();
  for (const char* name : {"HSA_OVERRIDE_GFX_VERSION", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
                           "CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL", "ROCM_PATH", "HIP_PATH", "PYTORCH_ROCM_ARCH"})
    e[name] = m.env(name);

  // HSA_OVERRIDE_GFX_VERSION_<N> sets the override for one device (ROCm 6.2+).
  Json per_device = Json::object();
  const std::string prefix = "HSA_OVERRIDE_GFX_VERSION_";
  for (auto& name : m.env_names())
    if (starts_with(name, prefix)) per_device[name.substr(prefix.size())] = m.env(name);
  e["hsa_override_per_device"] = per_device;

  e["path_rocm_entries"] = rocm_entries(m.env("PATH"));
  e["ld_library_path_rocm_entries"] = rocm_entries(m.env("LD_LIBRARY_PATH"));
  return e;
}

}  // namespace rocmdoc
