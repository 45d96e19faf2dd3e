#include "snapshot/redaction.h"

#include <cctype>

#include "base/text.h"

#include <algorithm>
#include <cctype>

namespace rocmdoc {

Redactor::Redactor(std::map<std::string, std::string> names, std::string hostname)
    : names_(std::move(names)), hostname_(std::move(hostname)) {
  // "root" and empty names are not personal; never replace them.
  names_.erase("root");
  names_.erase("");
  // A short host name ("a") would match inside ordinary words.
  if (hostname_.size() < 3 || hostname_ == "localhost") hostname_.clear();
}

std::string Redactor::name(const std::string& user) const {
  auto it = names_.find(user);
  return it == names_.end() ? user : it->second;
}

std::string Redactor::text(const std::string& input) const {
  std::string s = input;
  for (auto& [real, stand_in] : names_) {
    // /home/ann, /home/ann/x, but not /home/annex
    std::string from = "/home/" + real, to = "/home/" + stand_in;
    for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + 1)) {
      size_t end = pos + from.size();
      if (end == s.size() || s[end] == '/' || s[end] == ':' || std::isspace(static_cast<unsigned char>(s[end])) ||
          s[end] == '"' || s[end] == '\'') {
        s.replace(pos, from.size(), to);
      }
    }
  }
  // The host name as a word only: with a host called "gpu", "amdgpu" and
  // "libdrm-amdgpu1" are package and driver names, not the host. A name's
  // characters are letters, digits, '-' and '_', so one next to the match
  // means it is part of a longer word ("gpu.example.com" is still the host).
  if (hostname_.empty()) return s;
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; };
  std::string out;
  size_t from = 0;
  for (size_t pos = s.find(hostname_); pos != std::string::npos; pos = s.find(hostname_, pos + 1)) {
    size_t end = pos + hostname_.size();
    if ((pos > 0 && word_char(s[pos - 1])) || (end < s.size() && word_char(s[end]))) continue;
    out.append(s, from, pos - from).append("host");
    from = end;
    pos = end - 1;
  }
  out.append(s, from, std::string::npos);
  return out;
}

namespace {

// A token is a run of these: what names and host names are made of.
bool token_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

// Every whole-token occurrence of `from` replaced by `to`.
std::string replace_token(const std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  std::string out;
  size_t done = 0;
  for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + 1)) {
    size_t end = pos + from.size();
    bool starts = pos == 0 || !token_char(s[pos - 1]);
    bool ends = end == s.size() || !token_char(s[end]);
    if (!starts || !ends || pos < done) continue;
    out.append(s, done, pos - done);
    out += to;
    done = end;
  }
  out.append(s, done, std::string::npos);
  return out;
}

}  // namespace

std::string Redactor::words(const std::string& input, const std::vector<std::string>& keep) const {
  if (!active()) return input;
  // Home paths first (their own boundary rules), then the bare tokens.
  Redactor homes(names_, "");
  std::string s = homes.text(input);
  for (auto& [real, stand_in] : names_)
    if (std::find(keep.begin(), keep.end(), real) == keep.end()) s = replace_token(s, real, stand_in);
  if (!hostname_.empty()) s = replace_token(s, hostname_, "host");
  return s;
}

std::string Redactor::path(const std::string& p) const { return text(p); }

std::string Redactor::group_file(const std::string& input) const {
  std::string out;
  for (auto& line : split_lines(input)) {
    auto f = split(line, ':');
    if (f.size() == 4) {
      f[0] = name(f[0]);  // a user's private group carries their name
      std::string members;
      for (auto& m : split(f[3], ','))
        if (!m.empty()) members += (members.empty() ? "" : ",") + name(m);
      f[3] = members;
      line = f[0] + ":" + f[1] + ":" + f[2] + ":" + f[3];
    }
    out += line + "\n";
  }
  return out;
}

std::string Redactor::passwd_file(const std::string& input) const {
  std::string out;
  for (auto& line : split_lines(input)) {
    auto f = split(line, ':');
    if (f.size() == 7) {
      f[0] = name(f[0]);
      f[4] = names_.count(split(line, ':')[0]) ? "" : f[4];  // GECOS holds a real name
      f[5] = text(f[5]);
      line.clear();
      for (size_t i = 0; i < f.size(); ++i) line += (i ? ":" : "") + f[i];
    }
    out += line + "\n";
  }
  return out;
}

std::string Redactor::content(const std::string& path, const std::string& input) const {
  if (!active() || looks_binary(input)) return input;
  if (path == "/etc/group") return group_file(input);
  if (path == "/etc/passwd") return passwd_file(input);
  return text(input);
}

}  // namespace rocmdoc
