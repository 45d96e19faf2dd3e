// access: can the user who will run ROCm open /dev/kfd and the render
// nodes? Who that user is (under sudo, the invoking user, not root) and
// their groups are in access_target; the nodes in access_nodes.
#include <algorithm>
#include <set>

#include "probe/access/nodes.h"
#include "probe/access/target.h"
#include "probe/probe.h"

namespace rocmdoc {

namespace {

Json user_fact(ProbeContext& ctx, const TargetUser& t) {
  const UserIdentity& user = ctx.machine().user;
  Json u = Json::object();
  u["name"] = !user.known ? unknown(user.unknown_reason) : user.name.empty() ? Json(nullptr) : Json(user.name);
  u["uid"] = user.known ? Json(user.uid) : unknown(user.unknown_reason);
  u["via_sudo"] = is_unknown(t.sudo_user) ? t.sudo_user : Json(t.sudo_user.is_string());
  u["sudo_user"] = t.sudo_user;
  u["target"] = t.name;
  return u;
}

// Sorted, distinct names; a gid without a group entry stays a number string.
Json group_names(const Json& gids, const Accounts& acc) {
  if (is_unknown(gids)) return gids;
  std::set<std::string> names;
  for (auto& g : gids) {
    uint32_t gid = g.get<uint32_t>();
    names.insert(acc.groups ? group_name_or_id(*acc.groups, gid) : std::to_string(gid));
  }
  return Json(std::vector<std::string>(names.begin(), names.end()));
}

Json process_gids(ProbeContext& ctx, const TargetUser& t) {
  const UserIdentity& user = ctx.machine().user;
  if (!user.known) return unknown(user.unknown_reason);
  if (t.sudo_user.is_string())
    return unknown("under sudo this process has root's groups, not " + t.sudo_user.get<std::string>() + "'s");
  Json gids = Json::array({user.gid});
  for (uint32_t g : user.process_gids)
    if (g != user.gid) gids.push_back(g);
  return gids;
}

// Groups the account has in /etc/group that its running session lacks:
// added (usermod -aG) but not logged out and in again since.
Json pending_relogin(const Json& target_groups, const Json& process_groups, const TargetUser& t) {
  if (is_unknown(target_groups)) return target_groups;
  if (is_unknown(process_groups)) return process_groups;
  if (!t.is_process_user) return unknown("the target user's login session is not this process");
  Json pending = Json::array();
  for (auto& g : target_groups)
    if (std::find(process_groups.begin(), process_groups.end(), g) == process_groups.end()) pending.push_back(g);
  return pending;
}

Json named_group(const Accounts& acc, const std::string& name) {
  Json g = Json::object();
  if (!acc.groups) {
    g["exists"] = unknown(acc.groups.error());
    g["gid"] = unknown(acc.groups.error());
    return g;
  }
  const GroupEntry* e = find_group(*acc.groups, name);
  g["exists"] = e != nullptr;
  g["gid"] = e ? Json(e->gid) : Json(nullptr);
  return g;
}

}  // namespace

Json probe_access(ProbeContext& ctx, const Json&) {
  Accounts accounts = read_accounts(ctx.fs());
  TargetUser target = resolve_target_user(ctx, accounts);
  Json out = Json::object();
  out["user"] = user_fact(ctx, target);
  out["target_groups"] = group_names(target.gids, accounts);
  out["process_groups"] = group_names(process_gids(ctx, target), accounts);
  out["groups_pending_relogin"] = pending_relogin(out["target_groups"], out["process_groups"], target);
  out["render_group"] = named_group(accounts, "render");
  out["video_group"] = named_group(accounts, "video");
  out["nodes"] = access_nodes_fact(ctx, target, accounts);
  return out;
}

}  // namespace rocmdoc
