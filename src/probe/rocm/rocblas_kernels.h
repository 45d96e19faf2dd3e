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
// and each once.
Json rocblas_targets_in_names(const std::vector<std::string>& names);

// `lib`/rocblas/library's targets; null where there is no such directory
// (no rocBLAS there), unknown where it cannot be listed.
Json rocblas_targets(ProbeContext& ctx, const std::string& lib);

// Sets "bundles" in the rocm section: each application's own copy of ROCm
// that has a rocBLAS library directory.
void probe_rocm_bundles(ProbeContext& ctx, Json& section);

// The HSA_OVERRIDE_GFX_VERSION value a systemd unit file's Environment=
// lines set ("10.3.0"), or null where none does.
Json unit_hsa_override(std::string_view unit_text);

}  // namespace rocmdoc
