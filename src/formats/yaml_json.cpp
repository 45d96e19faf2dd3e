#include "formats/yaml_json.h"

#include "base/text.h"

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
  if (yaml_scalar_is_string(n)) return std::string(n.text);
  if (n.text == "true" || n.text == "false") return n.text == "true";
  if (auto i = parse_int(n.text)) return *i;
  return nullptr;  // null, ~
}

bool yaml_scalar_is_string(const YamlNode& n) {
  if (n.quoted) return true;
  std::string_view t = n.text;
  return !(t == "true" || t == "false" || t == "null" || t == "~" || parse_int(t));
}

}  // namespace rocmdoc
