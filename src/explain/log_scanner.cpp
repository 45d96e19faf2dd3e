#include "explain/log_scanner.h"
#include "rules/matrix.h"
#include "rules/pattern_options.h"
#include "rules/pattern_text.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>

#include <string.h>  // memrchr

namespace rocmdoc {

namespace {

constexpr size_t kSetRange = 64 * 1024;  // a block goes to RE2::Set in ranges of about this size
constexpr size_t kLeafRange = 4 * 1024;  // below this a matching range is read line by line
// Each of the two RE2::Sets (every pattern; messages only, past the words
// window) may use this for its program and DFA cache; a full cache is reset,
// not an error (a set, in many-match mode, does not give up when slow). First
// 12 MiB: on the 1 GiB log bench/explain-vs-rg.sh generates, with 284 signatures, the
// messages set's cache grows to 15 MiB at 16, and explain peaked at 34.2-34.4
// MiB, over its 32 MiB budget; at 12 it peaks at 29.8-29.9 MiB for 15 % more
// CPU time (user 2.2 s against 1.9 s) as the cache is reset; at 8, 27.9 MiB
// for 40 % more. The budget, not the catalogue's size, bounds the cache
// (bench/README.md). 11 MiB since stop 48: with 483 signatures the rules
// alone take 22.9 MiB, and at 12 the 1 GiB log of stop 46 peaked at
// 31.2-31.8 MiB (0.2-0.8 MiB under the budget); at 11, 29.9-30.4 MiB, user
// time 4.34-4.71 s against 4.31-4.59 s in three paired runs (no cost seen).
constexpr int64_t kSetMemory = 11 << 20;

RE2::Options pattern_options() {
  RE2::Options o = rule_pattern_options();
  o.set_max_mem(kSetMemory);
  return o;
}

// Multi-line mode: ^ and $ match at line breaks, so a block of lines and a
// single line agree on every pattern.
std::string multiline(const std::string& pattern) { return "(?m)" + pattern; }

// The pattern with each long bounded repeat ({0,n} or {1,n}, n >= kWideRepeat)
// made unbounded (* or +): it matches all the original matches and more.
// Why: a counted gap such as `gpu.{0,40}not detected` makes the set's DFA
// keep a state per distance since each `gpu`, and with the plain-words
// signatures the 1 GiB bench's DFA cache grew to 19 MiB (explain's budget is
// 32 MiB in all); an unbounded gap needs one state. The set only finds
// candidate lines; scan_line confirms a widened pattern's hit with the exact
// pattern. What is not an operator is copied as it is: escapes, quoted text
// (\Q...\E) and character classes, POSIX classes ([:digit:]) inside them too
// (literal_piece_end).
constexpr int kWideRepeat = 8;
std::string widen_repeats(const std::string& pattern) {
  std::string out;
  out.reserve(pattern.size());
  for (size_t i = 0; i < pattern.size();) {
    if (size_t end = literal_piece_end(pattern, i); end > i) {
      out.append(pattern, i, end - i);
      i = end;
      continue;
    }
    char c = pattern[i];
    if (c == '{') {
      size_t comma = pattern.find(',', i), close = pattern.find('}', i);
      bool digits = comma != std::string::npos && close != std::string::npos && comma > i + 1 && close > comma + 1;
      for (size_t j = i + 1; digits && j < close; ++j) digits = j == comma || (pattern[j] >= '0' && pattern[j] <= '9');
      if (digits && close - comma <= 4 && comma - i <= 2) {
        int low = std::stoi(pattern.substr(i + 1, comma - i - 1));
        int high = std::stoi(pattern.substr(comma + 1, close - comma - 1));
        if (low <= 1 && high >= kWideRepeat && high <= 1000) {  // past 1000 RE2 refuses the original: keep it
          out += low == 0 ? '*' : '+';
          i = close + 1;
          continue;
        }
      }
    }
    out += c;
    ++i;
  }
  return out;
}

bool is_break(char c) { return c == '\n' || c == '\r'; }

// LF bytes in text, eight at a time: a log is mostly bytes that are not LF,
// and this runs over every byte of it.
size_t count_lf(std::string_view text) {
  constexpr uint64_t kLf = 0x0a0a0a0a0a0a0a0aull, kLow7 = 0x7f7f7f7f7f7f7f7full;
  size_t n = 0, i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, text.data() + i, 8);
    uint64_t x = w ^ kLf;                             // LF bytes become zero
    uint64_t t = ~(((x & kLow7) + kLow7) | x | kLow7);  // high bit set exactly in zero bytes
    n += static_cast<size_t>(((t >> 7) * 0x0101010101010101ull) >> 56);  // sum of the 0/1 bytes, no popcnt needed
  }
  for (; i < text.size(); ++i) n += text[i] == '\n';
  return n;
}


bool contains(std::string_view text, char c) { return std::memchr(text.data(), c, text.size()) != nullptr; }

// The last line break in text (LF or CR), or npos.
size_t last_break(std::string_view text) {
  auto* lf = static_cast<const char*>(::memrchr(text.data(), '\n', text.size()));
  auto* cr = static_cast<const char*>(::memrchr(text.data(), '\r', text.size()));
  const char* last = std::max(lf, cr);
  return last ? static_cast<size_t>(last - text.data()) : std::string_view::npos;
}

// The end of the break that starts at i (past the LF of a CRLF).
size_t break_end(std::string_view text, size_t i) {
  return text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n' ? i + 2 : i + 1;
}

}  // namespace

struct LogScanner::Pattern {
  std::string id;
  bool origin = false;
  bool context = false;
  std::string text;  // the pattern, in multi-line mode
  // Compiled on the first line the set says it matches: a log hits a few
  // dozen of the signatures, and the other compiled programs were 2-3 MiB of
  // explain's 32 MiB budget. The set's Add has checked the syntax.
  std::unique_ptr<RE2> compiled;
  bool widened = false;  // the set holds a wider pattern: confirm a hit with re()
  bool words = false;    // plain words: read in the first kWordsWindow bytes only
  std::unique_ptr<RE2> after;   // the signature's `after`, or null
  std::unique_ptr<RE2> unless;  // the signature's `unless`, or null

  const RE2& re() {
    if (!compiled) compiled = std::make_unique<RE2>(text, pattern_options());
    return *compiled;
  }
};

std::string strip_ansi(std::string_view text) {
  if (text.find('\x1b') == std::string_view::npos) return std::string(text);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c != '\x1b' || i + 1 >= text.size()) {
      out += c;
      continue;
    }
    char kind = text[i + 1];
    size_t j = i + 2;
    if (kind == '[') {  // CSI: parameters and intermediates, then one final byte @..~
      while (j < text.size() && !is_break(text[j]) && (text[j] < '@' || text[j] > '~')) ++j;
      i = j < text.size() && !is_break(text[j]) ? j : j - 1;
    } else if (kind == ']') {  // OSC: up to BEL or ESC backslash
      while (j < text.size() && !is_break(text[j]) && text[j] != '\a' && text[j] != '\x1b') ++j;
      if (j < text.size() && text[j] == '\x1b' && j + 1 < text.size() && text[j + 1] == '\\') ++j;
      i = j < text.size() && !is_break(text[j]) ? j : j - 1;
    } else if (kind == '(' || kind == ')' || kind == '*' || kind == '+') {
      i += 2;  // character set designation: ESC ( B
    } else {
      i += 1;  // a two-byte escape (ESC =, ESC >, ESC 7): drop ESC and its letter
    }
  }
  return out;
}

LogScanner::LogScanner(const std::vector<Signature>& signatures, const std::vector<Origin>& origins) {
  RE2::Options options = pattern_options();
  set_ = std::make_unique<RE2::Set>(options, RE2::UNANCHORED);
  auto add = [&](const std::string& id, const std::string& pattern, bool origin, bool context, const std::string& after,
                 const std::string& unless, bool compiles) {
    auto p = std::make_unique<Pattern>();
    p->id = id;
    p->origin = origin;
    p->context = context;
    p->text = multiline(pattern);
    std::string wide = widen_repeats(pattern);
    p->widened = wide != pattern;
    // Both read one line, where multi-line mode changes nothing; written as
    // the pattern is so that a ^ or $ means the same in all three.
    if (!after.empty()) p->after = std::make_unique<RE2>(multiline(after), options);
    if (!unless.empty()) p->unless = std::make_unique<RE2>(multiline(unless), options);
    std::string why;
    p->words = !origin && id.rfind("words-", 0) == 0;
    set_patterns_.push_back(multiline(wide));
    if (set_->Add(set_patterns_.back(), &why) != static_cast<int>(patterns_.size())) why = why.empty() ? "not added" : why;
    // The widened pattern can be valid where the exact one is not (nested
    // repeats past RE2's 1000, `(a{0,40}){0,40}`), and the exact one is only
    // compiled on a hit: compile it once here, and drop it, to report its
    // error. Not when the loader knows it compiles (Signature::compiles):
    // the 86 widened patterns' exact forms were 40 % of a short explain's
    // instructions (callgrind, 270 M of 675 M).
    else if (RE2 exact(p->widened && !compiles ? p->text : "", options); !exact.ok()) why = exact.error();
    else if (p->after && !p->after->ok()) why = "after: " + p->after->error();
    else if (p->unless && !p->unless->ok()) why = "unless: " + p->unless->error();
    else if (!p->words) message_patterns_.push_back(patterns_.size());
    if (!why.empty() && error_.empty()) error_ = id + ": " + why;
    patterns_.push_back(std::move(p));
  };
  for (auto& s : signatures) add(s.id, s.pattern, false, s.context, s.after, s.unless, s.compiles);
  signature_count_ = signatures.size();
  for (auto& o : origins) add(o.id, o.pattern, true, false, "", "", false);
  if (error_.empty() && !set_->Compile()) error_ = "the signatures do not fit RE2's memory budget";
  any_words_ = message_patterns_.size() < patterns_.size();
}

LogScanner::~LogScanner() = default;

// A set of these patterns, compiled; null if RE2 refuses it. A set whose
// Compile failed must not be matched (RE2 counts it compiled and would use
// its missing program), so null tells the caller to match each pattern on
// its own: slower, still right.
std::unique_ptr<RE2::Set> LogScanner::compiled_set(const std::vector<size_t>& which) const {
  auto set = std::make_unique<RE2::Set>(pattern_options(), RE2::UNANCHORED);
  for (size_t k = 0; k < which.size(); ++k)
    if (set->Add(set_patterns_[which[k]], nullptr) != static_cast<int>(k)) return nullptr;
  if (!set->Compile()) return nullptr;
  return set;
}

// The set of every pattern, compiled again if an earlier input dropped it:
// the same patterns in the same order with the same options as the set the
// constructor compiled, so it is not expected to fail.
const RE2::Set* LogScanner::words_set() {
  if (!set_ && !words_failed_) {
    std::vector<size_t> all(set_patterns_.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    set_ = compiled_set(all);
    words_failed_ = !set_;
  }
  return set_.get();
}

// The set without plain words, compiled on first use: a subset of the
// patterns the constructor's set compiled, so it needs less memory than
// that set did and is not expected to fail either.
const RE2::Set* LogScanner::messages_set() {
  if (!messages_ && !messages_failed_) {
    messages_ = compiled_set(message_patterns_);
    messages_failed_ = !messages_;
  }
  return messages_.get();
}

// A new input: its first line has no line before (not the last one of the
// previous file).
void LogScanner::set_source(std::string name) {
  // The previous input's last line, when it has no line break, ends with it:
  // it is not the start of this input's first line.
  finish();
  source_ = std::move(name);
  previous_line_.clear();
  source_bytes_ = 0;
}

void LogScanner::feed(std::string_view bytes) {
  if (!error_.empty()) return;  // a set that did not compile cannot match (and RE2 would crash)
  result_.bytes += bytes.size();
  // Feed big inputs a block at a time so pending_ never holds more than one
  // block plus an unfinished line.
  // 256 KiB: each block is copied when it is cleaned (escapes, typography); at
  // 1 MiB these copies and pending_ were 5 MiB of explain's 32 MiB budget.
  constexpr size_t kBlock = 256 << 10;
  while (!bytes.empty()) {
    size_t take = std::min(bytes.size(), kBlock);
    pending_.append(bytes.data(), take);
    bytes.remove_prefix(take);
    drain(false);
  }
}

void LogScanner::finish() {
  if (!error_.empty()) return;
  drain(true);
  if (!pending_.empty()) {
    std::string last = clean_line(pending_);
    keep_head(last, true);
    scan_line(last, result_.lines + 1);
    pending_.clear();
    split_line_ = true;
  }
  if (split_line_) ++result_.lines;
  split_line_ = false;
}

void LogScanner::drain(bool at_end) {
  std::string_view text = pending_;
  // A CR as the very last byte may be the first half of a CRLF: wait for more.
  size_t limit = !at_end && !text.empty() && text.back() == '\r' ? text.size() - 1 : text.size();
  size_t last = last_break(std::string_view(text.data(), limit));
  size_t done = 0;
  if (last != std::string_view::npos) {
    done = break_end(text, last);
    scan_block(text.substr(0, done));
    split_line_ = false;
  }
  // What is left is one unfinished line; past kMaxLine it is matched in pieces.
  while (limit - done >= kMaxLine) {
    std::string piece = clean_line(text.substr(done, kMaxLine));
    keep_head(piece, false);
    scan_line(piece, result_.lines + 1);
    source_bytes_ += kMaxLine;
    // A piece of a line is not a line: what follows has no line before.
    previous_line_.clear();
    done += kMaxLine;
    split_line_ = true;
  }
  pending_.erase(0, done);
}

namespace {

struct Replacement {
  std::string_view from, to;
};

// HTML escapes a web page or a scraper leaves in a paste. Not &#10; or
// &#13;: a line break added here would shift every line number after it.
constexpr Replacement kEntities[] = {{"&quot;", "\""}, {"&#34;", "\""}, {"&apos;", "'"}, {"&#39;", "'"},  {"&#x27;", "'"},
                                     {"&lt;", "<"},    {"&#60;", "<"},  {"&gt;", ">"},   {"&#62;", ">"},  {"&amp;", "&"},
                                     {"&#38;", "&"},   {"&nbsp;", " "}, {"&#160;", " "}, {"&#039;", "'"},
                                     {"&#x22;", "\""}, {"&#x2F;", "/"}, {"&#x2f;", "/"}, {"&#47;", "/"},
                                     {"&#43;", "+"},   {"&#x2B;", "+"}, {"&#x3C;", "<"}, {"&#x3E;", ">"}};

// The UTF-8 typography a forum, a word processor or a chat turns a
// program's ASCII into: curly quotes and primes, the no-break space; the
// zero-width space and the byte-order mark vanish.
constexpr Replacement kTypography[] = {
    {"\xE2\x80\x98", "'"},  {"\xE2\x80\x99", "'"}, {"\xE2\x80\x9A", "'"}, {"\xE2\x80\x9B", "'"},
    {"\xE2\x80\xB2", "'"},  {"\xE2\x80\x9C", "\""}, {"\xE2\x80\x9D", "\""}, {"\xE2\x80\x9E", "\""},
    {"\xE2\x80\xB3", "\""}, {"\xC2\xA0", " "},      {"\xE2\x80\x8B", ""},   {"\xEF\xBB\xBF", ""}};

// A captured gfx target in the form the matrix and the machine's facts use:
// people write "GFX 1102", "gfx-1030" or "GFX1100" where the runtime prints
// "gfx1102", and a target that compared unequal to the GPU's would name a
// second GPU that is not there.
std::string captured_value(const std::string& name, std::string_view g) {
  std::string v(g);
  if (name != "gfx") return v;
  std::string out;
  for (char c : v)
    if (c != ' ' && c != '-' && c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Two captures of a context value name the same thing: the same text, or
// for a GPU's name the same card however it is written ("radeon rx570" in
// the user's words, "Radeon RX 570" in torch's device name): the matrix's
// own key of a product name, which the name is looked up by.
bool same_value(const std::string& name, std::string_view a, std::string_view b) {
  return a == b || (name == "gpu_name" && product_key(a) == product_key(b));
}

// The replacement that starts at text[i], if any: an escape starts with '&',
// typography with one of three UTF-8 lead bytes.
const Replacement* replacement_at(std::string_view text, size_t i) {
  char c = text[i];
  if (c == '&') {
    for (auto& r : kEntities)
      if (text.compare(i, r.from.size(), r.from) == 0) return &r;
  } else if (c == '\xE2' || c == '\xC2' || c == '\xEF') {
    for (auto& r : kTypography)
      if (text.compare(i, r.from.size(), r.from) == 0) return &r;
  }
  return nullptr;
}

}  // namespace

bool has_typography(std::string_view text) {
  // memchr for each first byte: most blocks of a log have none of them.
  for (char first : {'&', '\xE2', '\xC2', '\xEF'})
    for (size_t i = text.find(first); i != std::string_view::npos; i = text.find(first, i + 1))
      if (replacement_at(text, i)) return true;
  return false;
}

std::string plain_typography(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (const Replacement* r = replacement_at(text, i)) {
      out += r->to;
      i += r->from.size();
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::string clean_line(std::string_view text) {
  std::string clean = strip_ansi(text);
  return has_typography(clean) ? plain_typography(clean) : clean;
}

// A block with line breaks as LF only, no escape sequences and no typography:
// then ^ and $ work the same in the block as in its lines, ranges split at
// LF, and a curly quote matches as the program's own quote.
// Line breaks first, on the raw bytes, as drain() cut them: removing an escape
// or a zero-width space must not join a CR and an LF into one break.
static std::string normalize_block(std::string_view block) {
  std::string breaks(block);
  size_t w = 0;
  for (size_t i = 0; i < breaks.size(); ++i) {
    if (breaks[i] == '\r') {
      if (i + 1 < breaks.size() && breaks[i + 1] == '\n') continue;  // CRLF: keep the LF
      breaks[w++] = '\n';
    } else {
      breaks[w++] = breaks[i];
    }
  }
  breaks.resize(w);
  return clean_line(breaks);
}

void LogScanner::scan_block(std::string_view block) {
  std::string clean;
  if (contains(block, '\r') || contains(block, '\x1b') || has_typography(block)) {
    clean = normalize_block(block);
    block = clean;
  }
  block_ = block;
  keep_head(block, false);
  // Ranges of about kSetRange: a match costs a few passes over its range only.
  // A range also ends with the line that starts the last byte of the words
  // window, so whether a line is read for plain words depends on where it
  // starts in its input, not on how the input was fed.
  while (!block.empty()) {
    size_t cut = block.size();
    size_t edge = any_words_ && in_words_window() ? kWordsWindow - source_bytes_ : SIZE_MAX;
    size_t want = std::min(kSetRange, edge - 1);
    if (cut > want + 1) {
      size_t lf = block.find('\n', want);
      if (lf != std::string_view::npos) cut = lf + 1;
    }
    std::string_view range = block.substr(0, cut);
    size_t first = result_.lines + 1;
    result_.lines += count_lf(range);
    scan_range(range, first);
    source_bytes_ += range.size();
    // Only when there is another set to go on with: without plain words
    // the first set is the only one, and dropping it would compile it again
    // for every range.
    if (any_words_ && source_bytes_ >= kDropWordsSetAfter) set_.reset();  // see log_scanner.h
    block.remove_prefix(cut);
  }
  // The block's last line (it ends with LF) is the line before the next one.
  // Unless it is the tail of a line cut into pieces, which is no line.
  std::string_view last = block_.substr(0, block_.empty() ? 0 : block_.size() - 1);
  size_t lf = last.rfind('\n');
  if (lf == std::string_view::npos && split_line_) previous_line_.clear();
  else previous_line_ = std::string(lf == std::string_view::npos ? last : last.substr(lf + 1));
  block_ = {};
}

void LogScanner::keep_head(std::string_view clean, bool line_end) {
  std::string& head = result_.head;
  if (head.size() >= kWordsWindow) return;
  head.append(clean.substr(0, kWordsWindow - head.size()));
  if (line_end && head.size() < kWordsWindow) head += '\n';
}

// The line before `line`: in the block being scanned when `line` is in it
// past its start, else the last line scanned before.
std::string_view LogScanner::line_before(std::string_view line) const {
  const char* base = block_.data();
  if (base && line.data() > base && line.data() <= base + block_.size()) {
    size_t end = static_cast<size_t>(line.data() - base) - 1;  // the LF that ends it
    size_t lf = end == 0 ? std::string_view::npos : block_.rfind('\n', end - 1);
    size_t start = lf == std::string_view::npos ? 0 : lf + 1;
    // The block's first line is the tail of a line cut into pieces (drain
    // keeps split_line_ set while it scans that block): not a line.
    if (start == 0 && split_line_) return {};
    return block_.substr(start, end - start);
  }
  return previous_line_;
}

// Halves a matching range until its pieces are small, so one matching line in
// a megabyte block costs a few DFA passes, not a per-line pass over all of it.
// The range holds whole lines, each ended by LF.
void LogScanner::scan_range(std::string_view range, size_t first_line) {
  if (range.empty()) return;
  RE2::Set::ErrorInfo info{};
  // Only whether anything matches: without a vector RE2 stops at the first match.
  const RE2::Set* set = in_words_window() ? words_set() : messages_set();
  bool any = set && set->Match(range, nullptr, &info);
  bool set_failed = !set || (!any && info.kind != RE2::Set::kNoError);
  if (!any && !set_failed) return;
  if (range.size() > kLeafRange && !set_failed) {
    size_t mid = range.find('\n', range.size() / 2);
    if (mid + 1 >= range.size()) mid = range.substr(0, range.size() / 2).rfind('\n');
    if (mid != std::string_view::npos) {
      std::string_view left = range.substr(0, mid + 1);
      scan_range(left, first_line);
      scan_range(range.substr(mid + 1), first_line + count_lf(left));
      return;
    }
  }
  size_t number = first_line;
  for (size_t start = 0; start < range.size();) {
    size_t end = range.find('\n', start);
    if (end == std::string_view::npos) end = range.size();
    scan_line(range.substr(start, end - start), number++);
    start = end + 1;
  }
}

void LogScanner::scan_line(std::string_view line, size_t number) {
  if (line.empty()) return;
  std::vector<int> hits;
  RE2::Set::ErrorInfo info{};
  bool words = in_words_window();
  const RE2::Set* set = words ? words_set() : messages_set();
  if (!set || (!set->Match(line, &hits, &info) && info.kind != RE2::Set::kNoError)) {
    // The set did not compile again, or its DFA failed. RE2 resets a full
    // cache instead, so neither is expected once the constructor's set
    // compiled; were it to happen, each pattern on its own still gives the
    // right answer, slowly.
    hits.clear();
    for (size_t i = 0; i < patterns_.size(); ++i)
      if ((words || !patterns_[i]->words) && RE2::PartialMatch(line, patterns_[i]->re())) hits.push_back(static_cast<int>(i));
  } else if (!words) {
    for (int& h : hits) h = static_cast<int>(message_patterns_[static_cast<size_t>(h)]);
  }
  for (int index : hits) {
    Pattern& p = *patterns_[static_cast<size_t>(index)];
    if (p.widened && !RE2::PartialMatch(line, p.re())) continue;
    record(static_cast<size_t>(index), line, number);
  }
}

void LogScanner::record(size_t index, std::string_view line, size_t number) {
  Pattern& p = *patterns_[index];
  if (p.origin) {
    if (std::find(result_.origins.begin(), result_.origins.end(), p.id) == result_.origins.end())
      result_.origins.push_back(p.id);
    return;
  }
  if (p.unless && RE2::PartialMatch(line, *p.unless)) return;  // the line denies it
  std::string_view before;
  if (p.after) {
    before = line_before(line);
    if (number < 2 || !RE2::PartialMatch(before, *p.after)) return;
  }
  SignatureHits& hits = result_.hits[p.id];
  hits.context = p.context;
  size_t lines = p.after ? 2 : 1;  // a two-line message is both lines
  hits.count += lines;
  // Its lines as evidence, both or neither once the room is gone.
  if (hits.evidence.size() + lines <= kMaxEvidence) {
    if (p.after) hits.evidence.push_back({number - 1, source_, std::string(before.substr(0, kMaxEvidenceText))});
    hits.evidence.push_back({number, source_, std::string(line.substr(0, kMaxEvidenceText))});
  }
  // A context signature keeps matching to see whether its lines agree; the
  // others stop capturing once every group has its first value.
  const std::map<std::string, int>& named = p.re().NamedCapturingGroups();
  if (named.empty() || (hits.captures.size() == named.size() && !p.context)) return;
  int n = p.re().NumberOfCapturingGroups();
  std::vector<re2::StringPiece> groups(static_cast<size_t>(n) + 1);
  if (!p.re().Match(line, 0, line.size(), RE2::UNANCHORED, groups.data(), n + 1)) return;
  for (auto& [name, i] : named) {
    const re2::StringPiece& g = groups[static_cast<size_t>(i)];
    if (!g.data() || g.empty()) continue;
    std::string value = captured_value(name, std::string_view(g.data(), g.size()));
    auto it = hits.captures.find(name);
    if (it == hits.captures.end()) hits.captures[name] = std::move(value);
    else if (p.context && !same_value(name, it->second, value)) hits.ambiguous.insert(name);
  }
}

std::vector<std::string> run_signature_examples(const std::vector<Signature>& signatures, size_t* examples_run) {
  std::vector<std::string> failures;
  size_t n = 0;
  for (auto& s : signatures)
    for (auto& ex : s.examples) {
      ++n;
      LogScanner scanner({s}, {});
      scanner.feed(ex.line);
      scanner.finish();
      auto& hits = scanner.result().hits;
      auto it = hits.find(s.id);
      bool matched = it != hits.end();
      std::string where = ex.where.str() + ": signature '" + s.id + "': ";
      if (matched != ex.match) {
        failures.push_back(where + (ex.match ? "does not match " : "matches ") + "'" + ex.line + "'");
        continue;
      }
      for (auto& [name, want] : ex.captures) {
        std::string got = matched && it->second.captures.count(name) ? it->second.captures.at(name) : "<nothing>";
        if (got != want) failures.push_back(where + "captures " + name + " = '" + got + "', expected '" + want + "'");
      }
    }
  if (examples_run) *examples_run = n;
  return failures;
}

}  // namespace rocmdoc
