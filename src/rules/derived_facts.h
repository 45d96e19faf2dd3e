// Facts that need the matrix: each AMD GPU joined across PCI, KFD and the
// matrix (`gpus`), and the ROCm release a check is made against (`target`).
// Added to the facts document by `check` before the rules run, so rules read
// them like any other fact (docs/facts.md, "Derived sections").
#pragma once

#include <optional>
#include <string>

#include "rules/matrix.h"

namespace rocmdoc {

// requested_rocm: --rocm X.Y[.Z], or nullopt for the installed release
// (/opt/rocm), else the newest the matrix lists for the GPU and distribution.
void add_derived_facts(Json& facts, const Matrix& matrix, const std::optional<std::string>& requested_rocm);

// The family AMD's kernel rows name for a GPU of `gpus` (MatrixKernel::
// families): "apu" for a Ryzen APU, "instinct" for a CDNA one, "radeon" for
// the others; null when its architecture is not known (target.gpu_family).
Json gpu_family(const Json* gpu);

}  // namespace rocmdoc
