// Renderers for a check report: text in the style of `flutter doctor`
// (one line per area, details for problems, -v for everything, a summary)
// and a versioned JSON document (docs/check-json.md).
#pragma once

#include <string>

#include "rules/knowledge.h"

namespace rocmdoc {

struct TextOptions {
  bool verbose = false;
  bool color = false;  // only on a terminal, never with NO_COLOR (the caller decides)
};

std::string render_text_report(const CheckReport& report, const TextOptions& options);

constexpr int kCheckJsonSchema = 1;
Json render_json_report(const CheckReport& report);

}  // namespace rocmdoc
