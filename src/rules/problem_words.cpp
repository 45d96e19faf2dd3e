#include "rules/problem_words.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace rocmdoc {

namespace {

bool is_letter(char c) { return c >= 'a' && c <= 'z'; }
bool is_word_byte(char c) { return is_letter(c) || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '+' || c == '-'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Words every English sentence has: they would make any two texts alike.
const std::set<std::string, std::less<>>& stop_words() {
  static const std::set<std::string, std::less<>> words = {
      "and",  "are",   "been",  "but",   "can",   "cannot", "could", "did",   "does",  "for",   "from",
      "had",  "has",   "have",  "how",   "into",  "its",    "not",   "now",   "one",   "only",  "our",
      "out",  "per",   "she",   "should", "than", "that",   "the",   "their", "them",  "then",  "there",
      "these", "they", "this",  "those", "too",   "two",    "use",   "used",  "using", "was",   "were",
      "what", "when",  "where", "which", "while", "who",    "why",   "will",  "with",  "would", "you",
      "your", "any",   "all",   "also",  "some",  "such",   "other", "more",  "most",  "very",  "just",
      // and the words of any error report, whatever failed
      "error", "errors", "failed", "fails", "failure", "found", "expected", "unable", "warning", "please",
      "issue", "problem", "help", "thanks", "tried", "trying", "get", "got", "getting", "work", "works",
      "working", "run", "running", "runs"};
  return words;
}

// A title or why without its placeholders: "{it.path}" is not a word of the problem.
std::string without_placeholders(std::string_view text) {
  std::string out;
  int depth = 0;
  for (char c : text) {
    if (c == '{') ++depth;
    else if (c == '}' && depth > 0) --depth;
    else if (depth == 0) out += c;
  }
  return out;
}

}  // namespace

std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  auto flush = [&] {
    while (!word.empty() && (word.back() == '.' || word.back() == '-' || word.back() == '+' || word.back() == '_'))
      word.pop_back();
    if (word.size() >= 3 && !stop_words().count(word)) out.push_back(word);
    word.clear();
  };
  for (char raw : text) {
    char c = lower(raw);
    if (word.empty() ? is_letter(c) : is_word_byte(c)) word += c;
    else if (!word.empty()) flush();
  }
  flush();
  return out;
}

std::string pattern_literals(std::string_view p) {
  std::string out;
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      char e = p[++i];
      // \s \b \d \w ... are classes and anchors; \. \( \- are the byte itself.
      out += (e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') ? ' ' : e;
    } else if (c == '[') {  // a class stands for one byte, no word
      size_t j = i + 1;
      if (j < p.size() && p[j] == '^') ++j;
      if (j < p.size() && p[j] == ']') ++j;
      while (j < p.size() && p[j] != ']') j += p[j] == '\\' ? 2 : 1;
      i = std::min(j, p.size());
      out += ' ';
    } else if (c == '(' && i + 1 < p.size() && p[i + 1] == '?') {  // (?: (?i) (?P<name>
      size_t j = i + 2;
      if (j < p.size() && p[j] == 'P' && j + 1 < p.size() && p[j + 1] == '<') j = p.find('>', j);
      else
        while (j < p.size() && p[j] != ':' && p[j] != ')') ++j;
      i = std::min(j, p.size());
      out += ' ';
    } else if (c == '{') {  // a repeat count
      size_t j = p.find('}', i);
      i = j == std::string_view::npos ? p.size() : j;
      out += ' ';
    } else {
      // An operator separates words; '.' stays: patterns write a literal dot
      // unescaped as often as not (libamdhip64.so).
      bool op = c == '(' || c == ')' || c == '|' || c == '*' || c == '+' || c == '?' || c == '^' || c == '$';
      out += op ? ' ' : c;
    }
  }
  return out;
}

ProblemWords::ProblemWords(const std::vector<Problem>& problems, const std::vector<Signature>& signatures) {
  std::map<std::string_view, const Signature*> by_id;
  for (auto& s : signatures) by_id[s.id] = &s;
  std::vector<std::pair<const Problem*, std::map<uint32_t, int>>> counts;
  std::vector<int> in_problems;  // how many problems use each word
  for (auto& p : problems) {
    if (p.benign) continue;
    std::string text = p.rule.id;  // its words: kernel-too-old-for-gpu
    std::replace(text.begin(), text.end(), '-', ' ');
    text += " " + without_placeholders(p.rule.title.text) + " " + p.rule.summary + " " + without_placeholders(p.rule.why.text);
    for (auto& signal : p.signals) {
      auto it = by_id.find(signal.signature);
      if (it == by_id.end()) continue;
      text += "\n" + pattern_literals(it->second->pattern) + "\n" + it->second->example_words;
    }
    std::map<uint32_t, int> count;
    for (auto& w : words_of(text)) {
      auto [it, added] = ids_.emplace(w, static_cast<uint32_t>(words_.size()));
      if (added) {
        words_.push_back(w);
        in_problems.push_back(0);
      }
      if (count[it->second]++ == 0) ++in_problems[it->second];
    }
    counts.emplace_back(&p, std::move(count));
  }
  double n = static_cast<double>(counts.size());
  idf_.resize(words_.size());
  for (size_t w = 0; w < words_.size(); ++w) idf_[w] = std::log(n / (1.0 + in_problems[w])) + 1.0;
  for (auto& [problem, count] : counts) entries_.push_back({problem, unit_weights(count)});
}

std::vector<std::pair<uint32_t, double>> ProblemWords::unit_weights(const std::map<uint32_t, int>& count) const {
  std::vector<std::pair<uint32_t, double>> weights;
  double norm = 0;
  for (auto& [w, k] : count) {
    double x = (1.0 + std::log(static_cast<double>(k))) * idf_[w];
    weights.emplace_back(w, x);
    norm += x * x;
  }
  norm = std::sqrt(norm);
  for (auto& [w, x] : weights) x = norm > 0 ? x / norm : 0;
  return weights;
}

std::vector<ProblemWords::Resemblance> ProblemWords::closest(std::string_view text, size_t n) const {
  std::map<uint32_t, int> count;
  for (auto& w : words_of(text)) {
    auto it = ids_.find(w);
    if (it != ids_.end()) ++count[it->second];
  }
  auto weights = unit_weights(count);
  std::unordered_map<uint32_t, double> query(weights.begin(), weights.end());
  std::vector<Resemblance> out;
  if (query.empty()) return out;
  for (auto& e : entries_) {
    std::vector<std::pair<double, uint32_t>> parts;
    double score = 0;
    for (auto& [w, x] : e.weights) {
      auto it = query.find(w);
      if (it == query.end()) continue;
      double part = x * it->second;
      score += part;
      parts.emplace_back(part, w);
    }
    if (score < kMinScore || parts.size() < kMinShared) continue;
    std::sort(parts.begin(), parts.end(), [](auto& a, auto& b) { return a.first > b.first; });
    Resemblance r{e.problem, score, {}};
    for (size_t i = 0; i < parts.size() && i < 5; ++i) r.shared.push_back(words_[parts[i].second]);
    out.push_back(std::move(r));
  }
  // Ties by catalogue order, so the answer never depends on the sort.
  std::stable_sort(out.begin(), out.end(), [](const Resemblance& a, const Resemblance& b) { return a.score > b.score; });
  if (out.size() > n) out.resize(n);
  return out;
}

}  // namespace rocmdoc
