#include "facts/facts_schema.h"

#include <algorithm>

#include "base/text.h"

namespace rocmdoc {

bool is_fact_path(const std::string& path) {
  auto schema = fact_schema();
  auto listed = [&](std::string_view name) { return std::binary_search(schema.begin(), schema.end(), name); };
  if (listed(path)) return true;
  // A prefix: the next character after it in some name is '.' or '['.
  auto it = std::lower_bound(schema.begin(), schema.end(), std::string_view(path));
  if (it != schema.end() && it->starts_with(path) && it->size() > path.size() &&
      ((*it)[path.size()] == '.' || (*it)[path.size()] == '['))
    return true;
  // Open-ended objects ("kernel.cmdline.amdgpu.*"): any key, one level.
  auto dot = path.find_last_of('.');
  return dot != std::string::npos && listed(path.substr(0, dot) + ".*");
}

static void walk(const Json& j, const std::string& prefix, std::set<std::string>& out) {
  if (!prefix.empty()) out.insert(prefix);
  if (is_unknown(j)) return;
  if (j.is_object()) {
    for (auto& [k, v] : j.items()) walk(v, prefix.empty() ? k : prefix + "." + k, out);
  } else if (j.is_array()) {
    for (auto& v : j) walk(v, prefix + "[]", out);
  }
}

std::set<std::string> schema_paths_of(const Json& facts) {
  std::set<std::string> out;
  walk(facts, "", out);
  return out;
}

}  // namespace rocmdoc
