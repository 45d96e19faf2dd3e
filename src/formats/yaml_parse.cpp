#include "formats/yaml_parse.h"

#include <yaml-cpp/yaml.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rocmdoc {

namespace {

// yaml-cpp marks are 0-based, and -1 where a node has no position.
std::uint32_t one_based(int zero_based) { return zero_based < 0 ? 0 : static_cast<std::uint32_t>(zero_based) + 1; }

// An alias is a pointer to its anchor's node, and copying the tree out of
// yaml-cpp expands every one: a kilobyte of anchors that alias each other
// ("billion laughs") becomes billions of nodes, and `a: &a [*a]` a node that
// contains itself. Both are bounded here, before anything reads the tree.
struct Filler {
  YamlRecords& out;
  std::optional<YamlSyntaxError> error;

  bool refuse(const YAML::Node& n, std::string message) {
    error = YamlSyntaxError{static_cast<int>(one_based(n.Mark().line)), static_cast<int>(one_based(n.Mark().column)),
                            std::move(message), true};
    return false;
  }

  // Fills records[index] from n; a container's children are reserved as one
  // block at the end first, so they stay contiguous. False once a limit is hit.
  bool fill(const YAML::Node& n, size_t index, int depth) {
    if (depth > kMaxYamlDepth)
      return refuse(n, "nested deeper than " + std::to_string(kMaxYamlDepth) +
                           " levels (an alias inside its own anchor?)");
    YamlRecord r;
    r.line = one_based(n.Mark().line);
    r.column = one_based(n.Mark().column);
    if (n.IsScalar()) {
      r.kind = YamlKind::scalar;
      r.quoted = n.Tag() == "!";  // yaml-cpp's tag for quoted and block scalars
      if (out.text.size() + n.Scalar().size() > kMaxYamlExpandedText)
        return refuse(n, "more than " + std::to_string(kMaxYamlExpandedText) +
                             " bytes of text once aliases are expanded (aliases of aliases?)");
      r.first = static_cast<std::uint32_t>(out.text.size());
      r.count = static_cast<std::uint32_t>(n.Scalar().size());
      out.text += n.Scalar();
    } else if (n.IsSequence() || n.IsMap()) {
      r.kind = n.IsMap() ? YamlKind::map : YamlKind::sequence;
      size_t children = n.IsMap() ? 2 * n.size() : n.size();
      if (out.records.size() + children > kMaxYamlNodes)
        return refuse(n, "more than " + std::to_string(kMaxYamlNodes) +
                             " YAML nodes once aliases are expanded (aliases of aliases?)");
      r.first = static_cast<std::uint32_t>(out.records.size());
      r.count = static_cast<std::uint32_t>(children);
      out.records.resize(out.records.size() + r.count);
      size_t child = r.first;
      // yaml-cpp keeps the first of a key given twice and drops the rest
      // unseen: `area: system` then `area: no-such-area` would lint clean.
      std::map<std::string, int> keys;  // scalar key -> its line
      for (auto it = n.begin(); it != n.end(); ++it) {
        if (n.IsMap() && it->first.IsScalar()) {
          auto [seen, fresh] = keys.emplace(it->first.Scalar(), static_cast<int>(one_based(it->first.Mark().line)));
          if (!fresh)
            return refuse(it->first, "the key '" + it->first.Scalar() + "' is given twice in this mapping (first on line " +
                                         std::to_string(seen->second) + ")");
        }
        if (n.IsMap()) {
          if (!fill(it->first, child++, depth + 1) || !fill(it->second, child++, depth + 1)) return false;
        } else if (!fill(*it, child++, depth + 1)) {
          return false;
        }
      }
    }
    out.records[index] = r;  // after the children: resize moved the vector
    return true;
  }
};

}  // namespace

YamlParsed parse_yaml_records(std::string_view text) {
  YamlParsed parsed;
  YAML::Node doc;
  try {
    // Every document, so that one after a `---` is an error rather than
    // text nobody reads (rules in it would silently never load).
    std::vector<YAML::Node> docs = YAML::LoadAll(std::string(text));
    if (docs.size() > 1) {
      parsed.error = {static_cast<int>(one_based(docs[1].Mark().line)), static_cast<int>(one_based(docs[1].Mark().column)),
                      "a second YAML document (after ---): a rules file is one document", true};
      return parsed;
    }
    if (!docs.empty()) doc = docs[0];
  } catch (const YAML::Exception& e) {  // syntax, or nesting too deep
    parsed.error = {static_cast<int>(one_based(e.mark.line)), static_cast<int>(one_based(e.mark.column)), e.msg};
    return parsed;
  } catch (const std::exception& e) {  // bad_alloc, length_error: never past the input boundary
    parsed.error = {0, 0, std::string("cannot be parsed: ") + e.what()};
    return parsed;
  }
  YamlRecords records;
  records.records.resize(1);
  Filler filler{records, std::nullopt};
  if (!filler.fill(doc, 0, 1)) {
    parsed.error = *filler.error;
    return parsed;
  }
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
