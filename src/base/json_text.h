// JSON as text for a message (a rule's reason, a finding's evidence).
#pragma once

#include <string>

#include "base/fact.h"

namespace rocmdoc {

// j as compact JSON text: invalid UTF-8 (a recorded file's bytes) becomes
// U+FFFD instead of nlohmann's type_error, which would end the run from
// inside a rule's reason.
std::string json_text(const Json& j);

}  // namespace rocmdoc
