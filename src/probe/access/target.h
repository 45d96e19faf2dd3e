// Who will run ROCm: under sudo the invoking user (SUDO_USER), not root;
// otherwise the user rocmdoc runs as. With their uid and groups, as far as
// the account files and the process tell.
#pragma once

#include <optional>
#include <vector>

#include "formats/accounts.h"
#include "probe/probe.h"

namespace rocmdoc {

struct Accounts {
  Result<std::vector<PasswdEntry>> users;
  Result<std::vector<GroupEntry>> groups;
};

// /etc/passwd and /etc/group, each parsed or with the reason it is not.
Accounts read_accounts(FileSystem& fs);

struct TargetUser {
  Json sudo_user;                // SUDO_USER: string, null, or unknown
  Json name;                     // string, or unknown
  bool is_process_user = false;  // this process runs as them (no sudo)
  std::optional<uint32_t> uid;
  Json gids;  // array of numbers (primary group first), or unknown
};

TargetUser resolve_target_user(ProbeContext& ctx, const Accounts& accounts);

}  // namespace rocmdoc
