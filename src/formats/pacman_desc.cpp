#include "formats/pacman_desc.h"

#include "base/text.h"

namespace rocmdoc {

Result<PacmanPackage> parse_pacman_desc(std::string_view text) {
  using R = Result<PacmanPackage>;
  PacmanPackage p;
  std::string* field = nullptr;  // the field whose first value line comes next
  bool in_field = false;         // inside a field's value lines (ignored or not)
  size_t number = 0;
  for (auto line : split_lines(text)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
      in_field = false;
      field = nullptr;
      continue;
    }
    if (!in_field) {
      if (line.size() < 3 || line.front() != '%' || line.back() != '%')
        return R::fail("line " + std::to_string(number) + ": expected a %FIELD% line, found \"" +
                       line.substr(0, 60) + "\"");
      in_field = true;
      std::string key = line.substr(1, line.size() - 2);
      field = key == "NAME" ? &p.name : key == "VERSION" ? &p.version : key == "BASE" ? &p.base
            : key == "ARCH" ? &p.arch : key == "PACKAGER" ? &p.packager : key == "URL" ? &p.url : nullptr;
      continue;
    }
    // The first value line is the value of the single-valued fields read here.
    if (field) {
      *field = line;
      field = nullptr;
    }
  }
  if (p.name.empty()) return R::fail("no %NAME%");
  if (p.version.empty()) return R::fail("no %VERSION%");
  return R::ok(std::move(p));
}

}  // namespace rocmdoc
