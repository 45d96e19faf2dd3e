#include "snapshot/secret_values.h"

#include <algorithm>
#include <cctype>

#include "base/text.h"

namespace rocmdoc {

namespace {

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Where the value after a name at [begin, end) starts, when the name is
// assigned (`=`, `:`, `":`, each with optional spaces and an opening quote);
// npos when it is not an assignment.
size_t value_start(const std::string& s, size_t end) {
  size_t i = end;
  if (i < s.size() && (s[i] == '"' || s[i] == '\'')) ++i;
  if (i >= s.size() || (s[i] != '=' && s[i] != ':')) return std::string::npos;
  ++i;
  while (i < s.size() && s[i] == ' ') ++i;
  if (i < s.size() && (s[i] == '"' || s[i] == '\'')) ++i;
  return i;
}

bool value_char(char c) {
  return !std::isspace(static_cast<unsigned char>(c)) && c != '"' && c != '\'' && c != ',' && c != '}' && c != ';';
}

}  // namespace

bool looks_secret(const std::string& name) {
  std::string upper = name;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const char* word : {"TOKEN", "KEY", "SECRET", "PASSWORD", "CREDENTIAL"})
    if (upper.find(word) != std::string::npos) return true;
  return false;
}

SecretMask::SecretMask(const std::map<std::string, std::string>& environment) {
  for (auto& [name, value] : environment)
    if (looks_secret(name) && value.size() >= 6) values_.push_back(value);
  std::sort(values_.begin(), values_.end(), [](auto& a, auto& b) { return a.size() > b.size(); });
  values_.erase(std::unique(values_.begin(), values_.end()), values_.end());
}

std::string SecretMask::apply(const std::string& text) const {
  std::string s = text;
  for (auto& v : values_) s = replace_all(std::move(s), v, kSecretStandIn);
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    if (!name_char(s[i]) || (i > 0 && name_char(s[i - 1]))) {
      out += s[i++];
      continue;
    }
    size_t end = i;
    while (end < s.size() && name_char(s[end])) ++end;
    std::string name = s.substr(i, end - i);
    out += name;
    i = end;
    if (!looks_secret(name)) continue;
    size_t start = value_start(s, end);
    if (start == std::string::npos) continue;
    size_t stop = start;
    while (stop < s.size() && value_char(s[stop])) ++stop;
    if (stop == start || s.compare(start, stop - start, kSecretStandIn) == 0) continue;
    out.append(s, end, start - end);
    out += kSecretStandIn;
    i = stop;
  }
  return out;
}

}  // namespace rocmdoc
