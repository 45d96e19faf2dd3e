// Renderers for an explanation: text (the top cause in full, then the other
// candidates in a line each) and JSON (docs/explain.md).
#pragma once

#include <string>

#include "explain/explanation.h"

namespace rocmdoc {

struct ExplainTextOptions {
  bool verbose = false;   // every candidate in full
  bool color = false;
  size_t others = 3;      // candidates listed after the top one
  std::string facts_from; // "this machine", "facts file x.json", "" for --no-probe
};

std::string render_explain_text(const Explanation& e, const ExplainTextOptions& options);

constexpr int kExplainJsonSchema = 1;
Json render_explain_json(const Explanation& e, const std::string& facts_from);

}  // namespace rocmdoc
