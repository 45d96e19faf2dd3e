// Whether a user may open a device node read-write, judged the way the
// kernel judges permission bits: the owner's bits if the user owns it,
// else the group's bits if one of the user's groups owns it, else the
// others' bits. Root passes regardless. ACLs are not seen here.
#pragma once

#include <cstdint>
#include <vector>

namespace rocmdoc {

bool mode_allows_read_write(unsigned mode, uint32_t owner_uid, uint32_t owner_gid, uint32_t uid,
                            const std::vector<uint32_t>& gids);

}  // namespace rocmdoc
