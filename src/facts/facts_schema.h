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
// The word a blank left for this fact in a command is named by ("<gfx>" for
// "it.gfx", "<installed>" for "target.installed[0]"): its last name, unless
// that reads as something else where a reader types the value
// ("usermod -aG render <target>" asks for no user name). A name without a
// dot (a function's: "torch_index") is its own word.
std::string fact_blank_word(std::string_view path);
// The schema names of everything present in a facts document (lists as
// "[]", unknown values as leaves).
std::set<std::string> schema_paths_of(const Json& facts);

}  // namespace rocmdoc
