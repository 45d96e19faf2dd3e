#include "probe/access/mode_check.h"

#include <algorithm>

namespace rocmdoc {

bool mode_allows_read_write(unsigned mode, uint32_t owner_uid, uint32_t owner_gid, uint32_t uid,
                            const std::vector<uint32_t>& gids) {
  if (uid == 0) return true;
  // Only the first class that matches counts: an owner without rw bits is
  // refused even when the group or others may read and write.
  if (uid == owner_uid) return (mode & 0600) == 0600;
  if (std::find(gids.begin(), gids.end(), owner_gid) != gids.end()) return (mode & 060) == 060;
  return (mode & 06) == 06;
}

}  // namespace rocmdoc
