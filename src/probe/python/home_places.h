// Where users keep Python environments in their home: ~/venv, ~/.venv; one
// level below home, ~/X itself when it is a venv, ~/X/venv and ~/X/.venv
// (a project's venv); conda and mamba installs (~/miniconda3, ~/anaconda3,
// ~/miniforge3, ~/mambaforge) with their envs/*; pyenv's ~/.pyenv/versions/*.
// Bounded: never deeper than one level, so a symlink loop costs one failed
// resolve, and a home with very many entries is cut with a sentence.
#pragma once

#include "probe/python/places.h"
#include "probe/probe.h"

namespace rocmdoc {

// home: an absolute path, or unknown (then one sentence says why nothing
// in it was searched).
PlaceSearch home_places(ProbeContext& ctx, const Json& home);

// <root>/versions/* of a pyenv root (~/.pyenv, or a shim's own root).
PlaceSearch pyenv_version_places(ProbeContext& ctx, const std::string& root);

}  // namespace rocmdoc
