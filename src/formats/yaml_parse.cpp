#include "formats/yaml_parse.h"

#include <yaml-cpp/yaml.h>

namespace rocmdoc {

namespace {

// yaml-cpp marks are 0-based, and -1 where a node has no position.
std::uint32_t one_based(int zero_based) { return zero_based < 0 ? 0 : static_cast<std::uint32_t>(zero_based) + 1; }

// Fills records[index] from n; a container's children are reserved as one
// block at the end first, so they stay contiguous.
void fill(const YAML::Node& n, size_t index, YamlRecords& out) {
  YamlRecord r;
  r.line = one_based(n.Mark().line);
  r.column = one_based(n.Mark().column);
  if (n.IsScalar()) {
    r.kind = YamlKind::scalar;
    r.quoted = n.Tag() == "!";  // yaml-cpp's tag for quoted and block scalars
    r.first = static_cast<std::uint32_t>(out.text.size());
    r.count = static_cast<std::uint32_t>(n.Scalar().size());
    out.text += n.Scalar();
  } else if (n.IsSequence() || n.IsMap()) {
    r.kind = n.IsMap() ? YamlKind::map : YamlKind::sequence;
    r.first = static_cast<std::uint32_t>(out.records.size());
    r.count = static_cast<std::uint32_t>(n.IsMap() ? 2 * n.size() : n.size());
    out.records.resize(out.records.size() + r.count);
    size_t child = r.first;
    for (auto it = n.begin(); it != n.end(); ++it) {
      if (n.IsMap()) {
        fill(it->first, child++, out);
        fill(it->second, child++, out);
      } else {
        fill(*it, child++, out);
      }
    }
  }
  out.records[index] = r;  // after the children: resize moved the vector
}

}  // namespace

YamlParsed parse_yaml_records(std::string_view text) {
  YamlParsed parsed;
  YAML::Node doc;
  try {
    doc = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {  // syntax, or nesting too deep
    parsed.error = {static_cast<int>(one_based(e.mark.line)), static_cast<int>(one_based(e.mark.column)), e.msg};
    return parsed;
  }
  YamlRecords records;
  records.records.resize(1);
  fill(doc, 0, records);
  parsed.records = std::move(records);
  return parsed;
}

YamlParsedTree parse_yaml_tree(std::string_view text) {
  YamlParsed parsed = parse_yaml_records(text);
  YamlParsedTree out;
  out.error = parsed.error;
  if (parsed.records) out.tree.emplace(parsed.records->records, parsed.records->text);
  return out;
}

}  // namespace rocmdoc
