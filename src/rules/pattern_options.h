// How every rule pattern is compiled: the text as Latin-1 bytes (a pasted
// log is any bytes, not always valid UTF-8) and errors returned, not
// logged. The loader, the fragment examples, check's kernel-log set and
// explain's scanner all start from these, so a pattern reads the same line
// the same way wherever it runs.
#pragma once

#include <re2/re2.h>

namespace rocmdoc {

inline RE2::Options rule_pattern_options() {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);
  o.set_log_errors(false);
  return o;
}

}  // namespace rocmdoc
