// JSON from outside (a facts file, a snapshot's sidecar, the install
// journal) parsed with the bounds every loader keeps: nesting depth, and
// each key once per object. nlohmann's parser is iterative, but copying or
// destroying a document tens of thousands of levels deep recurses once per
// level; and with a key given twice it keeps the last without a word, so a
// hand-edited file could say one thing and mean another.
#pragma once

#include <string>
#include <string_view>

#include "base/fact.h"
#include "base/result.h"

namespace rocmdoc {

// Every exception nlohmann can throw while parsing (syntax, numbers out of
// range, invalid UTF-8) becomes the failure's text, as does a container
// nested deeper than max_depth (the top level is depth 1) and a repeated
// key (named, with its object's path). Never throws.
Result<Json> parse_json_bounded(std::string_view text, unsigned max_depth);

}  // namespace rocmdoc
