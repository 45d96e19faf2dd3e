// A named piece of RE2 pattern that signatures share: written once under a
// catalogue file's `fragments:` and named in a pattern as (?&name), which
// the loader replaces with (?:the fragment's pattern) before compiling it
// (docs/rules.md, "Fragments"). "Any character that does not end the
// sentence" was written out 132 times, and a change to it had to be made in
// every copy.
//
// Why (?&name): it is PCRE's own way to say "the named piece here", and
// neither RE2 nor Python's re accepts it, so a pattern read without
// expanding it fails to compile rather than quietly matching something else
// ({{name}} is valid RE2: literal braces, and a quantifier after it repeats
// the last brace).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "rules/signature.h"

namespace rocmdoc {

struct PatternFragment {
  std::string name;     // lower-case words joined by '_': in_sentence
  std::string pattern;  // RE2; it names no other fragment and captures nothing
  SourceLocation where;
  // Each line, whole, must be (match) or not be (no_match) the fragment
  // once or more: a fragment is a piece of a line, so a search anywhere in
  // the line would say little (in_sentence is any byte but a full stop).
  std::vector<SignatureExample> examples;
};

using PatternFragments = std::map<std::string, PatternFragment, std::less<>>;

// Lower-case letters, digits and '_', starting with a letter: in_sentence.
bool is_fragment_name(std::string_view name);

// Where a reference starts and ends in a pattern, and the name it gives.
struct FragmentReference {
  size_t begin = 0, end = 0;
  std::string_view name;
};

// The first reference at or after `from` (outside escapes, quoted text and
// character classes), none when there is none, or the error for a "(?&"
// that is not followed by a name and ')'.
Result<std::optional<FragmentReference>> next_fragment_reference(std::string_view pattern, size_t from);

// The pattern with every (?&name) replaced by (?:that fragment's pattern):
// the parentheses keep the fragment one atom, so a repeat after the
// reference repeats all of it and an '|' inside it stays inside. An error
// names an unknown fragment or a malformed reference.
Result<std::string> expand_fragments(std::string_view pattern, const PatternFragments& fragments);

// Runs every fragment's examples (`rules test`): a message per failure,
// "file:line:column: fragment 'in_sentence': does not match '...'".
std::vector<std::string> run_fragment_examples(const PatternFragments& fragments, size_t* examples_run);

}  // namespace rocmdoc
