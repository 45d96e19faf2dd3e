#include "fleet/node_names.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace rocmdoc {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A name split at its last run of digits: gpu-a017x -> "gpu-a", "017", "x".
struct Split {
  std::string prefix, digits, suffix;
};
Split split_last_number(const std::string& name) {
  size_t end = name.size();
  while (end > 0 && !is_digit(name[end - 1])) --end;
  size_t begin = end;
  while (begin > 0 && is_digit(name[begin - 1])) --begin;
  if (begin == end) return {name, "", ""};
  return {name.substr(0, begin), name.substr(begin, end - begin), name.substr(end)};
}

// Ranges of numbers longer than this would not fit an unsigned long long;
// such names are kept whole.
constexpr size_t kMaxDigits = 18;

}  // namespace

bool natural_less(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      size_t i0 = i, j0 = j;
      while (i < a.size() && a[i] == '0') ++i;
      while (j < b.size() && b[j] == '0') ++j;
      size_t is = i, js = j;
      while (i < a.size() && is_digit(a[i])) ++i;
      while (j < b.size() && is_digit(b[j])) ++j;
      std::string_view na = a.substr(is, i - is), nb = b.substr(js, j - js);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      // Equal numbers: fewer leading zeros first, so the order is total.
      if (i - i0 != j - j0) return i - i0 < j - j0;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i, ++j;
  }
  return a.size() - i < b.size() - j;
}

std::string shorten_names(std::vector<std::string> names) {
  std::sort(names.begin(), names.end(), [](auto& a, auto& b) { return natural_less(a, b); });
  names.erase(std::unique(names.begin(), names.end()), names.end());
  // Groups in the order of their first name; within one, the numbers.
  struct Group {
    Split key;
    std::vector<unsigned long long> numbers;
  };
  std::vector<Group> groups;
  std::map<std::tuple<std::string, std::string, size_t>, size_t> index;
  for (auto& name : names) {
    Split s = split_last_number(name);
    if (s.digits.empty() || s.digits.size() > kMaxDigits) {
      groups.push_back({{name, "", ""}, {}});
      continue;
    }
    auto key = std::make_tuple(s.prefix, s.suffix, s.digits.size());
    auto [it, added] = index.emplace(key, groups.size());
    if (added) groups.push_back({s, {}});
    groups[it->second].numbers.push_back(std::stoull(s.digits));
  }
  std::string out;
  for (auto& g : groups) {
    if (!out.empty()) out += ',';
    if (g.numbers.size() <= 1) {
      out += g.key.prefix + g.key.digits + g.key.suffix;
      continue;
    }
    std::sort(g.numbers.begin(), g.numbers.end());
    size_t width = g.key.digits.size();
    auto padded = [width](unsigned long long n) {
      std::string s = std::to_string(n);
      return std::string(width > s.size() ? width - s.size() : 0, '0') + s;
    };
    std::string ranges;
    for (size_t i = 0; i < g.numbers.size();) {
      size_t j = i;
      while (j + 1 < g.numbers.size() && g.numbers[j + 1] == g.numbers[j] + 1) ++j;
      if (!ranges.empty()) ranges += ',';
      ranges += padded(g.numbers[i]);
      if (j > i) ranges += "-" + padded(g.numbers[j]);
      i = j + 1;
    }
    out += g.key.prefix + "[" + ranges + "]" + g.key.suffix;
  }
  return out;
}

namespace {

// One term, possibly with several bracketed ranges: each is expanded in turn.
Result<bool> expand_term(const std::string& term, std::vector<std::string>& out, const std::string& whole) {
  using R = Result<bool>;
  size_t open = term.find('[');
  if (open == std::string::npos) {
    if (term.find(']') != std::string::npos) return R::fail("'" + whole + "': a ']' without its '['");
    out.push_back(term);
    return R::ok(true);
  }
  size_t close = term.find(']', open);
  if (close == std::string::npos) return R::fail("'" + whole + "': a '[' without its ']'");
  std::string prefix = term.substr(0, open), rest = term.substr(close + 1);
  std::string inside = term.substr(open + 1, close - open - 1);
  if (inside.empty()) return R::fail("'" + whole + "': empty brackets");
  size_t start = 0;
  while (start <= inside.size()) {
    size_t comma = inside.find(',', start);
    std::string part = inside.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t dash = part.find('-');
    std::string lo = part.substr(0, dash), hi = dash == std::string::npos ? lo : part.substr(dash + 1);
    auto number = [](const std::string& s) {
      return !s.empty() && s.size() <= kMaxDigits && std::all_of(s.begin(), s.end(), is_digit);
    };
    if (!number(lo) || !number(hi))
      return R::fail("'" + whole + "': '" + part + "' is not a number or a range N-M of numbers");
    unsigned long long a = std::stoull(lo), b = std::stoull(hi);
    if (b < a) return R::fail("'" + whole + "': the range " + part + " runs backwards");
    if (b - a >= 1000000) return R::fail("'" + whole + "': the range " + part + " is over a million names");
    size_t width = lo.size();
    for (unsigned long long n = a; n <= b; ++n) {
      std::string s = std::to_string(n);
      if (s.size() < width) s.insert(0, width - s.size(), '0');
      if (auto r = expand_term(prefix + s + rest, out, whole); !r) return r;
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return R::ok(true);
}

}  // namespace

Result<std::vector<std::string>> expand_names(std::string_view list) {
  using R = Result<std::vector<std::string>>;
  std::vector<std::string> out;
  std::string term;
  int depth = 0;
  auto flush = [&]() -> Result<bool> {
    std::string t = term;
    term.clear();
    if (t.empty()) return Result<bool>::ok(true);
    return expand_term(t, out, t);
  };
  for (char c : list) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if ((c == ',' && depth == 0) || std::isspace(static_cast<unsigned char>(c))) {
      if (auto r = flush(); !r) return R::fail(r.error());
      continue;
    }
    term += c;
  }
  if (auto r = flush(); !r) return R::fail(r.error());
  return R::ok(std::move(out));
}

}  // namespace rocmdoc
