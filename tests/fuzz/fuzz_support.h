// Shared by the fuzz targets (tests/fuzz/README.md): the built-in knowledge,
// loaded once, and the input as text. Each target defines
// LLVMFuzzerTestOneInput; built with -DROCMDOC_FUZZ=ON and clang it is a
// libFuzzer binary, and in the normal build replay_main.cpp runs it over
// its corpus and the crash inputs kept in regressions/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "rules/knowledge.h"

namespace rocmdoc::fuzz {

// The built-in rules, matrix and signatures (compiled patterns too).
inline const Knowledge& builtin_knowledge() {
  static const Knowledge k = [] {
    RuleSources sources;
    sources.local_rules_dir.clear();  // /etc/rocmdoc/rules.d would make runs differ by machine
    sources.compile_patterns = true;
    return load_knowledge(sources);
  }();
  return k;
}

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The first byte chooses among `count` parsers; the rest is their input.
struct Selected {
  unsigned which = 0;
  std::string_view rest;
};
inline Selected select(const uint8_t* data, size_t size, unsigned count) {
  if (size == 0) return {0, {}};
  return {static_cast<unsigned>(data[0]) % count, as_text(data + 1, size - 1)};
}

}  // namespace rocmdoc::fuzz
