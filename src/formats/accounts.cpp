#include "formats/accounts.h"

#include "base/text.h"

namespace rocmdoc {

namespace {

std::optional<uint32_t> parse_id(const std::string& s) {
  auto v = parse_uint(s);
  if (!v || *v > 0xffffffffULL) return std::nullopt;
  return static_cast<uint32_t>(*v);
}

bool is_entry_line(const std::string& line) {
  // NIS compat lines ("+", "-user") and comments name no local account.
  return !line.empty() && line[0] != '#' && line[0] != '+' && line[0] != '-';
}

}  // namespace

std::vector<PasswdEntry> parse_passwd(std::string_view text) {
  std::vector<PasswdEntry> out;
  for (auto& line : split_lines(text)) {
    if (!is_entry_line(line)) continue;
    auto f = split(line, ':');
    if (f.size() < 4 || f[0].empty()) continue;
    auto uid = parse_id(f[2]), gid = parse_id(f[3]);
    std::string home = f.size() >= 6 && !f[5].empty() && f[5].front() == '/' ? f[5] : "";
    if (uid && gid) out.push_back({f[0], *uid, *gid, home});
  }
  return out;
}

std::vector<GroupEntry> parse_group(std::string_view text) {
  std::vector<GroupEntry> out;
  for (auto& line : split_lines(text)) {
    if (!is_entry_line(line)) continue;
    auto f = split(line, ':');
    if (f.size() < 3 || f[0].empty()) continue;
    auto gid = parse_id(f[2]);
    if (!gid) continue;
    GroupEntry g{f[0], *gid, {}};
    if (f.size() >= 4)
      for (auto& m : split(f[3], ','))
        if (!trim(m).empty()) g.members.push_back(trim(m));
    out.push_back(std::move(g));
  }
  return out;
}

const PasswdEntry* find_user(const std::vector<PasswdEntry>& users, const std::string& name) {
  for (auto& u : users)
    if (u.name == name) return &u;
  return nullptr;
}

const GroupEntry* find_group(const std::vector<GroupEntry>& groups, const std::string& name) {
  for (auto& g : groups)
    if (g.name == name) return &g;
  return nullptr;
}

const GroupEntry* find_group(const std::vector<GroupEntry>& groups, uint32_t gid) {
  for (auto& g : groups)
    if (g.gid == gid) return &g;
  return nullptr;
}

std::string user_name_or_id(const std::vector<PasswdEntry>& users, uint32_t uid) {
  for (auto& u : users)
    if (u.uid == uid) return u.name;
  return std::to_string(uid);
}

std::string group_name_or_id(const std::vector<GroupEntry>& groups, uint32_t gid) {
  const GroupEntry* g = find_group(groups, gid);
  return g ? g->name : std::to_string(gid);
}

}  // namespace rocmdoc
