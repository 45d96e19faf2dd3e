#include "formats/yaml_tree.h"

namespace rocmdoc {

const YamlNode* YamlNode::find(std::string_view key_text) const {
  for (size_t i = 0; i < pair_count(); ++i)
    if (key(i).is_scalar() && key(i).text == key_text) return &value(i);
  return nullptr;
}

const YamlNode& YamlNode::operator[](std::string_view key_text) const {
  static const YamlNode absent = [] {
    YamlNode n;
    n.present = false;
    return n;
  }();
  const YamlNode* value = find(key_text);
  return value ? *value : absent;
}

YamlTree::YamlTree(const std::vector<YamlRecord>& records, std::string_view text) { link(records, text); }

YamlTree::YamlTree(const std::vector<YamlRecord>& records, const std::string& owned) : owned_(owned.begin(), owned.end()) {
  link(records, std::string_view(owned_.data(), owned_.size()));
}

// Sized once: the children spans point into the vector.
YamlTree::YamlTree(size_t count, std::string_view text) : nodes_(count < 1 ? 1 : count), text_(text) {}

void YamlTree::set(size_t i, const YamlRecord& r) {
  YamlNode& n = nodes_[i];
  n.kind = r.kind;
  n.quoted = r.quoted;
  n.line = static_cast<int>(r.line);
  n.column = static_cast<int>(r.column);
  if (r.kind == YamlKind::scalar) n.text = text_.substr(r.first, r.count);
  else if (r.count > 0) n.children = std::span<const YamlNode>(nodes_.data() + r.first, r.count);
}

void YamlTree::link(const std::vector<YamlRecord>& records, std::string_view text) {
  nodes_.resize(records.empty() ? 1 : records.size());
  text_ = text;
  for (size_t i = 0; i < records.size(); ++i) set(i, records[i]);
}

}  // namespace rocmdoc
