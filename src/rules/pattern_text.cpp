#include "rules/pattern_text.h"

namespace rocmdoc {

namespace {

// Past the escape at i: \Q quotes up to \E (or the end of the pattern), any
// other backslash takes the one byte after it.
size_t escape_end(std::string_view p, size_t i) {
  if (p[i + 1] != 'Q') return i + 2;
  size_t end = p.find("\\E", i + 2);
  return end == std::string_view::npos ? p.size() : end + 2;
}

}  // namespace

size_t literal_piece_end(std::string_view p, size_t i) {
  if (p[i] == '\\' && i + 1 < p.size()) return escape_end(p, i);
  if (p[i] != '[') return i;
  size_t j = i + 1;
  if (j < p.size() && p[j] == '^') ++j;
  if (j < p.size() && p[j] == ']') ++j;  // ']' first is a member
  while (j < p.size()) {
    if (p[j] == '\\' && j + 1 < p.size()) {
      j = escape_end(p, j);
    } else if (p[j] == '[' && j + 1 < p.size() && p[j + 1] == ':' && p.find(":]", j + 2) != std::string_view::npos) {
      j = p.find(":]", j + 2) + 2;  // [:name:] does not end the class
    } else if (p[j] == ']') {
      return j + 1;
    } else {
      ++j;
    }
  }
  return p.size();
}

}  // namespace rocmdoc
