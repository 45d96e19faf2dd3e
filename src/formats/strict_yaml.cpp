#include "formats/strict_yaml.h"

#include "base/text.h"
#include "formats/yaml_json.h"

namespace rocmdoc {

std::string SourceLocation::str() const {
  std::string s = file;
  if (line > 0) s += ":" + std::to_string(line) + ":" + std::to_string(column);
  return s;
}

void StrictYaml::fail(const YamlNode& n, const std::string& message) const { throw Failure{error(n, message)}; }

void StrictYaml::mapping(const YamlNode& n, std::string_view message) const {
  if (!n.is_map()) fail(n, std::string(message));
}

void StrictYaml::allow_keys(const YamlNode& map, std::initializer_list<std::string_view> keys) const {
  if (!map.is_map()) fail(map, "expected a mapping");
  for (size_t i = 0; i < map.pair_count(); ++i) {
    std::string_view key = map.key(i).text;
    bool ok = false;
    for (std::string_view k : keys) ok = ok || key == k;
    if (ok) continue;
    std::string allowed;
    for (std::string_view k : keys) (allowed += allowed.empty() ? "" : ", ") += k;
    fail(map.key(i), "unknown key '" + std::string(key) + "' (allowed: " + allowed + ")");
  }
}

const YamlNode& StrictYaml::required(const YamlNode& map, std::string_view key) const {
  const YamlNode& value = map[key];
  if (!value) fail(map, "missing '" + std::string(key) + "'");
  return value;
}

std::span<const YamlNode> StrictYaml::list(const YamlNode& n, std::string_view what) const {
  if (!n.is_sequence()) fail(n, "'" + std::string(what) + "' must be a list");
  return n.children;
}

std::string_view StrictYaml::text_view(const YamlNode& n, std::string_view what) const {
  if (!n.is_scalar()) fail(n, "'" + std::string(what) + "' must be text");
  return n.text;
}

std::string StrictYaml::text(const YamlNode& n, std::string_view what) const { return std::string(text_view(n, what)); }

std::string_view StrictYaml::string(const YamlNode& n, std::string_view what) const {
  if (!n.is_scalar() || !yaml_scalar_is_string(n))
    fail(n, "'" + std::string(what) + "' must be text (quote it where it looks like a number, true/false or null)");
  return n.text;
}

std::optional<std::string_view> StrictYaml::string_or_null(const YamlNode& n, std::string_view what) const {
  if (!n || n.is_null()) return std::nullopt;
  return string(n, what);
}

bool StrictYaml::flag(const YamlNode& n, std::string_view what) const {
  std::string_view v = text_view(n, what);
  if (v != "true" && v != "false") fail(n, "'" + std::string(what) + "' must be true or false");
  return v == "true";
}

std::int64_t StrictYaml::integer(const YamlNode& n, std::string_view what) const {
  auto i = n.is_scalar() && !n.quoted ? parse_int(n.text) : std::nullopt;
  if (!i) fail(n, "'" + std::string(what) + "' must be a whole number");
  return *i;
}

std::vector<std::string> StrictYaml::texts(const YamlNode& n, std::string_view what) const {
  if (!n.is_sequence()) fail(n, "'" + std::string(what) + "' must be a list of text");
  std::vector<std::string> out;
  out.reserve(n.children.size());
  for (auto& item : n.children) {
    if (!item.is_scalar()) fail(item, "'" + std::string(what) + " item' must be text");
    out.emplace_back(item.text);
  }
  return out;
}

std::vector<std::string_view> StrictYaml::strings(const YamlNode& n, std::string_view what) const {
  if (!n.is_sequence()) fail(n, "'" + std::string(what) + "' must be a list of text");
  std::vector<std::string_view> out;
  out.reserve(n.children.size());
  for (auto& item : n.children) {
    if (!item.is_scalar() || !yaml_scalar_is_string(item)) string(item, std::string(what) + " item");
    out.push_back(item.text);
  }
  return out;
}

}  // namespace rocmdoc
