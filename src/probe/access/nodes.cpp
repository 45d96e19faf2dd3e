#include "probe/access/nodes.h"

#include <cstdio>

#include "probe/access/mode_check.h"
#include "base/text.h"

namespace rocmdoc {

namespace {

std::string octal_mode(unsigned mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", mode & 07777);
  return buf;
}

Result<std::vector<std::string>> node_paths(FileSystem& fs) {
  using R = Result<std::vector<std::string>>;
  std::vector<std::string> paths;
  FileStat kfd = fs.stat("/dev/kfd");
  if (kfd.unreadable()) return R::fail("/dev/kfd: " + kfd.error);
  if (kfd.type != FileType::missing) paths.push_back("/dev/kfd");
  auto dri = fs.list_dir("/dev/dri");
  if (!dri) {
    FileStat st = fs.stat_follow("/dev/dri");
    if (st.type != FileType::missing || !st.error.empty()) return R::fail(dri.error());
  }
  for (auto& name : dri.value_or({}))
    if (starts_with(name, "renderD")) paths.push_back("/dev/dri/" + name);
  return R::ok(std::move(paths));
}

Json mode_allows(const FileStat& st, const TargetUser& t) {
  if (!t.uid) return unknown("the uid of " + t.name.dump() + " is unknown (not in /etc/passwd)");
  if (is_unknown(t.gids)) return t.gids;
  std::vector<uint32_t> gids;
  for (auto& g : t.gids) gids.push_back(g.get<uint32_t>());
  return mode_allows_read_write(st.mode, st.uid, st.gid, *t.uid, gids);
}

// ACLs (systemd-logind's uaccess gives the seat's user one on render
// nodes) can allow what the mode bits refuse, and rocmdoc cannot see them
// here, so a refusal by mode bits alone is not a "no".
Json judged_by_modes(ProbeContext& ctx, const Json& allows, const Json& node, const TargetUser& t) {
  if (!allows.is_boolean() || allows.get<bool>()) return allows;
  std::string acl = ctx.machine().live ? "ACLs were not checked" : "ACLs were not recorded";
  return unknown("by owner, group and mode, " + t.name.get<std::string>() + " cannot open " +
                 node["path"].get<std::string>() + " (owner " + node["owner"].get<std::string>() + ", group " +
                 node["group"].get<std::string>() + ", mode " + node["mode"].get<std::string>() + "); " + acl +
                 ", and one (systemd-logind's uaccess) can still allow it");
}

Json node_fact(ProbeContext& ctx, const std::string& path, const TargetUser& t, const Accounts& acc) {
  FileStat st = ctx.fs().stat(path);
  Json n = Json::object();
  n["path"] = path;
  n["type"] = file_type_name(st.type);
  n["owner"] = acc.users ? user_name_or_id(*acc.users, st.uid) : std::to_string(st.uid);
  n["group"] = acc.groups ? group_name_or_id(*acc.groups, st.gid) : std::to_string(st.gid);
  n["mode"] = octal_mode(st.mode);
  n["mode_allows"] = t.name.is_string() ? mode_allows(st, t) : t.name;
  if (ctx.machine().live && t.is_process_user) {
    auto opened = ctx.fs().try_open_read_write(path);
    n["can_open_rw"] = opened ? Json(*opened) : unknown(opened.error());
    n["how"] = "open()";
  } else {
    n["can_open_rw"] = judged_by_modes(ctx, n["mode_allows"], n, t);
    n["how"] = "modes and groups";
  }
  return n;
}

}  // namespace

Json access_nodes_fact(ProbeContext& ctx, const TargetUser& target, const Accounts& accounts) {
  if (!ctx.machine().live && ctx.machine().recording_kind == "tree")
    return unknown("the recorded tree has no sidecar, so its device nodes were not recorded");
  auto paths = node_paths(ctx.fs());
  if (!paths) return unknown(paths.error());
  Json nodes = Json::array();
  for (auto& p : *paths) nodes.push_back(node_fact(ctx, p, target, accounts));
  return nodes;
}

}  // namespace rocmdoc
