#include "probe/access/mode_check.h"

#include <algorithm>

namespace rocmdoc {

bool mode_allows_read_write(unsigned mode, uint32_t owner_uid, uint32_t owner_gid, uint32_t uid,
                            const std::vector<uint32_t>& gids) {
  // Root's override of the mode bits holds only for a file whose owner and
  // group are mapped into its user namespace (capable_wrt_inode_uidgid): in
  // an unprivileged container the host's nodes show the overflow ids
  // (nobody/nogroup, 65534) and root is "others" to them. On a host a device
  // node owned by 65534 does not occur, so no namespace fact is needed.
  constexpr uint32_t kOverflowId = 65534;
  if (uid == 0 && owner_uid != kOverflowId && owner_gid != kOverflowId) return true;
  // Only the first class that matches counts: an owner without rw bits is
  // refused even when the group or others may read and write.
  if (uid == owner_uid) return (mode & 0600) == 0600;
  if (std::find(gids.begin(), gids.end(), owner_gid) != gids.end()) return (mode & 060) == 060;
  return (mode & 06) == 06;
}

}  // namespace rocmdoc
