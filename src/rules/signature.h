// A signature: the literal text a piece of software prints when something
// goes wrong, as an RE2 pattern matched against one line at a time
// (rules/catalogue/*.yaml, docs/explain.md). Named groups capture values into
// the `text` facts section ("(?P<gfx>gfx[0-9a-f]+)" -> text.gfx).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "rules/rule.h"

namespace rocmdoc {

struct SignatureExample {
  std::string line;
  bool match = true;                           // false: a no_match example
  std::map<std::string, std::string> captures;  // expected captured values
  SourceLocation where;
};

struct Signature {
  std::string id;
  // RE2 syntax, with its fragments expanded (pattern_fragments.h): what every
  // reader matches with. The written form is in the file, at `where`.
  std::string pattern;
  std::vector<SignatureExample> examples;
  SourceLocation where;
  // Kernel messages: `check` matches the signature over this boot's kernel
  // log too (kernel_log.matched), so a problem's `when` can read it. Only
  // these patterns are compiled by check; the rest wait for a text. Last,
  // so {id, pattern, examples, where} still initialises the others.
  bool scan_kernel_log = false;
  // Context: the signature only captures a value a line mentions (a gfx
  // target, a GPU's product name) and shows no failure by itself. Its
  // captures fill only what no other signature captured, and no problem or
  // symptom may take it as a signal.
  bool context = false;
  // The variables a matching line shows set ("export HSA_OVERRIDE_GFX_VERSION=10.3.0"):
  // what a problem's `needs_set` looks for in the text.
  std::vector<std::string> shows_set;
  // A pattern the line before must match: the REPL's answer on its own line
  // (">>> torch.cuda.is_available()", then "False") is one message in two
  // lines. Empty: the line alone decides.
  std::string after;
  // A pattern that, found on the same line, cancels the match: plain words
  // that deny the failure they name ("Secure Boot is on and everything works
  // fine", "no artifacts"), which RE2, without look-around, cannot say in
  // the pattern itself. Empty: nothing cancels.
  std::string unless;
  // The match examples' lines, one per line: kept when the examples are
  // not, for the problems' words (problem_words.h). Filled at load.
  std::string example_words = {};
  // The pattern, `after` and `unless` are known to compile: the loader
  // compiled them, or the file is built in (the suite's `rules lint`
  // compiles every built-in pattern). Set at load; the scanner then need
  // not compile a widened pattern's exact form just to find its error.
  bool compiles = false;
};

// Where a text probably came from, so "nothing recognised" can name the
// tracker to report it to. Matched like signatures; ranks nothing.
struct Origin {
  std::string id;
  std::string name;     // "PyTorch"
  std::string tracker;  // URL
  std::string pattern;
  SourceLocation where;
};

// The names a signature may capture into (text.<name>).
const std::vector<std::string>& capture_names();

}  // namespace rocmdoc
