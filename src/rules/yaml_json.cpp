#include "rocmdoc/yaml_json.h"

#include "rocmdoc/text.h"

namespace rocmdoc {

Json yaml_to_json(const YamlNode& n) {
  if (n.is_map()) {
    Json o = Json::object();
    for (size_t i = 0; i < n.pair_count(); ++i) o[std::string(n.key(i).text)] = yaml_to_json(n.value(i));
    return o;
  }
  if (n.is_sequence()) {
    Json a = Json::array();
    for (auto& item : n.children) a.push_back(yaml_to_json(item));
    return a;
  }
  if (n.is_null()) return nullptr;
  std::string s(n.text);
  if (!n.quoted) {
    if (s == "true" || s == "false") return s == "true";
    if (s == "null" || s == "~") return nullptr;
    if (auto i = parse_int(s)) return *i;
  }
  return s;
}

}  // namespace rocmdoc
