// A place that may be a Python installation prefix (a venv, a conda
// environment, a pyenv version), and how rocmdoc came to look at it. The
// producers (environment_places, home_places, install_venv) only name
// places; interpreters.cpp scans each prefix's bin/ once, so a prefix
// reached several ways is one interpreter, found by the first way.
#pragma once

#include <string>
#include <vector>

namespace rocmdoc {

struct PrefixCandidate {
  std::string prefix;
  std::string found_by;  // VIRTUAL_ENV, CONDA_PREFIX, rocmdoc install, home venv, conda env, pyenv version
  // For a place something names as a Python prefix (VIRTUAL_ENV, the
  // install journal): the sentence's start when its bin/ holds no
  // python3, which is worth saying. Empty for places merely looked at.
  std::string named_by;
};

struct PlaceSearch {
  std::vector<PrefixCandidate> prefixes;
  std::vector<std::string> not_searched;  // sentences: what could not be searched, and why
};

}  // namespace rocmdoc
