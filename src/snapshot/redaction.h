// What a snapshot must not carry by default: the host name, user names and
// home paths. Replacement is targeted (group and passwd fields, /home/<name>
// paths, the host name) rather than a blind search for the user name, which
// would mangle files where a name like "ubuntu" is also a word.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace rocmdoc {

class Redactor {
 public:
  // No replacement at all (--no-redact).
  Redactor() = default;
  // names: real user name -> stand-in ("ann" -> "user"); homes likewise.
  Redactor(std::map<std::string, std::string> names, std::string hostname);

  bool active() const { return !names_.empty() || !hostname_.empty(); }
  std::string name(const std::string& user) const;
  // /home/ann/venv -> /home/user/venv
  std::string path(const std::string& path) const;
  // File contents: /etc/group and /etc/passwd fields by structure,
  // everything else by home paths and the host name.
  std::string content(const std::string& path, const std::string& text) const;
  // An environment value or a command's output.
  std::string text(const std::string& text) const;
  // Free text about the machine (a report, a pasted log): home paths as in
  // text(), and every user name and the host name where it stands as a
  // whole token ("alex@gpubox:~$", "user alex"), never inside a word
  // ("alexa", "amdgpubox"). `keep` names words that must survive even if a
  // user is called that (the distribution's id: a user named "ubuntu").
  std::string words(const std::string& text, const std::vector<std::string>& keep = {}) const;

 private:
  std::string group_file(const std::string& text) const;
  std::string passwd_file(const std::string& text) const;
  std::map<std::string, std::string> names_;
  std::string hostname_;
};

}  // namespace rocmdoc
