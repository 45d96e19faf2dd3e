// One streaming pass over a text of any size, all signatures at once.
//
// Bytes are fed in pieces of any size; lines end at LF, CRLF or a lone CR
// (progress bars). ANSI escape sequences are removed and a paste's
// typography is made plain (curly quotes, &#39; ...: plain_typography) before
// matching, and bytes are matched as Latin-1, so invalid UTF-8 and NUL bytes
// are just bytes. A line longer than kMaxLine is matched in kMaxLine pieces. Memory
// stays bounded: the unfinished line (at most kMaxLine) plus the piece being
// fed, and a few evidence lines per signature.
//
// Speed: most lines of a big log match nothing, so a whole block of lines
// goes through RE2::Set first (one DFA pass) and only blocks that match are
// split down to their lines. Patterns are compiled in multi-line mode so ^
// and $ mean the same in a block as in a line.
//
// Plain words (signatures whose id starts with "words-": what a user types,
// "my GPU is not detected") are read in the first kWordsWindow bytes of each
// input only: a description comes with or before a log, not deep inside
// one, and their open gaps ("gpu ... not detected") are what makes the set's
// DFA cache grow on error-dense text (about 3.5 MiB of the 1 GiB bench).
#pragma once

#include <re2/set.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rules/signature.h"

namespace rocmdoc {

struct EvidenceLine {
  size_t line = 0;     // 1-based, counted over everything fed
  std::string source;  // the file it came from, empty for text and stdin
  std::string text;    // cleaned, cut to kMaxEvidenceText
};

struct SignatureHits {
  size_t count = 0;  // matching lines (a two-line match of a signature with `after` counts both)
  std::vector<EvidenceLine> evidence;  // the first kMaxEvidence matches
  std::map<std::string, std::string> captures;  // first value of each named group
  bool context = false;  // a context signature (signature.h): its captures only fill gaps
  // Context captures whose lines named different values ("Device 0: ...,
  // gfx1201" and "Device 1: ..., gfx1036"): the text is about several, so
  // none of them is the one.
  std::set<std::string> ambiguous;
};

struct ScanResult {
  std::map<std::string, SignatureHits> hits;  // by signature id, only those that matched
  std::vector<std::string> origins;           // ids of the origins seen, in order of first sight
  size_t lines = 0;
  size_t bytes = 0;
  // The first kWordsWindow bytes of the text as matched (all inputs, in
  // order): what explain compares with the problems' words when no message
  // matched (problem_words.h).
  std::string head;
};

// Removes ANSI escape sequences (CSI "ESC [ ... final", OSC "ESC ] ... BEL|ST")
// and returns the rest; text without ESC is returned unchanged.
std::string strip_ansi(std::string_view text);

// Typography a paste picks up on its way through a web page, a forum or a
// word processor (curly quotes, no-break spaces, &quot; &#39; &lt; ...):
// whether the text has any, and the text with each replaced by the ASCII the
// program printed. Line breaks are never added or removed.
bool has_typography(std::string_view text);
std::string plain_typography(std::string_view text);

// strip_ansi, then plain_typography: what a line is matched as.
std::string clean_line(std::string_view text);

class LogScanner {
 public:
  static constexpr size_t kMaxLine = 64 * 1024;
  static constexpr size_t kMaxEvidence = 3;
  static constexpr size_t kMaxEvidenceText = 400;
  static constexpr size_t kWordsWindow = 256 * 1024;

  LogScanner(const std::vector<Signature>& signatures, const std::vector<Origin>& origins);
  ~LogScanner();
  LogScanner(const LogScanner&) = delete;
  LogScanner& operator=(const LogScanner&) = delete;

  // Empty when every pattern compiled; otherwise what failed.
  const std::string& error() const { return error_; }

  // The file name evidence lines are attributed to from now on.
  void set_source(std::string name);
  void feed(std::string_view bytes);
  // Ends the input (also the current line if it has no line break).
  void finish();
  const ScanResult& result() const { return result_; }
  // The result, moved out: for a caller that frees the scanner next.
  ScanResult take_result() { return std::move(result_); }

 private:
  struct Pattern;
  void drain(bool at_end);
  void scan_block(std::string_view block);
  void scan_range(std::string_view range, size_t first_line);
  void scan_line(std::string_view line, size_t number);
  void record(size_t index, std::string_view line, size_t number);
  void keep_head(std::string_view clean, bool line_end);
  std::string_view line_before(std::string_view line) const;
  const RE2::Set* words_set();
  const RE2::Set* messages_set();
  std::unique_ptr<RE2::Set> compiled_set(const std::vector<size_t>& which) const;

  std::vector<std::unique_ptr<Pattern>> patterns_;  // signatures, then origins
  size_t signature_count_ = 0;
  // Every pattern, for the first kWordsWindow bytes of an input; then the
  // set without plain words, whose entry i is pattern message_patterns_[i]
  // (null until an input first passes kWordsWindow, and never built when no
  // pattern is plain words: then the first set reads everything).
  // The first set is dropped once an input is kDropWordsSetAfter long and
  // compiled again from set_patterns_ when the next input needs it
  // (words_set): on a long log its program and DFA cache are no longer
  // needed. Measured on the 1 GiB bench log with 383 signatures: peak 31.6
  // MiB with it kept, 29.8 MiB dropped (explain's budget is 32), the same
  // output. Not at the end of the window itself: compiling it again costs
  // about 65 ms, which twenty 300 KiB inputs paid twenty times (1.6 s
  // against 0.3 s for the same bytes in one input).
  static constexpr size_t kDropWordsSetAfter = 8 * 1024 * 1024;
  std::unique_ptr<RE2::Set> set_;
  std::vector<std::string> set_patterns_;
  // Compiled when an input first goes past the words window (messages_set):
  // most texts explain reads are a paste of a few KiB, and compiling it at
  // the start was a fifth of a short explain's instructions.
  std::unique_ptr<RE2::Set> messages_;
  std::vector<size_t> message_patterns_;
  bool any_words_ = false;   // some pattern is plain words: the two sets differ
  bool words_failed_ = false;     // set_ did not compile again (words_set)
  bool messages_failed_ = false;  // messages_ did not compile (messages_set)
  size_t source_bytes_ = 0;  // of the current input, scanned so far
  bool in_words_window() const { return !any_words_ || source_bytes_ < kWordsWindow; }
  std::string error_;
  std::string pending_;  // bytes not scanned yet: at most one unfinished line plus a fed piece
  std::string source_;
  bool split_line_ = false;  // the last piece scanned was a cut of a long line: do not count it again
  // For signatures with `after`: the (clean) block being scanned, whose lines
  // find their previous line in it, and the last line scanned before it.
  std::string_view block_;
  std::string previous_line_;
  ScanResult result_;
};

// Runs every signature's examples: each `match` line must match (with its
// captures), each `no_match` line must not. Returns "file:line:col: ..." per failure.
std::vector<std::string> run_signature_examples(const std::vector<Signature>& signatures, size_t* examples_run);

}  // namespace rocmdoc
