#include "rocmdoc/yaml_json.h"

#include "rocmdoc/text.h"

namespace rocmdoc {

Json yaml_to_json(const YAML::Node& n) {
  if (n.IsMap()) {
    Json o = Json::object();
    for (auto kv : n) o[kv.first.Scalar()] = yaml_to_json(kv.second);
    return o;
  }
  if (n.IsSequence()) {
    Json a = Json::array();
    for (auto item : n) a.push_back(yaml_to_json(item));
    return a;
  }
  if (n.IsNull()) return nullptr;
  const std::string& s = n.Scalar();
  if (n.Tag() != "!") {  // "!" marks a quoted scalar
    if (s == "true" || s == "false") return s == "true";
    if (s == "null" || s == "~") return nullptr;
    if (auto i = parse_int(s)) return *i;
  }
  return s;
}

}  // namespace rocmdoc
