// The facts document: every probe's section in one versioned JSON object
// (schema 1, documented field by field in docs/facts.md).
#pragma once

#include <string>
#include <vector>

#include "probe/probe.h"

namespace rocmdoc {

constexpr int kFactsSchema = 1;

struct ProbeTiming {
  std::string probe;
  double milliseconds = 0;
};

// Runs every probe. Never throws for machine content: a probe that fails
// leaves unknown("<why>") as its section.
Json collect_facts(Machine& machine, const ProbeOptions& options, std::vector<ProbeTiming>* timings = nullptr);

// Serialises with invalid UTF-8 replaced, so that bytes read from a broken
// file can never make output fail.
std::string facts_to_string(const Json& facts, int indent = 2);

// Loads a saved facts document (--facts FILE); fails with the path and the
// problem when it is not one. A real one is ~50 KB and a dozen levels deep;
// the limits are far above that and keep a hostile file from exhausting
// memory or the stack.
constexpr uint64_t kMaxFactsFileBytes = 64ull << 20;
constexpr unsigned kMaxFactsDepth = 256;
Result<Json> load_facts_file(const std::string& path);

}  // namespace rocmdoc
