// The words each problem of the catalogue is written in: its id, title and
// why, and the patterns and example lines of the signatures that point to it.
// explain asks which problems a text resembles when none of their messages
// matched it: a new application's wording of a known failure still shares
// the failure's words (a library's name, "tensile", "permission", a gfx
// target). A guess, shown as one (docs/explain.md, "Resemblance").
//
// Each problem is a TF-IDF vector over these words (a word in fewer
// problems counts more), the text is one over its own, and the score is
// their cosine: 0 shares nothing, 1 is the same words in the same mix.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rules/problem.h"
#include "rules/signature.h"

namespace rocmdoc {

// The words of a text as ProblemWords counts them: lower-case runs of
// letters, digits and _ . + - that start with a letter, without trailing
// punctuation, three or more bytes long, and not a common English word.
// "libamdhip64.so.6", "hiperrornobinaryforgpu" and "gfx1100" are one word each.
std::vector<std::string> words_of(std::string_view text);

// A signature pattern's words: the literal text, without the RE2 syntax
// around it (groups, classes, escapes such as \s and \b).
std::string pattern_literals(std::string_view pattern);

class ProblemWords {
 public:
  // Below this a text shares only a word or two of common weight with a
  // problem. On the development cases of tests/explain/real with no cause
  // found, the three best scored 0.1-0.4, the right problem (when among
  // them) 0.22; 0.1 keeps out what shares little more than "rocm".
  static constexpr double kMinScore = 0.1;
  // One shared word is a coincidence ("runtimeerror"); two start a likeness.
  static constexpr size_t kMinShared = 2;

  struct Resemblance {
    const Problem* problem = nullptr;
    double score = 0;                 // cosine, 0..1
    std::vector<std::string> shared;  // the words that weigh most in the score, most first (at most 5)
  };

  // Benign problems (harmless noise) are left out: resembling noise says
  // nothing. The problems must outlive this index.
  ProblemWords(const std::vector<Problem>& problems, const std::vector<Signature>& signatures);

  // The n problems the text resembles most, best first, each at kMinScore
  // or more.
  std::vector<Resemblance> closest(std::string_view text, size_t n) const;

  size_t vocabulary() const { return idf_.size(); }

 private:
  std::unordered_map<std::string, uint32_t> ids_;  // word -> index into idf_ and words_
  std::vector<std::string> words_;
  std::vector<double> idf_;
  struct Entry {
    const Problem* problem;
    std::vector<std::pair<uint32_t, double>> weights;  // sorted by word index, unit length
  };
  std::vector<Entry> entries_;
  // A word count as TF-IDF weights of unit length, sorted by word index:
  // a problem's and a text's vectors alike.
  std::vector<std::pair<uint32_t, double>> unit_weights(const std::map<uint32_t, int>& count) const;
};

}  // namespace rocmdoc
