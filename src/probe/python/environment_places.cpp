#include "probe/python/environment_places.h"

namespace rocmdoc {

PlaceSearch environment_places(ProbeContext& ctx) {
  PlaceSearch out;
  for (const char* name : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
    Json value = ctx.machine().env(name);
    if (is_unknown(value)) {
      out.not_searched.push_back(std::string(name) + ": " + unknown_reason(value));
      continue;
    }
    if (!value.is_string() || value.get<std::string>().empty()) continue;  // unset: nothing activated
    const std::string& dir = value.get<std::string>();
    if (dir.front() != '/') {
      out.not_searched.push_back(std::string(name) + "=" + dir + ": not an absolute path");
      continue;
    }
    out.prefixes.push_back({path_normalize(dir), name, std::string(name) + "=" + dir});
  }
  return out;
}

}  // namespace rocmdoc
