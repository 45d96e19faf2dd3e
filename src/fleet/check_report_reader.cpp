#include "fleet/check_report_reader.h"

#include <fmt/format.h>

#include <cctype>

#include "base/fact.h"

namespace rocmdoc {

namespace {

struct SyntaxError {
  size_t offset;
  std::string what;
};

// A validating JSON scanner that materialises only what it is asked for:
// every value is checked (strings, escapes, numbers, nesting), and the
// values nobody asked for are stepped over without being built.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  [[noreturn]] void fail(const std::string& what) const { throw SyntaxError{pos_, what}; }

  void ws() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') break;
      ++pos_;
    }
  }
  char peek() {
    ws();
    if (pos_ >= text_.size()) fail("unexpected end of the file (cut short?)");
    return text_[pos_];
  }
  void expect(char c) {
    if (peek() != c) fail(fmt::format("expected '{}'", c));
    ++pos_;
  }
  bool at_end() {
    ws();
    return pos_ >= text_.size();
  }

  // A string's raw text between its quotes; `escaped` says whether it
  // holds a backslash (then decode() is needed).
  std::string_view raw_string(bool& escaped) {
    expect('"');
    size_t start = pos_;
    escaped = false;
    const char* p = text_.data();
    size_t n = text_.size();
    while (pos_ < n) {
      unsigned char c = static_cast<unsigned char>(p[pos_]);
      if (c == '"') return text_.substr(start, pos_++ - start);
      if (c == '\\') {
        escaped = true;
        if (++pos_ >= n) break;
        char e = p[pos_];
        if (e == 'u') {
          for (int i = 1; i <= 4; ++i)
            if (pos_ + i >= n || !std::isxdigit(static_cast<unsigned char>(p[pos_ + i]))) fail("bad \\u escape");
          pos_ += 4;
        } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
          fail("bad escape in a string");
        }
      } else if (c < 0x20) {
        fail("a control character inside a string");
      }
      ++pos_;
    }
    fail("a string that does not end (cut short?)");
  }
  std::string string() {
    size_t start = pos_;
    bool escaped = false;
    std::string_view raw = raw_string(escaped);
    if (!escaped) return std::string(raw);
    try {
      return Json::parse(text_.substr(start, pos_ - start)).get<std::string>();
    } catch (const std::exception&) {
      pos_ = start;
      fail("a string that is not valid UTF-8");
    }
  }

  void number() {
    if (text_[pos_] == '-') ++pos_;
    auto digits = [&] {
      size_t d = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      return pos_ > d;
    };
    if (!digits()) fail("a number without digits");
    if (pos_ < text_.size() && text_[pos_] == '.' && (++pos_, !digits())) fail("a number without digits after '.'");
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!digits()) fail("a number without digits in its exponent");
    }
  }

  // Steps over one value, checking it; the text it spanned.
  std::string_view skip(int depth = 0) {
    if (depth > 256) fail("nested over 256 deep");
    char c = peek();
    size_t start = pos_;
    if (c == '{') {
      members([&](std::string_view) { skip(depth + 1); });
    } else if (c == '[') {
      elements([&] { skip(depth + 1); });
    } else if (c == '"') {
      bool escaped;
      raw_string(escaped);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      number();
    } else {
      for (std::string_view word : {"true", "false", "null"})
        if (text_.substr(pos_, word.size()) == word) {
          pos_ += word.size();
          return text_.substr(start, pos_ - start);
        }
      fail("expected a value");
    }
    return text_.substr(start, pos_ - start);
  }
  // One value, built (for the small parts a summary keeps).
  Json value() {
    size_t start = pos_;
    std::string_view span = skip();
    try {
      return Json::parse(span);
    } catch (const std::exception&) {
      pos_ = start;
      fail("a value that is not valid UTF-8");
    }
  }

  // Calls f(key) for each member with the scanner at its value; f must
  // consume the value (skip() it when not wanted).
  template <typename F>
  void members(F&& f) {
    expect('{');
    if (peek() == '}') return (void)++pos_;
    while (true) {
      if (peek() != '"') fail("expected a member name");
      bool escaped;
      std::string_view key = raw_string(escaped);
      expect(':');
      f(key);
      char c = peek();
      ++pos_;
      if (c == '}') return;
      if (c != ',') fail("expected ',' or '}'");
    }
  }
  template <typename F>
  void elements(F&& f) {
    expect('[');
    if (peek() == ']') return (void)++pos_;
    while (true) {
      f();
      char c = peek();
      ++pos_;
      if (c == ']') return;
      if (c != ',') fail("expected ',' or ']'");
    }
  }
  bool next_is(char c) { return peek() == c; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

std::string string_or_empty(const Json& v) { return v.is_string() ? v.get<std::string>() : ""; }

// facts: host.hostname, source.collected_at, kernel.release, gpus[].
void read_facts(Scanner& s, CheckReportFields& out) {
  if (!s.next_is('{')) return (void)s.skip();
  s.members([&](std::string_view key) {
    if (key == "host" || key == "source" || key == "kernel") {
      if (!s.next_is('{')) return (void)s.skip();
      s.members([&](std::string_view k) {
        if (key == "host" && k == "hostname") out.hostname = string_or_empty(s.value());
        else if (key == "source" && k == "collected_at") out.collected_at = string_or_empty(s.value());
        else if (key == "kernel" && k == "release") out.kernel = string_or_empty(s.value());
        else s.skip();
      });
    } else if (key == "gpus") {
      if (!s.next_is('[')) return (void)s.skip();
      s.elements([&] {
        Json g = s.value();
        out.gpus.push_back({string_or_empty(field(g, "name")), string_or_empty(field(g, "gfx"))});
      });
    } else {
      s.skip();
    }
  });
}

}  // namespace

Result<CheckReportFields> read_check_report(std::string_view text) {
  using R = Result<CheckReportFields>;
  CheckReportFields out;
  bool has_schema = false, has_findings = false, has_facts = false;
  Json schema;
  try {
    Scanner s(text);
    if (!s.next_is('{')) s.fail("expected a JSON object");
    s.members([&](std::string_view key) {
      if (key == "schema") {
        has_schema = true;
        schema = s.value();
      } else if (key == "findings") {
        has_findings = true;
        if (!s.next_is('[')) s.fail("findings is not a list");
        s.elements([&] {
          ReportFinding f;
          if (!s.next_is('{')) s.fail("a finding that is not an object");
          s.members([&](std::string_view k) {
            if (k == "id") f.id = string_or_empty(s.value());
            else if (k == "severity") f.severity = string_or_empty(s.value());
            else if (k == "title") f.title = string_or_empty(s.value());
            else s.skip();
          });
          if (f.id.empty()) s.fail("a finding without an id");
          out.findings.push_back(std::move(f));
        });
      } else if (key == "target") {
        if (!s.next_is('{')) return (void)s.skip();
        s.members([&](std::string_view k) {
          if (k == "installed") out.rocm = string_or_empty(s.value());
          else s.skip();
        });
      } else if (key == "facts") {
        has_facts = true;
        read_facts(s, out);
      } else {
        s.skip();
      }
    });
    if (!s.at_end()) s.fail("more text after the report's closing '}'");
  } catch (const SyntaxError& e) {
    return R::fail(fmt::format("not JSON: byte {}: {}", e.offset, e.what));
  }
  if (!has_schema) return R::fail("no schema: not a `rocmdoc check --json` report");
  if (schema != 1) return R::fail("schema " + schema.dump() + " is not supported (rocmdoc reads check --json schema 1)");
  if (!has_findings || !has_facts) return R::fail("no findings or facts: not a `rocmdoc check --json` report");
  return R::ok(std::move(out));
}

}  // namespace rocmdoc
