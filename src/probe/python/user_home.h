// The home directory of the user who will run PyTorch, where their venvs,
// conda and pyenv live. Under sudo that is SUDO_USER's home, not the HOME
// sudo gives root, so /etc/passwd decides (as install's home_of does).
#pragma once

#include "probe/probe.h"

namespace rocmdoc {

// An absolute path, or unknown with the reason. /etc/passwd's entry for
// the target user (access.user.target) when it has one; otherwise HOME,
// unless rocmdoc runs under sudo (HOME is then root's, not the user's).
Json find_user_home(ProbeContext& ctx);

}  // namespace rocmdoc
