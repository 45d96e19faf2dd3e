#include "probe/python/user_home.h"

#include "probe/access/target.h"

namespace rocmdoc {

namespace {

Json home_from_env(ProbeContext& ctx) {
  Json home = ctx.machine().env("HOME");
  if (is_unknown(home)) return home;
  if (!home.is_string() || home.get<std::string>().empty() || home.get<std::string>().front() != '/')
    return unknown("HOME is not set to an absolute path");
  return path_normalize(home.get<std::string>());
}

}  // namespace

Json find_user_home(ProbeContext& ctx) {
  Accounts accounts = read_accounts(ctx.fs());
  TargetUser target = resolve_target_user(ctx, accounts);
  if (target.name.is_string()) {
    const std::string name = target.name.get<std::string>();
    if (accounts.users)
      if (const PasswdEntry* e = find_user(*accounts.users, name); e && !e->home.empty()) return path_normalize(e->home);
    // Under sudo HOME is root's (or whatever sudo kept): not this user's.
    if (!target.is_process_user)
      return unknown("the home of " + name + " is unknown: " +
                     (accounts.users ? "/etc/passwd gives none (a directory-service account?)" : accounts.users.error()));
  }
  return home_from_env(ctx);
}

}  // namespace rocmdoc
