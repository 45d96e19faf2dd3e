#include "base/fact.h"

#include "base/text.h"

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

Json printable_strings(const Json& doc) {
  if (doc.is_string()) return printable(doc.get_ref<const std::string&>(), true);
  if (doc.is_array()) {
    Json out = Json::array();
    for (auto& v : doc) out.push_back(printable_strings(v));
    return out;
  }
  if (doc.is_object()) {
    Json out = Json::object();
    for (auto& [k, v] : doc.items()) out[printable(k)] = printable_strings(v);
    return out;
  }
  return doc;
}

}  // namespace rocmdoc
