#include "base/fact.h"

namespace rocmdoc {

Json unknown(const std::string& reason) {
  Json j = Json::object();
  j["unknown"] = reason.empty() ? std::string("no reason given") : reason;
  return j;
}

bool is_unknown(const Json& fact) {
  return fact.is_object() && fact.size() == 1 && fact.contains("unknown") && fact["unknown"].is_string();
}

const Json& field(const Json& obj, const char* key) {
  static const Json null_json;
  if (!obj.is_object()) return null_json;
  auto it = obj.find(key);
  return it == obj.end() ? null_json : *it;
}

std::string unknown_reason(const Json& fact) { return is_unknown(fact) ? fact["unknown"].get<std::string>() : ""; }

}  // namespace rocmdoc
