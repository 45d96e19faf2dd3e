#include "explain/log_scanner.h"

#include "catch.h"

using namespace rocmdoc;

namespace {

std::vector<Signature> signatures() {
  return {{"no-binary", "hipErrorNoBinaryForGpu", {}, {}},
          {"fault", "Memory access fault by GPU node-(?P<node>\\d+)", {}, {}},
          {"target", "^agent (?P<gfx>gfx[0-9a-f]+)$", {}, {}},
          {"tail", "END-OF-LONG-LINE", {}, {}}};
}

ScanResult scan(std::string_view text, size_t piece = SIZE_MAX) {
  LogScanner s(signatures(), {{"pytorch", "PyTorch", "https://x", "import torch", {}}});
  REQUIRE(s.error().empty());
  for (size_t i = 0; i < text.size(); i += piece) s.feed(text.substr(i, std::min(piece, text.size() - i)));
  s.finish();
  return s.result();
}

// The lines, each fed on its own, through a scanner of these signatures.
ScanResult scan_lines(const std::vector<Signature>& sigs, const std::vector<std::string>& lines) {
  LogScanner s(sigs, {});
  REQUIRE(s.error().empty());
  for (auto& l : lines) s.feed(l + "\n");
  s.finish();
  return s.result();
}

// The hits of one context signature of `pattern` over the text.
SignatureHits context_hits(const std::string& pattern, std::string_view text) {
  Signature sig{"context", pattern, {}, {}};
  sig.context = true;
  LogScanner s({sig}, {});
  REQUIRE(s.error().empty());
  s.feed(text);
  s.finish();
  return s.result().hits.at("context");
}

size_t first_line(const ScanResult& r, const std::string& id) {
  auto it = r.hits.find(id);
  REQUIRE(it != r.hits.end());
  return it->second.evidence.at(0).line;
}

}  // namespace

TEST_CASE("lines end at LF, CRLF and a lone CR, and are numbered from 1", "[scanner]") {
  auto r = scan("a\r\nb\rhipErrorNoBinaryForGpu\nc\n");
  CHECK(first_line(r, "no-binary") == 3);
  CHECK(r.lines == 4);
  CHECK(scan("one line without a break").lines == 1);
  CHECK(scan("").lines == 0);
}

TEST_CASE("ANSI colour codes are removed before matching", "[scanner]") {
  auto r = scan("noise\n\x1b[1;31magent gfx1031\x1b[0m\n");
  CHECK(first_line(r, "target") == 2);
  CHECK(r.hits.at("target").captures.at("gfx") == "gfx1031");
  CHECK(r.hits.at("target").evidence[0].text == "agent gfx1031");
  CHECK(strip_ansi("\x1b]0;title\x07text\x1b(B") == "text");
  CHECK(strip_ansi("cut\x1b[") == "cut");
}

TEST_CASE("a paste's typography matches as the program's ASCII, on the same line numbers", "[scanner]") {
  // A forum's curly quotes and no-break space, a web page's HTML escapes.
  CHECK(plain_typography("No module named \xE2\x80\x98torch\xE2\x80\x99") == "No module named 'torch'");
  CHECK(plain_typography("say \xE2\x80\x9Chi\xE2\x80\x9D\xC2\xA0now") == "say \"hi\" now");
  CHECK(plain_typography("&lt;gfx&gt; &quot;x&quot; &#39;y&#x27; a &amp;&amp; b") == "<gfx> \"x\" 'y' a && b");
  CHECK(plain_typography("\xEF\xBB\xBFzero\xE2\x80\x8Bwidth") == "zerowidth");
  // Not an escape, or not one it knows: left as it is; never a line break.
  CHECK_FALSE(has_typography("a && b; x &copy; \xE2\x80\x94 dash"));
  CHECK(plain_typography("keep &#10; as text") == "keep &#10; as text");

  auto r = scan("first\nagent&nbsp;gfx1031\n\xE2\x80\x9Cthird\xE2\x80\x9D\nagent gfx1100");
  CHECK(r.lines == 4);
  // Block path (line 2) and the unfinished last line (line 4).
  auto& target = r.hits.at("target");
  CHECK(target.evidence.at(0).line == 2);
  CHECK(target.evidence.at(0).text == "agent gfx1031");
  CHECK(target.evidence.at(1).line == 4);
  auto single = scan("agent&#32;gfx1031");  // &#32; is not one of them
  CHECK(single.hits.count("target") == 0);
  CHECK(scan("agent\xC2\xA0gfx1032").hits.at("target").captures.at("gfx") == "gfx1032");
}

TEST_CASE("a signature with `after` matches a line only after its line before", "[scanner]") {
  Signature repl{"repl-false", "^False$", {}, {}};
  repl.after = "^>>> ok\\(\\)$";
  auto run = [&](std::string_view text, size_t piece) {
    LogScanner s({repl}, {});
    REQUIRE(s.error().empty());
    for (size_t i = 0; i < text.size(); i += piece) s.feed(text.substr(i, std::min(piece, text.size() - i)));
    s.finish();
    return s.result();
  };
  std::string text = ">>> ok()\nTrue\n>>> other()\nFalse\n";
  for (int i = 0; i < 3000; ++i) text += "noise " + std::to_string(i) + "\n";
  text += ">>> ok()\r\nFalse";  // the last line, unfinished, after a CRLF
  for (size_t piece : {size_t(1), size_t(5), size_t(4096), text.size()}) {
    auto r = run(text, piece);
    REQUIRE(r.hits.count("repl-false"));
    auto& h = r.hits.at("repl-false");
    CHECK(h.count == 2);  // one two-line match: both lines
    REQUIRE(h.evidence.size() == 2);
    CHECK(h.evidence[0].line == 3005);
    CHECK(h.evidence[0].text == ">>> ok()");
    CHECK(h.evidence[1].line == 3006);
    CHECK(h.evidence[1].text == "False");
  }
  // "False" after another line, or as the first line: no match.
  CHECK(run("False\n>>> other()\nFalse\n", 4096).hits.count("repl-false") == 0);
  // Inside one block (fed whole, lines after it): the line before is found
  // in the block.
  auto in_block = run("x\n>>> ok()\nFalse\nmore\n", 4096).hits.at("repl-false");
  CHECK(in_block.evidence.at(0).line == 2);
  CHECK(in_block.evidence.at(1).line == 3);
  // A second two-line match has one slot left: both lines or neither.
  auto twice = run(">>> ok()\nFalse\n>>> ok()\nFalse\n", 4096).hits.at("repl-false");
  CHECK(twice.count == 4);
  CHECK(twice.evidence.size() == 2);
  // A piece of a long line is not the line before the next one, however fed.
  std::string long_line(LogScanner::kMaxLine, 'y');
  std::string after_long = long_line + ">>> ok()\nFalse\n";
  for (size_t piece : {size_t(1), size_t(4096), after_long.size()})
    CHECK(run(after_long, piece).hits.count("repl-false") == 0);
}

TEST_CASE("a signature with `unless` skips the lines that deny it, and only those", "[scanner]") {
  Signature words{"words-secure-boot", "(?i)secure boot", {}, {}};
  words.unless = "(?i)works fine|\\bno problems?\\b";
  auto r = scan_lines({words}, {"Secure Boot is on and everything works fine",
                                "secure boot: no problem here",
                                "I think Secure Boot blocks the amdgpu module"});
  REQUIRE(r.hits.count("words-secure-boot"));
  auto& h = r.hits.at("words-secure-boot");
  CHECK(h.count == 1);
  REQUIRE(h.evidence.size() == 1);
  CHECK(h.evidence[0].line == 3);
  // Its examples judge it the same way (rules test).
  words.examples = {{"Secure Boot blocks it", true, {}, {}}, {"Secure Boot is on, works fine", false, {}, {}}};
  CHECK(run_signature_examples({words}, nullptr).empty());
  words.examples = {{"Secure Boot is on, works fine", true, {}, {}}};
  CHECK(run_signature_examples({words}, nullptr).size() == 1);
  // A broken `unless` is the scanner's error, named.
  words.unless = "(unclosed";
  LogScanner broken({words}, {});
  CHECK(broken.error().find("words-secure-boot: unless: ") == 0);
}

TEST_CASE("each input's first line has no line before", "[scanner]") {
  Signature repl{"repl-false", "^False$", {}, {}};
  repl.after = "^>>> ok\\(\\)$";
  LogScanner s({repl}, {});
  s.set_source("a.log");
  s.feed(">>> ok()\n");
  s.set_source("b.log");
  s.feed("False\n");
  s.finish();
  CHECK(s.result().hits.count("repl-false") == 0);
}

TEST_CASE("removing an escape or a zero-width space never joins two line breaks", "[scanner]") {
  for (std::string text : {std::string("a\r\xE2\x80\x8B\nagent gfx1100\n"), std::string("a\r\x1b[K\nagent gfx1100\n")}) {
    auto whole = scan(text);
    for (size_t piece : {1, 2, 3}) {
      auto cut = scan(text, piece);
      CHECK(cut.lines == whole.lines);
      CHECK(first_line(cut, "target") == first_line(whole, "target"));
    }
  }
}

TEST_CASE("one card named twice in two ways is one GPU name, two cards are none", "[scanner]") {
  auto run = [](std::string_view text) { return context_hits("(?i)(?P<gpu_name>(?:radeon )?rx ?[0-9]{3,4})", text); };
  auto same = run("my radeon rx570 crashes\ntorch says: Radeon RX 570 Series\n");
  CHECK(same.ambiguous.empty());
  CHECK(same.captures.at("gpu_name") == "radeon rx570");
  CHECK(run("one RX 580\nand one RX 6600\n").ambiguous.count("gpu_name") == 1);
}

TEST_CASE("a captured gfx target is written as the runtime writes it, however the text spells it", "[scanner]") {
  auto run = [](std::string_view text) { return context_hits("(?i)\\b(?P<gfx>gfx[ _-]?[0-9]{3}[0-9a-f]?)\\b", text); };
  CHECK(run("my card is GFX 1102\n").captures.at("gfx") == "gfx1102");
  CHECK(run("built for gfx-900\n").captures.at("gfx") == "gfx900");
  // Three spellings of one target are one target, not three GPUs.
  auto same = run("GFX 1030 here\nrocminfo: gfx1030\nGFX_1030\n");
  CHECK(same.captures.at("gfx") == "gfx1030");
  CHECK(same.ambiguous.empty());
  CHECK(run("gfx1030 here\nand GFX 1100 there\n").ambiguous.count("gfx") == 1);
}

TEST_CASE("the result does not depend on how the input is cut", "[scanner]") {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "noise line " + std::to_string(i) + (i % 3 ? "\r\n" : "\n");
  text += "Memory access fault by GPU node-2 (Agent handle: 0x1)\r\nagent gfx1100\r\n";
  auto whole = scan(text);
  for (size_t piece : {1, 2, 7, 4096}) {
    auto r = scan(text, piece);
    CHECK(r.lines == whole.lines);
    CHECK(first_line(r, "fault") == 2001);
    CHECK(r.hits.at("fault").captures.at("node") == "2");
    CHECK(first_line(r, "target") == 2002);
  }
}

TEST_CASE("one matching line deep in a big block gets its own line number", "[scanner]") {
  std::string text;
  for (int i = 1; i < 50000; ++i) text += "step " + std::to_string(i) + " loss 0.1\n";
  text += "RuntimeError: hipErrorNoBinaryForGpu\n";
  for (int i = 0; i < 50000; ++i) text += "tail\n";
  auto r = scan(text);
  CHECK(first_line(r, "no-binary") == 50000);
  CHECK(r.lines == 100000);
}

TEST_CASE("NUL bytes and invalid UTF-8 are just bytes", "[scanner]") {
  std::string text = std::string("\xff\xfe\0\0 hipErrorNoBinaryForGpu \xc3\x28\n", 31) + "\x80\x81import torch\n";
  auto r = scan(text);
  CHECK(first_line(r, "no-binary") == 1);
  CHECK(r.origins == std::vector<std::string>{"pytorch"});
}

TEST_CASE("a line longer than kMaxLine is matched in pieces and counted once", "[scanner]") {
  std::string text = "hipErrorNoBinaryForGpu" + std::string(3 * LogScanner::kMaxLine, 'x') + "END-OF-LONG-LINE\nnext\n";
  auto r = scan(text, 100000);
  CHECK(first_line(r, "no-binary") == 1);
  CHECK(first_line(r, "tail") == 1);
  CHECK(r.lines == 2);
  CHECK(r.hits.at("no-binary").evidence[0].text.size() == LogScanner::kMaxEvidenceText);
}

TEST_CASE("evidence keeps the first few matches, and the count keeps them all", "[scanner]") {
  std::string text;
  for (int i = 0; i < 10; ++i) text += "Memory access fault by GPU node-" + std::to_string(i) + "\n";
  auto r = scan(text);
  auto& hits = r.hits.at("fault");
  CHECK(hits.count == 10);
  CHECK(hits.evidence.size() == LogScanner::kMaxEvidence);
  CHECK(hits.captures.at("node") == "0");  // the first value wins
}

TEST_CASE("a pattern that RE2 rejects is reported, not thrown", "[scanner]") {
  LogScanner s({{"bad", "(unclosed", {}, {}}}, {});
  CHECK(s.error().find("bad") == 0);
}

TEST_CASE("signature examples are checked both ways, with captures", "[scanner]") {
  Signature s{"fault", "Memory access fault by GPU node-(?P<node>\\d+)", {}, {"f.yaml", 1, 1}};
  s.examples.push_back({"Memory access fault by GPU node-1", true, {{"node", "1"}}, {"f.yaml", 2, 1}});
  s.examples.push_back({"Memory access fault by GPU node-1", true, {{"node", "7"}}, {"f.yaml", 3, 1}});
  s.examples.push_back({"Memory access fault by GPU node-3", false, {}, {"f.yaml", 4, 1}});
  s.examples.push_back({"all good", false, {}, {"f.yaml", 5, 1}});
  size_t run = 0;
  auto failures = run_signature_examples({s}, &run);
  CHECK(run == 4);
  REQUIRE(failures.size() == 2);
  CHECK(failures[0].find("f.yaml:3:1") == 0);
  CHECK(failures[1].find("f.yaml:4:1") == 0);
}

TEST_CASE("a long bounded gap is widened in the set but a hit is the exact pattern's", "[scanner]") {
  // The set holds gpu.*not detected; the line with a 50-byte gap matches that,
  // not the signature's {0,40}, and must not count.
  std::vector<Signature> sigs{{"gap", "\\bgpu\\b.{0,40}\\bnot detected\\b", {}, {}},
                              {"class", "[^{]{0,12}x\\{0,40\\}", {}, {}}};  // braces inside a class and escaped stay
  auto r = scan_lines(sigs, {"my gpu is " + std::string(50, 'z') + " not detected", "my gpu is not detected", "ab x{0,40}"});
  REQUIRE(r.hits.count("gap"));
  CHECK(r.hits.at("gap").count == 1);
  CHECK(r.hits.at("gap").evidence.at(0).line == 2);
  REQUIRE(r.hits.count("class"));
  CHECK(r.hits.at("class").evidence.at(0).line == 3);
}

TEST_CASE("quoted text and POSIX classes are not widened", "[scanner]") {
  // {0,9} inside \Q...\E or inside a class with a POSIX class is text, not a
  // repeat: widened, the first would stop matching its literal braces and the
  // second would lose '{', ',' and '}' from its class.
  std::vector<Signature> sigs{{"quoted", "\\Qgap{0,9}\\E end", {}, {}}, {"posix", "^v[[:digit:]{0,9}]+$", {}, {}}};
  auto r = scan_lines(sigs, {"gap{0,9} end", "v{1,9}", "gap end"});
  REQUIRE(r.hits.count("quoted"));
  CHECK(r.hits.at("quoted").count == 1);
  REQUIRE(r.hits.count("posix"));
  CHECK(r.hits.at("posix").evidence.at(0).line == 2);
}

TEST_CASE("a pattern RE2 refuses is reported even when its widened form is valid", "[scanner]") {
  // (a{0,40}){0,40} repeats 1600 times, past RE2's 1000; (a*)* is fine.
  LogScanner s({{"nested", "(a{0,40}){0,40}b", {}, {}}}, {});
  CHECK(s.error().find("nested: ") == 0);
}

TEST_CASE("a signature the loader compiled is not compiled again to find its error", "[scanner]") {
  // Signature::compiles says the loader (or the suite's rules lint, for the
  // built-in rules) has compiled the exact pattern: the scanner trusts it,
  // so this one, wrong as it is, is not reported here.
  Signature nested{"nested", "(a{0,40}){0,40}b", {}, {}};
  nested.compiles = true;
  LogScanner s({nested}, {});
  CHECK(s.error().empty());
}

TEST_CASE("plain words are read in the first kWordsWindow bytes of each input only", "[scanner]") {
  std::vector<Signature> sigs{{"words-not-detected", "my gpu is not detected", {}, {}},
                              {"no-binary", "hipErrorNoBinaryForGpu", {}, {}}};
  LogScanner s(sigs, {});
  REQUIRE(s.error().empty());
  std::string filler;
  while (filler.size() < LogScanner::kWordsWindow + 70000) filler += "step 1 loss=0.25\n";
  s.set_source("first");
  s.feed("my gpu is not detected\n" + filler + "my gpu is not detected\nhipErrorNoBinaryForGpu\n");
  s.finish();
  s.set_source("second");  // a new input has its own window
  s.feed("my gpu is not detected\n");
  s.finish();
  auto& r = s.result();
  REQUIRE(r.hits.count("words-not-detected"));
  CHECK(r.hits.at("words-not-detected").count == 2);  // the first lines of both inputs, not the one past the window
  CHECK(r.hits.at("words-not-detected").evidence.at(1).source == "second");
  CHECK(r.hits.count("no-binary") == 1);  // messages are read everywhere
}

TEST_CASE("the words window ends at the same line however the input is fed", "[scanner]") {
  std::vector<Signature> sigs{{"words-not-detected", "my gpu is not detected", {}, {}},
                              {"no-binary", "hipErrorNoBinaryForGpu", {}, {}}};
  std::string filler;
  while (filler.size() + 64 < LogScanner::kWordsWindow) filler += "step 1 loss=0.25\n";
  filler.resize(LogScanner::kWordsWindow - 20);
  filler.back() = '\n';
  // Line A starts 20 bytes before the window's end and ends past it; line B
  // starts past it.
  std::string lineA = "my gpu is not detected (a)\n", lineB = "my gpu is not detected (b)\n";
  REQUIRE(filler.size() + lineA.size() > LogScanner::kWordsWindow);
  std::string text = filler + lineA + lineB;
  for (size_t piece : {size_t(1) << 20, size_t(65536), size_t(4093), size_t(1)}) {
    LogScanner s(sigs, {});
    s.set_source("in");
    for (size_t i = 0; i < text.size(); i += piece) s.feed(std::string_view(text).substr(i, piece));
    s.finish();
    auto& hits = s.result().hits;
    INFO("fed in pieces of " << piece);
    REQUIRE(hits.count("words-not-detected"));
    CHECK(hits.at("words-not-detected").count == 1);
    CHECK(hits.at("words-not-detected").evidence.at(0).text.find("(a)") != std::string::npos);
  }
}

TEST_CASE("an input without a final line break does not run into the next input", "[scanner]") {
  LogScanner s({{"joined", "^tail-of-a head-of-b$", {}, {}}, {"tail", "^tail-of-a$", {}, {}}}, {});
  s.set_source("a.log");
  s.feed("first\ntail-of-a");
  s.set_source("b.log");
  s.feed(" head-of-b\n");
  s.finish();
  auto& r = s.result();
  CHECK(r.hits.count("joined") == 0);
  REQUIRE(r.hits.count("tail"));
  CHECK(r.hits.at("tail").evidence.at(0).source == "a.log");
  CHECK(r.lines == 3);
}
