#include "formats/yaml_parse.h"

#include <yaml-cpp/anchor.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <optional>
#include <sstream>
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

// Where each document starts, for the first two, from parse events alone.
// yaml-cpp 0.7's LoadAll loops for ever on a stray ',' (jbeder/yaml-cpp
// #1040, fixed by PR #1319 after 0.7): the parser reports a document
// without consuming the token, again and again, each a new null node,
// until memory runs out (",#" alone: 3 GB in 10 s; found by fuzz_rules).
// Counting documents with a bound, and seeing one start where the last
// did, ends that loop with a message.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;
  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

}  // namespace

YamlParsed parse_yaml_records(std::string_view text) {
  YamlParsed parsed;
  YAML::Node doc;
  try {
    // Every document is looked for, so that one after a `---` is an error
    // rather than text nobody reads (rules in it would silently never load).
    std::istringstream stream{std::string(text)};
    YAML::Parser parser(stream);
    DocumentStarts counted;
    while (counted.starts.size() < 2 && parser.HandleNextDocument(counted)) {
    }
    if (counted.starts.size() > 1) {
      const YAML::Mark& first = counted.starts[0];
      const YAML::Mark& second = counted.starts[1];
      int line = static_cast<int>(one_based(second.line)), column = static_cast<int>(one_based(second.column));
      if (second.pos == first.pos)
        parsed.error = {line, column, "YAML the parser cannot read past (a stray ',' or other flow indicator outside [ ] or { }?)"};
      else
        parsed.error = {line, column, "a second YAML document (after ---): a rules file is one document", true};
      return parsed;
    }
    if (!counted.starts.empty()) doc = YAML::Load(std::string(text));
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
