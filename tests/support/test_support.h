// Helpers for tests: where the fixtures are, facts for a recorded machine,
// and running the built rocmdoc binary.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "base/fact.h"

namespace rocmdoc::test {

// A path inside the source tree ("tests/machines/...").
std::string source_path(const std::string& relative);
// The fixture machines: every folder under tests/machines/ that holds a
// root/, by name.
std::vector<std::string> fixture_machines();
// The root/ folder of a fixture machine under tests/machines/.
std::string machine_root(const std::string& name);

// A whole file's bytes; empty when it cannot be read (the test's CHECK says so).
std::string read_text_file(const std::filesystem::path& path);
// Facts collected in-process for a recorded root; REQUIREs that it opens.
Json facts_for_root(const std::string& root, const std::vector<std::string>& python_paths = {});

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// Runs the built rocmdoc with these arguments (no shell), stdin from /dev/null.
CliRun run_rocmdoc(const std::vector<std::string>& args);

// A fresh directory under the temporary directory, removed with all it
// holds when the test ends, also when an assertion ends it early. Each is
// unique, so the plain and the sanitizer build's tests, which ctest may run
// at the same time, never write the same file.
struct ScratchDir {
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::filesystem::path path;
};

// The sanitizer build runs our code about eight times slower (the
// damaged-facts property: 33 s plain, 256 s with ASan+UBSan on 2 cores), and
// its sweeps that run every command on every fixture machine had grown to
// 250-370 s each, the suite to half an hour. There such a sweep takes every
// kSweepStride-th item of its list, from `offset`; the plain build takes
// all. The sweeps over fixture machines by index use offsets 0, 1 and 2 (the
// golden outputs; check, install, fix and report; the damaged facts), so
// each machine runs under the sanitizers in one of them, and the plain build
// still checks every property on every machine.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr size_t kSweepStride = 3;
#else
inline constexpr size_t kSweepStride = 1;
#endif
inline bool in_sweep_sample(size_t index, size_t offset) { return index % kSweepStride == offset % kSweepStride; }

}  // namespace rocmdoc::test
