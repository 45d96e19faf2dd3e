// A parsed YAML document as a small, flat, positioned tree: what the rule
// loader and the matrix read. User rule files are parsed into it with
// yaml-cpp at run time (yaml_parse.h); the built-in rules are parsed at build
// time and packed into the binary (yaml_tree_codec.h), so `check` never runs
// a YAML parser over the ~430 KB of rules/.
//
// Node kinds mirror yaml-cpp's: null (`~`, `null`, an empty value), scalar,
// sequence, map. `quoted` is yaml-cpp's non-plain flag (tag "!": quoted or a
// block scalar), which keeps "24.04" a string where 24 would be a number.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rocmdoc {

enum class YamlKind : std::uint8_t { null, scalar, sequence, map };

struct YamlNode {
  YamlKind kind = YamlKind::null;
  bool quoted = false;
  bool present = true;  // false only for what operator[] gives for a missing key
  int line = 0;    // 1-based, like the file:line:column of messages
  int column = 0;
  std::string_view text;                // scalars only
  std::span<const YamlNode> children;   // sequence items; a map's key, value, key, value, ...

  bool is_null() const { return kind == YamlKind::null; }
  bool is_scalar() const { return kind == YamlKind::scalar; }
  bool is_sequence() const { return kind == YamlKind::sequence; }
  bool is_map() const { return kind == YamlKind::map; }
  // The value under a scalar key of a map, or nullptr (also for non-maps).
  const YamlNode* find(std::string_view key) const;
  // The same as yaml-cpp spells it, so loader code reads as it did:
  // `if (n["run"]) ... fail(n["id"], ...)`. A missing key gives a node that
  // is false, null and has no position.
  const YamlNode& operator[](std::string_view key) const;
  explicit operator bool() const { return present; }
  size_t pair_count() const { return is_map() ? children.size() / 2 : 0; }
  const YamlNode& key(size_t pair) const { return children[2 * pair]; }
  const YamlNode& value(size_t pair) const { return children[2 * pair + 1]; }
};

// One node as stored: positions plus offsets instead of views, so a tree
// can be built (or packed) before its text has a final address.
struct YamlRecord {
  YamlKind kind = YamlKind::null;
  bool quoted = false;
  std::uint32_t line = 0, column = 0;
  std::uint32_t first = 0, count = 0;  // scalar: text offset, length; else first child index, children
};

// Owns the nodes (and, for parsed files, the text). Node 0 is the document.
// Movable, not copyable: nodes point into their own vector and text.
class YamlTree {
 public:
  // records[0] is the root; every container's children are contiguous and
  // after it; the records must already be valid (see decode_yaml_tree).
  // Scalars are views into `text`, which must outlive the tree ...
  YamlTree(const std::vector<YamlRecord>& records, std::string_view text);
  // ... or into `owned`, which the tree keeps.
  YamlTree(const std::vector<YamlRecord>& records, const std::string& owned);
  YamlTree(YamlTree&&) noexcept = default;
  YamlTree& operator=(YamlTree&&) noexcept = default;
  YamlTree(const YamlTree&) = delete;
  YamlTree& operator=(const YamlTree&) = delete;

  const YamlNode& root() const { return nodes_.front(); }
  size_t node_count() const { return nodes_.size(); }

  // For decode_yaml_tree: `count` (>= 1) null nodes to fill in place with
  // set(), without a vector of records in between (the built-in rules are
  // ~25k nodes decoded at every start). Scalars are views into `text`.
  YamlTree(size_t count, std::string_view text);
  void set(size_t i, const YamlRecord& record);

 private:
  // A heap buffer, not std::string: moving a short std::string moves its
  // bytes (small-string optimisation) and would leave the views dangling.
  std::vector<char> owned_;
  std::vector<YamlNode> nodes_;
  std::string_view text_;  // what set() takes scalars from
  void link(const std::vector<YamlRecord>& records, std::string_view text);
};

}  // namespace rocmdoc
