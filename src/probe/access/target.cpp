#include "probe/access/target.h"

#include <algorithm>

#include "base/text.h"

namespace rocmdoc {

namespace {

template <typename T>
Result<std::vector<T>> read_account_file(FileSystem& fs, const std::string& path,
                                         std::vector<T> (*parse)(std::string_view)) {
  auto text = fs.read_file(path, 16 << 20);
  if (!text) return Result<std::vector<T>>::fail(text.error());
  if (looks_binary(*text)) return Result<std::vector<T>>::fail(path + ": binary content, not an account file");
  return Result<std::vector<T>>::ok(parse(*text));
}

Json sudo_user_of(ProbeContext& ctx) {
  Json sudo = ctx.machine().env("SUDO_USER");
  if (sudo.is_string() && sudo.get<std::string>().empty()) return nullptr;
  return sudo;
}

Json target_name(const UserIdentity& user, const Json& sudo_user) {
  if (sudo_user.is_string()) return sudo_user;
  // Run as root, rocmdoc cannot tell "root uses ROCm" from "sudo was used
  // and the recording dropped SUDO_USER", so it does not pick one.
  if (is_unknown(sudo_user)) return unknown("whether rocmdoc ran under sudo is unknown: " + unknown_reason(sudo_user));
  if (!user.known) return unknown(user.unknown_reason);
  if (user.name.empty()) return unknown("uid " + std::to_string(user.uid) + " has no user name");
  return user.name;
}

Json target_gids(const TargetUser& t, const UserIdentity& user, const Accounts& acc) {
  const std::string name = t.name.get<std::string>();
  if (!acc.groups) return unknown(acc.groups.error());
  std::optional<uint32_t> primary;
  if (const PasswdEntry* e = acc.users ? find_user(*acc.users, name) : nullptr) primary = e->gid;
  else if (t.is_process_user) primary = user.gid;  // the process's gid is its login group
  if (!primary) {
    std::string why = acc.users ? name + " is not in /etc/passwd (a directory-service account?)" : acc.users.error();
    return unknown("the primary group of " + name + " is unknown: " + why);
  }
  Json gids = Json::array({*primary});
  for (auto& g : *acc.groups)
    if (g.gid != *primary && std::find(g.members.begin(), g.members.end(), name) != g.members.end())
      gids.push_back(g.gid);
  return gids;
}

}  // namespace

Accounts read_accounts(FileSystem& fs) {
  return {read_account_file(fs, "/etc/passwd", parse_passwd), read_account_file(fs, "/etc/group", parse_group)};
}

TargetUser resolve_target_user(ProbeContext& ctx, const Accounts& acc) {
  const UserIdentity& user = ctx.machine().user;
  TargetUser t;
  t.sudo_user = sudo_user_of(ctx);
  t.name = target_name(user, t.sudo_user);
  if (!t.name.is_string()) {
    t.gids = t.name;
    return t;
  }
  t.is_process_user = t.sudo_user.is_null();
  if (t.is_process_user) t.uid = user.uid;
  else if (acc.users)
    if (const PasswdEntry* e = find_user(*acc.users, t.name.get<std::string>())) t.uid = e->uid;
  t.gids = target_gids(t, user, acc);
  return t;
}

}  // namespace rocmdoc
