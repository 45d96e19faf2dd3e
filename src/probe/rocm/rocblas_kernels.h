// rocBLAS's kernel files: which gfx targets a rocBLAS library directory
// has code for, read from the file names (kernel files first: what is on
// disk, not what a table says should be), for each ROCm install and for the
// copies of ROCm that applications bundle (ollama's).
#pragma once

#include <string>
#include <string_view>

#include "probe/probe.h"

namespace rocmdoc {

// The gfx targets named by the TensileLibrary files in `dir`'s listing
// (TensileLibrary_lazy_gfx1100.dat, TensileLibrary_gfx1030.co, ...), sorted
// and each once; with lazy_only, only the lazy-loading indexes
// (TensileLibrary_lazy_<gfx>.dat), the files ollama counts.
Json rocblas_targets_in_names(const std::vector<std::string>& names, bool lazy_only = false);

// `lib`/rocblas/library's targets; null where there is no such directory
// (no rocBLAS there), unknown where it cannot be listed.
Json rocblas_targets(ProbeContext& ctx, const std::string& lib, bool lazy_only = false);

// Sets "bundles" in the rocm section: each application's own copy of ROCm
// that has a rocBLAS library directory.
void probe_rocm_bundles(ProbeContext& ctx, Json& section);

// The HSA_OVERRIDE_GFX_VERSION value after a systemd unit file's lines
// ("10.3.0"), starting from `before` (the files read earlier): an
// Environment= line that sets it replaces it, an empty value or an empty
// Environment= clears it (null); unknown where the file reads an
// EnvironmentFile=, which is not followed.
Json unit_hsa_override(std::string_view unit_text, Json before = nullptr);

}  // namespace rocmdoc
