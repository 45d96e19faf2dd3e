#!/bin/bash
# The Debian 12 base root that the real-apt tests copy (bookworm_root.sh),
# made before they start:
#
#   base_root.sh        (ROCMDOC_IT_CACHE: where it is kept)
#
# A ctest fixture (CMakeLists.txt). Made by the first test that needed it,
# debootstrap's minute of downloads held both of CI's two test slots: the
# other tests waited on its lock. Where it cannot be made this says why and
# is skipped (77); the tests that copy it then try once more and say why
# themselves.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/bookworm_root.sh"
skip() { echo "SKIP: the bookworm base root cannot be made here: $*"; exit 77; }
CACHE=${ROCMDOC_IT_CACHE:?ROCMDOC_IT_CACHE names the folder to keep the base root in}
[ "$(id -u)" = 0 ] || skip "not root (debootstrap needs root)"
for tool in debootstrap curl flock; do
  command -v $tool >/dev/null || skip "$tool is not installed (packaging/build-deps.txt)"
done
MIRROR=$(find_bookworm_mirror)
[ -n "$MIRROR" ] || skip "no Debian mirror serving bookworm is reachable (set ROCMDOC_IT_MIRROR)"
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
START=$SECONDS
KEPT=no
[ -e "$CACHE/root.done" ] && KEPT=yes
bookworm_base "$CACHE" "$MIRROR" "$LOG" || skip "debootstrap failed: $(tail -n 1 "$LOG")"
if [ $KEPT = yes ]; then
  echo "the bookworm base root in $CACHE/root, kept from an earlier run"
else
  echo "the bookworm base root in $CACHE/root, made from $MIRROR in $((SECONDS - START)) s"
fi
