// Users and groups as /etc/passwd and /etc/group list them: the access
// probe's view of who the target user is and which groups they are in.
// Users from a directory service (LDAP, sssd) are not in these files; the
// probe says so rather than guessing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocmdoc {

struct PasswdEntry {
  std::string name;
  uint32_t uid = 0;
  uint32_t gid = 0;
  // Field 6 when it is an absolute path, else "" (a home is where the
  // python probe looks for the user's venvs; "" means it cannot tell).
  std::string home;
};

struct GroupEntry {
  std::string name;
  uint32_t gid = 0;
  std::vector<std::string> members;
};

// Malformed lines (too few fields, non-numeric ids, NIS "+"/"-" entries)
// are skipped.
std::vector<PasswdEntry> parse_passwd(std::string_view text);
std::vector<GroupEntry> parse_group(std::string_view text);

const PasswdEntry* find_user(const std::vector<PasswdEntry>& users, const std::string& name);
const GroupEntry* find_group(const std::vector<GroupEntry>& groups, const std::string& name);
const GroupEntry* find_group(const std::vector<GroupEntry>& groups, uint32_t gid);

// The name for an id, or the id in decimal when no entry has it.
std::string user_name_or_id(const std::vector<PasswdEntry>& users, uint32_t uid);
std::string group_name_or_id(const std::vector<GroupEntry>& groups, uint32_t gid);

}  // namespace rocmdoc
