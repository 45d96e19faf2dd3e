#include "output/terminal_wrap.h"

#include <vector>

#include "base/columns.h"

namespace rocmdoc {

namespace {

bool is_escape_at(std::string_view s, size_t at) { return s[at] == '\033' && at + 1 < s.size() && s[at + 1] == '['; }

size_t skip_escape(std::string_view s, size_t at) {
  size_t i = at + 2;
  while (i < s.size() && !(s[i] >= 0x40 && s[i] <= 0x7e)) ++i;
  return i < s.size() ? i + 1 : s.size();
}

// The text without its escape sequences, to compare a word with a mark.
std::string plain(std::string_view s) {
  std::string out;
  for (size_t at = 0; at < s.size();) {
    if (is_escape_at(s, at)) {
      at = skip_escape(s, at);
      continue;
    }
    out += s[at++];
  }
  return out;
}

// A word and the spaces before it.
struct Word {
  std::string gap;
  std::string text;
};

std::vector<Word> words_of(std::string_view s) {
  std::vector<Word> out;
  size_t at = 0;
  while (at < s.size()) {
    Word w;
    while (at < s.size() && s[at] == ' ') w.gap += s[at++];
    while (at < s.size() && s[at] != ' ') w.text += s[at++];
    if (w.text.empty()) break;  // trailing spaces: dropped with the break
    out.push_back(std::move(w));
  }
  return out;
}

bool is_mark(const std::string& w) {
  static const char* const kMarks[] = {"[✓]", "[!]", "[✗]", "[?]", "[–]", "✓", "✗", "!", "•", "?", "–", "-", "|", "*"};
  for (const char* m : kMarks)
    if (w == m) return true;
  return false;
}

// "why:", "fix:", "to confirm:": a short label whose text the continuation
// lines line up with.
bool is_label(const std::string& w) {
  if (w.size() < 2 || w.back() != ':' || columns(w) > 12) return false;
  for (size_t i = 0; i + 1 < w.size(); ++i)
    if (!((w[i] >= 'a' && w[i] <= 'z') || (w[i] >= 'A' && w[i] <= 'Z'))) return false;
  return true;
}

bool starts_command(std::string w) {
  if (!w.empty() && w.front() == '(') w.erase(0, 1);
  for (const char* c : {"sudo", "rocmdoc", "python3", "pip", "pip3", "export"})
    if (w == c) return true;
  return false;
}

bool ends_command(const std::string& w) {
  char last = w.empty() ? ' ' : w.back();
  return last == ';' || last == ',' || last == ':' || last == ')' || last == '.';
}

// Words joined into the pieces that are never broken: `quoted` spans and
// commands in the text.
std::vector<Word> unbreakable_pieces(std::vector<Word> words) {
  std::vector<Word> out;
  for (size_t i = 0; i < words.size(); ++i) {
    Word piece = words[i];
    std::string p = plain(piece.text);
    size_t ticks = 0;
    for (char c : p) ticks += c == '`';
    if (ticks % 2 == 1) {
      // An open `span`: on to the word that closes it.
      for (size_t j = i + 1; j < words.size(); ++j) {
        piece.text += words[j].gap + words[j].text;
        i = j;
        size_t more = 0;
        for (char c : plain(words[j].text)) more += c == '`';
        if (more % 2 == 1) break;
      }
    } else if (starts_command(p) && !ends_command(p)) {
      while (i + 1 < words.size()) {
        std::string next = plain(words[i + 1].text);
        if (!next.empty() && next.front() == '(') break;
        piece.text += words[i + 1].gap + words[i + 1].text;
        ++i;
        if (ends_command(next)) break;
      }
    }
    out.push_back(std::move(piece));
  }
  return out;
}

void wrap_line(std::string_view line, size_t width, std::string& out) {
  if (columns(line) <= width) {
    out.append(line);
    return;
  }
  // The indent, with any escape sequence among its spaces (a dim line).
  size_t body = 0;
  while (body < line.size() && (line[body] == ' ' || is_escape_at(line, body)))
    body = line[body] == ' ' ? body + 1 : skip_escape(line, body);
  std::string prefix(line.substr(0, body));
  std::vector<Word> words = words_of(line.substr(body));
  if (words.empty()) {
    out.append(line);
    return;
  }
  size_t hang = columns(prefix), first = 0;
  if (is_mark(plain(words[0].text))) hang += columns(words[0].text) + 1, first = 1;
  if (first < words.size() && is_label(plain(words[first].text))) {
    hang += columns(words[first].text) + 1;
    ++first;
  } else if (first + 1 < words.size() && !is_label(plain(words[first].text)) &&
             is_label(plain(words[first].text + words[first + 1].text)) &&
             columns(words[first].text) + columns(words[first + 1].text) <= 12) {
    hang += columns(words[first].text) + columns(words[first + 1].text) + 2;  // "to confirm:"
    first += 2;
  }
  // A command to paste stays whole.
  if (first < words.size() && plain(words[first].text) == "$") {
    out.append(line);
    return;
  }
  // A line laid out in columns (install's " 3/9 • key      Title", fix's
  // list) continues under its last column that starts in the first half.
  for (size_t i = 1, at = columns(prefix) + columns(words[0].text); i < words.size(); ++i) {
    at += words[i].gap.size();
    if (at > width / 2) break;
    if (words[i].gap.size() >= 2) hang = at;
    at += columns(words[i].text);
  }
  // On a narrow terminal the text would be a column down the right edge.
  if (hang + 20 > width) hang = columns(prefix) + 2;
  std::vector<Word> pieces = unbreakable_pieces(std::move(words));
  std::string current = prefix + pieces[0].text;
  size_t used = columns(current);
  for (size_t i = 1; i < pieces.size(); ++i) {
    size_t w = columns(pieces[i].text);
    if (used + pieces[i].gap.size() + w <= width) {
      current += pieces[i].gap + pieces[i].text;
      used += pieces[i].gap.size() + w;
      continue;
    }
    out += current + "\n";
    current = std::string(hang, ' ') + pieces[i].text;
    used = hang + w;
  }
  out += current;
}

}  // namespace

std::string wrap_to_width(std::string_view text, size_t width) {
  if (width == 0) return std::string(text);
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    bool newline = end != std::string_view::npos;
    if (!newline) end = text.size();
    wrap_line(text.substr(at, end - at), width, out);
    if (newline) out += '\n';
    at = end + 1;
  }
  return out;
}

}  // namespace rocmdoc
