#include "formats/ini_text.h"

#include "base/text.h"

namespace rocmdoc {

const IniEntry* IniSection::find(std::string_view key) const {
  const IniEntry* found = nullptr;
  for (auto& e : entries)
    if (e.key == key) found = &e;
  return found;
}

std::vector<IniSection> parse_ini(std::string_view text, IniSyntax syntax) {
  std::vector<IniSection> sections(1);
  IniEntry* last = nullptr;  // the entry a continuation line extends
  auto lines = split_lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view raw = lines[i];
    bool indented = !raw.empty() && (raw.front() == ' ' || raw.front() == '\t');
    if (syntax.inline_hash_comments) raw = raw.substr(0, raw.find('#'));
    std::string line = trim(raw);
    if (line.empty() || line.front() == '#' || (!syntax.inline_hash_comments && line.front() == ';')) {
      // A blank line ends a value; a comment line inside one does not.
      if (line.empty()) last = nullptr;
      continue;
    }
    if (indented && syntax.continuation_lines && last) {
      last->value += "\n" + line;
      continue;
    }
    if (line.front() == '[') {
      auto close = line.find(']');
      if (close == std::string::npos) {
        last = nullptr;
        continue;
      }
      IniSection s;
      s.name = trim(std::string_view(line).substr(1, close - 1));
      s.line = i + 1;
      sections.push_back(std::move(s));
      last = nullptr;
      continue;
    }
    IniEntry e;
    auto eq = line.find('=');
    e.key = trim(std::string_view(line).substr(0, eq));
    e.value = eq == std::string::npos ? "" : trim(std::string_view(line).substr(eq + 1));
    e.line = i + 1;
    if (e.key.empty()) {
      last = nullptr;
      continue;
    }
    sections.back().entries.push_back(std::move(e));
    last = &sections.back().entries.back();
  }
  if (sections.front().entries.empty()) sections.erase(sections.begin());
  return sections;
}

}  // namespace rocmdoc
