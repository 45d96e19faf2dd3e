#include "base/columns.h"

#include <cstdint>

namespace rocmdoc {

namespace {

// The length of the escape sequence at text[at] (ESC [ ... final byte), or 0.
size_t escape_length(std::string_view text, size_t at) {
  if (text[at] != '\033' || at + 1 >= text.size() || text[at + 1] != '[') return 0;
  size_t i = at + 2;
  while (i < text.size() && !(text[i] >= 0x40 && text[i] <= 0x7e)) ++i;
  return i < text.size() ? i - at + 1 : text.size() - at;
}

// One UTF-8 character at text[at]: its length in bytes and its code point
// (an invalid byte is one byte, drawn as one replacement character).
size_t decode(std::string_view text, size_t at, uint32_t& cp) {
  unsigned char c = static_cast<unsigned char>(text[at]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || at + n > text.size()) {
    cp = 0xfffd;
    return 1;
  }
  cp = n == 1 ? c : c & (0xff >> (n + 1));
  for (size_t i = 1; i < n; ++i) {
    unsigned char k = static_cast<unsigned char>(text[at + i]);
    if ((k >> 6) != 0x2) {
      cp = 0xfffd;
      return 1;
    }
    cp = (cp << 6) | (k & 0x3f);
  }
  return n;
}

size_t width_of(uint32_t cp) {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if ((cp >= 0x300 && cp <= 0x36f) || cp == 0x200b || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  bool wide = (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) ||
              (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
              (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
              (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd);
  return wide ? 2 : 1;
}

}  // namespace

size_t columns(std::string_view text) {
  size_t total = 0;
  for (size_t at = 0; at < text.size();) {
    if (size_t e = escape_length(text, at)) {
      at += e;
      continue;
    }
    uint32_t cp = 0;
    at += decode(text, at, cp);
    total += width_of(cp);
  }
  return total;
}

std::string cut_to_columns(std::string_view text, size_t max) {
  if (columns(text) <= max) return std::string(text);
  std::string out;
  bool escapes = false;
  size_t used = 0, room = max == 0 ? 0 : max - 1;  // one column for "…"
  for (size_t at = 0; at < text.size();) {
    if (size_t e = escape_length(text, at)) {
      out.append(text.substr(at, e));
      escapes = true;
      at += e;
      continue;
    }
    uint32_t cp = 0;
    size_t n = decode(text, at, cp);
    size_t w = width_of(cp);
    if (used + w > room) break;
    out.append(text.substr(at, n));
    used += w;
    at += n;
  }
  if (max > 0) out += "…";
  if (escapes) out += "\033[0m";
  return out;
}

}  // namespace rocmdoc
