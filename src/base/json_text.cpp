#include "base/json_text.h"

namespace rocmdoc {

std::string json_text(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

}  // namespace rocmdoc
