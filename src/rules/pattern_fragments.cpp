#include "rules/pattern_fragments.h"

#include <re2/re2.h>

#include "rules/pattern_options.h"
#include "rules/pattern_text.h"

namespace rocmdoc {

bool is_fragment_name(std::string_view name) {
  if (name.empty() || !(name[0] >= 'a' && name[0] <= 'z')) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

Result<std::optional<FragmentReference>> next_fragment_reference(std::string_view p, size_t from) {
  using R = Result<std::optional<FragmentReference>>;
  // Most patterns name no fragment: no walk for them.
  if (p.find("(?&", from) == std::string_view::npos) return R::ok(std::nullopt);
  for (size_t i = from; i < p.size();) {
    if (size_t end = literal_piece_end(p, i); end > i) {
      i = end;
      continue;
    }
    if (p.compare(i, 3, "(?&") != 0) {
      ++i;
      continue;
    }
    size_t close = p.find(')', i + 3);
    std::string_view name = close == std::string_view::npos ? std::string_view() : p.substr(i + 3, close - i - 3);
    if (!is_fragment_name(name))
      return R::fail("'(?&' names a fragment: (?&name), the name in lower-case letters, digits and '_' (docs/rules.md)");
    return R::ok(FragmentReference{i, close + 1, name});
  }
  return R::ok(std::nullopt);
}

Result<std::string> expand_fragments(std::string_view pattern, const PatternFragments& fragments) {
  using R = Result<std::string>;
  std::string out;
  size_t done = 0;
  while (true) {
    auto ref = next_fragment_reference(pattern, done);
    if (!ref) return R::fail(ref.error());
    if (!*ref) break;
    auto& [begin, end, name] = **ref;
    auto it = fragments.find(name);
    if (it == fragments.end())
      return R::fail("unknown fragment '" + std::string(name) +
                     "' (a fragment is defined under 'fragments:' before the patterns that name it)");
    out.append(pattern, done, begin - done);
    out += "(?:" + it->second.pattern + ")";
    done = end;
  }
  out.append(pattern, done);
  return R::ok(std::move(out));
}

std::vector<std::string> run_fragment_examples(const PatternFragments& fragments, size_t* examples_run) {
  std::vector<std::string> failures;
  size_t n = 0;
  for (auto& [name, f] : fragments) {
    RE2 whole("(?:" + f.pattern + ")+", rule_pattern_options());
    for (auto& ex : f.examples) {
      ++n;
      std::string where = ex.where.str() + ": fragment '" + name + "': ";
      if (!whole.ok()) failures.push_back(where + "not an RE2 pattern: " + whole.error());
      else if (RE2::FullMatch(ex.line, whole) != ex.match)
        failures.push_back(where + (ex.match ? "does not match '" : "matches '") + ex.line +
                           "' (the whole line, as the fragment once or more)");
    }
  }
  if (examples_run) *examples_run = n;
  return failures;
}

}  // namespace rocmdoc
