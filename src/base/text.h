// Small parsers for the text formats the kernel and distributions write.
// All of them accept garbage without throwing: a caller gets nullopt or an
// empty result and records the fact as unknown.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocmdoc {

std::string trim(std::string_view s);
// The same, as a view into s (no copy).
std::string_view trim_view(std::string_view s);
std::vector<std::string> split_lines(std::string_view s);
// The lines of a text as views, without copying it (split_lines' lines, one
// at a time): a trailing '\r' is dropped, so files edited on Windows read the
// same, and number() is the 1-based number of the line last given.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++number_;
    return true;
  }
  size_t number() const { return number_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  size_t number_ = 0;
};
// Splits on runs of whitespace.
std::vector<std::string> split_words(std::string_view s);
std::vector<std::string> split(std::string_view s, char sep);
bool starts_with(std::string_view s, std::string_view prefix);
bool ends_with(std::string_view s, std::string_view suffix);
// Every occurrence of `from` (not empty) replaced by `to`, left to right; a
// replacement is not searched again.
std::string replace_all(std::string s, std::string_view from, std::string_view to);
std::string to_lower(std::string_view s);

// Whole-string integer parses; nullopt on anything else (sign, junk, overflow).
std::optional<uint64_t> parse_uint(std::string_view s, int base = 10);
// "0x1002" or "1002" as hexadecimal.
std::optional<uint64_t> parse_hex(std::string_view s);
std::optional<int64_t> parse_int(std::string_view s);

// KEY=VALUE lines as in /etc/os-release: quotes and backslash escapes removed,
// comments and malformed lines skipped.
std::map<std::string, std::string> parse_env_file(std::string_view text);
// "key value" lines as in KFD topology properties files.
std::map<std::string, std::string> parse_key_value_lines(std::string_view text);

// True when the bytes are not text a kernel file would hold (NUL or mostly
// control bytes): a probe treats such a file as garbage, not as a value.
bool looks_binary(std::string_view s);

// Text from outside made safe to print on a terminal: every control
// character but tab (C0, DEL, and C1 such as U+009B, an 8-bit CSI) shown as
// '?', so no escape sequence in a log, a facts file or a recorded tree can
// retitle a window, clear the screen or hide text; invalid UTF-8 becomes
// U+FFFD. keep_newlines keeps '\n' for multi-line text.
std::string printable(std::string_view text, bool keep_newlines = false);

// A printable, bounded quotation of untrusted text for an "unknown, because"
// reason: control bytes escaped, cut at max_len.
std::string quote_for_reason(std::string_view s, size_t max_len = 60);

// A command as a person would type and paste it: one word as the shell must
// be given it to see exactly these bytes (bare, '...' or $'...'), and an
// argv of such words after "sudo". For display only; nothing runs it.
std::string shell_word(const std::string& word);
std::string shell_words(const std::vector<std::string>& argv, bool sudo);

}  // namespace rocmdoc
