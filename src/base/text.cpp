#include "base/text.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <charconv>

namespace rocmdoc {

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim_view(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

std::string trim(std::string_view s) { return std::string(trim_view(s)); }

std::vector<std::string> split_lines(std::string_view s) {
  std::vector<std::string> lines;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = s.find('\n', i);
    if (j == std::string_view::npos) j = s.size();
    std::string_view line = s.substr(i, j - i);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    i = j + 1;
  }
  return lines;
}

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    size_t j = i;
    while (j < s.size() && !is_space(s[j])) ++j;
    if (j > i) words.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return words;
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> parts;
  size_t i = 0;
  for (;;) {
    size_t j = s.find(sep, i);
    if (j == std::string_view::npos) {
      parts.emplace_back(s.substr(i));
      return parts;
    }
    parts.emplace_back(s.substr(i, j - i));
    i = j + 1;
  }
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  if (from.empty()) return s;
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::optional<uint64_t> parse_uint(std::string_view s, int base) {
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<uint64_t> parse_hex(std::string_view s) {
  if (starts_with(s, "0x") || starts_with(s, "0X")) s.remove_prefix(2);
  return parse_uint(s, 16);
}

std::optional<int64_t> parse_int(std::string_view s) {
  if (s.empty()) return std::nullopt;
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 10);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

static std::string unquote(std::string_view v) {
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
    char q = v.front();
    v = v.substr(1, v.size() - 2);
    if (q == '\'') return std::string(v);
    std::string out;
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] == '\\' && i + 1 < v.size()) ++i;
      out += v[i];
    }
    return out;
  }
  return std::string(v);
}

std::map<std::string, std::string> parse_env_file(std::string_view text) {
  std::map<std::string, std::string> out;
  for (auto& raw : split_lines(text)) {
    std::string line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    auto eq = line.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    std::string key = line.substr(0, eq);
    bool valid = true;
    for (char c : key)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) valid = false;
    if (!valid) continue;
    out[key] = unquote(line.substr(eq + 1));
  }
  return out;
}

std::map<std::string, std::string> parse_key_value_lines(std::string_view text) {
  std::map<std::string, std::string> out;
  for (auto& line : split_lines(text)) {
    auto words = split_words(line);
    if (words.size() == 2) out[words[0]] = words[1];
  }
  return out;
}

bool looks_binary(std::string_view s) {
  if (s.find('\0') != std::string_view::npos) return true;
  // Control bytes are counted in the first 64 KiB only, as file(1) and git
  // judge text by its start.
  std::string_view head = s.substr(0, 64 * 1024);
  size_t control = 0;
  for (unsigned char c : head) control += c < 0x20 && c != '\n' && c != '\r' && c != '\t';
  return control * 20 > head.size();  // more than 5% control bytes
}

std::string quote_for_reason(std::string_view s, size_t max_len) {
  std::string out = "\"";
  for (unsigned char c : s.substr(0, max_len)) {
    if (c == '\n') out += "\\n";
    else if (c < 0x20 || c >= 0x7f) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else out += static_cast<char>(c);
  }
  out += "\"";
  if (s.size() > max_len) out += "...";
  return out;
}

// A command as a person would type it, and as safe to paste as to read:
// whatever bytes a word holds (text captured from a log, a recorded
// machine's kernel release), the shell sees exactly that one word. Words of
// ordinary characters stay bare; others are single-quoted, a ' inside as
// '\''. A word with a control byte or any non-ASCII byte (C1 controls, bidi
// overrides) is written $'...' with \xNN, so nothing reaches the terminal
// raw; its ' and \ are \xNN too, so a shell without $'...' (dash) sees one
// quoted word of the wrong bytes, never a second command.
std::string shell_word(const std::string& a) {
  auto ordinary = [](unsigned char c) {
    return std::isalnum(c) || std::strchr("_@%+=:,./-", c) != nullptr;
  };
  if (!a.empty() && std::all_of(a.begin(), a.end(), [&](char c) { return c != 0 && ordinary(c); })) return a;
  auto raw = [](unsigned char u) { return u < 0x20 || u >= 0x7f; };
  bool control = std::any_of(a.begin(), a.end(), [&](char c) { return raw(static_cast<unsigned char>(c)); });
  std::string word = control ? "$'" : "'";
  for (char c : a) {
    auto u = static_cast<unsigned char>(c);
    if (control && (raw(u) || c == '\'' || c == '\\')) {
      static const char hex[] = "0123456789abcdef";
      word += {'\\', 'x', hex[u >> 4], hex[u & 15]};
    } else if (c == '\'') {
      word += "'\\''";
    } else {
      word += c;
    }
  }
  return word + "'";
}

std::string shell_words(const std::vector<std::string>& argv, bool sudo) {
  std::string out = sudo ? "sudo" : "";
  for (auto& a : argv) out += (out.empty() ? "" : " ") + shell_word(a);
  return out;
}

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0.
size_t utf8_length(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 0;
  return n;
}

}  // namespace

std::string printable(std::string_view text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t n = utf8_length(text, i);
    unsigned char c = static_cast<unsigned char>(text[i]);
    unsigned char c2 = n == 2 ? static_cast<unsigned char>(text[i + 1]) : 0;
    bool c0 = n == 1 && ((c < 0x20 && c != '\t' && !(keep_newlines && c == '\n')) || c == 0x7f);
    bool c1 = n == 2 && c == 0xc2 && c2 >= 0x80 && c2 <= 0x9f;  // U+0080..U+009F
    if (n == 0) out += "\xef\xbf\xbd", n = 1;
    else if (c0 || c1) out += '?';
    else out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

}  // namespace rocmdoc
