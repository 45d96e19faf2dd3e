// The names of every fact, as rule conditions may use them:
// "kernel.release", "pci.gpus[].vendor", "kernel.cmdline.amdgpu.*".
// The loader rejects a condition naming anything else, so a typo in a rule
// is an error at load instead of a rule that silently never fires. A test
// checks that every fixture's facts stay inside this list and that every
// name is documented in docs/facts.md.
#pragma once

#include <set>
#include <span>
#include <string>
#include <string_view>

#include "base/fact.h"

namespace rocmdoc {

// Sorted in byte order.
std::span<const std::string_view> fact_schema();
// A listed name, a prefix of one ("pci.gpus", "kernel"), or a key under a
// listed "X.*".
bool is_fact_path(const std::string& path);
// The schema names of everything present in a facts document (lists as
// "[]", unknown values as leaves).
std::set<std::string> schema_paths_of(const Json& facts);

}  // namespace rocmdoc
