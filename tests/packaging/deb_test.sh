#!/bin/bash
# The Debian package (cmake/packaging.cmake, docs/packaging.md), in three
# ctest tests that share one built package:
#
#   deb_test.sh build   BUILD_DIR SOURCE_DIR   cpack makes BUILD_DIR/deb/rocmdoc_*.deb;
#                                              its files and control fields are checked
#   deb_test.sh lintian BUILD_DIR SOURCE_DIR   lintian: no error and no warning
#                                              (those explained are overridden in
#                                              packaging/debian/lintian-overrides)
#   deb_test.sh install BUILD_DIR SOURCE_DIR   into a clean Debian 12 root (debootstrap,
#                                              chroot): apt-get install ./rocmdoc_*.deb,
#                                              run it, man -w, apt-get purge, nothing left
#
# install needs root, debootstrap, a Debian mirror and a Debian 12 host (the
# package's Depends are this host's libraries); without them it says why in
# one line and exits 77 (skipped). It shares the base root with the install
# integration test (ROCMDOC_IT_CACHE, tests/install/integration/bookworm_root.sh).
set -euo pipefail
MODE=${1:?usage: deb_test.sh build|lintian|install BUILD_DIR SOURCE_DIR}
BUILD=$(cd "${2:?usage}" && pwd)
SOURCE=$(cd "${3:?usage}" && pwd)
OUT=$BUILD/deb
SKIP=77
START=$SECONDS
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit $SKIP; }
say() { printf '[%3ds] %s\n' $((SECONDS - START)) "$*"; }
the_deb() {
  local debs=("$OUT"/rocmdoc_*.deb)
  [ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || fail "expected one rocmdoc_*.deb in $OUT (the 'package build' test makes it): ${debs[*]}"
  echo "${debs[0]}"
}

case $MODE in
build)
  rm -rf "$OUT"
  cpack --config "$BUILD/CPackConfig.cmake" -B "$OUT" >"$BUILD/cpack.log" 2>&1 || fail "cpack failed: $(tail -n 20 "$BUILD/cpack.log")"
  DEB=$(the_deb)
  dpkg-deb -c "$DEB" | awk '{ print $1, $2, $6 }' >"$OUT/contents"
  for path in ./usr/bin/rocmdoc ./usr/share/man/man1/rocmdoc.1.gz ./usr/share/man/man1/rocmdoc-check.1.gz \
    ./usr/share/man/man1/rocmdoc-rules-lint.1.gz ./usr/share/bash-completion/completions/rocmdoc \
    ./usr/share/zsh/vendor-completions/_rocmdoc ./usr/share/fish/vendor_completions.d/rocmdoc.fish \
    ./etc/rocmdoc/rules.d/README ./usr/share/doc/rocmdoc/copyright ./usr/share/doc/rocmdoc/changelog.Debian.gz \
    ./usr/share/lintian/overrides/rocmdoc; do
    grep -q " $path\$" "$OUT/contents" || fail "$(basename "$DEB") has no $path: $(cat "$OUT/contents")"
  done
  # Every docs/NAME the help and man pages cite is in the package, under
  # /usr/share/doc/rocmdoc/docs/ as the top-level help says.
  cited=$(for page in "$BUILD"/generated/docs/man/*.1.gz; do zcat "$page"; done | sed 's/\\-/-/g' |
    grep -o 'docs/[A-Za-z0-9_.-]*[A-Za-z0-9]' | sort -u)
  [ -n "$cited" ] || fail "the man pages cite no docs/ file: the check below would prove nothing"
  for doc in $cited; do
    grep -q " ./usr/share/doc/rocmdoc/$doc\$" "$OUT/contents" || fail "the help cites $doc, which the package does not install"
  done
  "$BUILD/rocmdoc" --help | grep -q '/usr/share/doc/rocmdoc/docs/' || fail "rocmdoc --help does not say where the docs are installed"
  grep -v ' root/root ' "$OUT/contents" && fail "files not owned by root/root"
  depends=$(dpkg-deb -f "$DEB" Depends)
  # dpkg-shlibdeps computed it from the binary's NEEDED libraries.
  echo "$depends" | grep -Eq '(^|, )libc6 \(>= [0-9.]+\)' || fail "Depends has no versioned libc6 (dpkg-shlibdeps): '$depends'"
  [ "$(dpkg-deb -f "$DEB" Version)" = "$(sed -n '1s/^rocmdoc (\([^)]*\)).*/\1/p' "$SOURCE/packaging/debian/changelog")" ] ||
    fail "the package's version is not the changelog's"
  conffiles=$(dpkg-deb --ctrl-tarfile "$DEB" | tar -xO ./conffiles)
  grep -qx /etc/rocmdoc/rules.d/README <<<"$conffiles" ||
    fail "/etc/rocmdoc/rules.d/README is not a conffile"
  say "built $(basename "$DEB"), Depends: $depends"
  ;;
lintian)
  command -v lintian >/dev/null || skip "lintian is not installed (packaging/build-deps.txt)"
  DEB=$(the_deb)
  # --fail-on warning: a warning fails unless the package's override file
  # names it (each with a comment saying why). Not --show-overrides: with it
  # lintian counts the overridden tags as failures too.
  set +e
  lintian --fail-on error,warning --display-info "$DEB" >"$OUT/lintian.log" 2>&1
  rc=$?
  set -e
  cat "$OUT/lintian.log"
  [ $rc = 0 ] || fail "lintian found errors or warnings (exit $rc)"
  grep -E '^[EW]: ' "$OUT/lintian.log" && fail "lintian reported errors or warnings"
  say "lintian: no error, and no warning but those packaging/debian/lintian-overrides explains"
  ;;
install)
  [ "$(id -u)" = 0 ] || skip "not root (debootstrap and chroot need root)"
  for tool in debootstrap chroot curl flock; do
    command -v $tool >/dev/null || skip "$tool is not installed (packaging/build-deps.txt)"
  done
  # shellcheck source=/dev/null
  . /etc/os-release
  [ "${ID:-}" = debian ] && [ "${VERSION_ID:-}" = 12 ] ||
    skip "the host is ${PRETTY_NAME:-unknown}, not Debian 12: the package depends on this host's libraries, the root is bookworm"
  DEB=$(the_deb)
  source "$SOURCE/tests/install/integration/bookworm_root.sh"
  MIRROR=$(find_bookworm_mirror)
  [ -n "$MIRROR" ] || skip "no Debian mirror serving bookworm is reachable (set ROCMDOC_IT_MIRROR)"
  WORK=$(mktemp -d /var/tmp/rocmdoc-deb.XXXXXX)
  trap 'rm -rf --one-file-system "$WORK"' EXIT
  ROOT=$WORK/root
  CACHE=${ROCMDOC_IT_CACHE:-$WORK/cache}
  say "the bookworm base root in $CACHE (debootstrap from $MIRROR the first time)"
  bookworm_base "$CACHE" "$MIRROR" "$WORK/debootstrap.log" ||
    skip "debootstrap failed (see its last line: $(tail -n 1 "$WORK/debootstrap.log"))"
  cp -a "$CACHE/root" "$ROOT"
  in_root() { env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive chroot "$ROOT" "$@"; }
  in_root /bin/true || skip "chroot into the new root does not work here"

  say "apt-get update; man-db (for man -w)"
  in_root apt-get update >"$WORK/apt.log" 2>&1 || fail "apt-get update in the root failed: $(tail -n 5 "$WORK/apt.log")"
  in_root apt-get install -y --no-install-recommends man-db >>"$WORK/apt.log" 2>&1 ||
    fail "apt-get install man-db failed: $(tail -n 5 "$WORK/apt.log")"
  # Every file of the root (but the logs and apt's and dpkg's state, which
  # record the install), before and after: purge must leave none behind.
  files() {
    (cd "$ROOT" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./tmp -o -path ./var/log \
      -o -path ./var/lib/dpkg -o -path ./var/lib/apt -o -path ./var/cache \) -prune -o -print | sort)
  }
  files >"$WORK/before.files"

  cp "$DEB" "$ROOT/tmp/"
  say "apt-get install ./$(basename "$DEB")"
  in_root apt-get install -y "./tmp/$(basename "$DEB")" >>"$WORK/apt.log" 2>&1 ||
    fail "apt-get install of the package failed: $(tail -n 20 "$WORK/apt.log")"
  [ "$(in_root dpkg-query -W -f='${Status}' rocmdoc)" = "install ok installed" ] || fail "rocmdoc is not installed"
  grep -q "Setting up rocmdoc" "$WORK/apt.log" || fail "apt did not set up rocmdoc"

  version=$(in_root rocmdoc --version) || fail "rocmdoc --version failed"
  [ "$version" = "rocmdoc $(dpkg-deb -f "$DEB" Version | sed 's/-[^-]*$//')" ] || fail "rocmdoc --version says '$version'"
  mkdir -p "$ROOT/tmp/machine"
  cp -a "$SOURCE/tests/machines/user-not-in-render/root" "$ROOT/tmp/machine/"
  set +e
  in_root rocmdoc check --root /tmp/machine/root >"$WORK/check.out" 2>&1
  rc=$?
  set -e
  # This fixture's user is not in render, so /dev/kfd does not open: check finds it (exit 1).
  [ $rc = 1 ] || fail "rocmdoc check --root on the fixture exited $rc, not 1: $(tail -n 20 "$WORK/check.out")"
  grep -q "device-node-not-accessible" "$WORK/check.out" || fail "check did not report device-node-not-accessible: $(cat "$WORK/check.out")"
  [ "$(in_root man -w rocmdoc)" = /usr/share/man/man1/rocmdoc.1.gz ] || fail "man -w rocmdoc: $(in_root man -w rocmdoc 2>&1)"
  [ "$(in_root man -w rocmdoc-check)" = /usr/share/man/man1/rocmdoc-check.1.gz ] || fail "man -w rocmdoc-check"
  page=$(in_root man -P cat rocmdoc-check 2>/dev/null) || fail "man rocmdoc-check exited $?"
  grep -q -- "--rocm" <<<"$page" || fail "man rocmdoc-check does not show --rocm"
  [ -d "$ROOT/etc/rocmdoc/rules.d" ] && [ -f "$ROOT/etc/rocmdoc/rules.d/README" ] || fail "/etc/rocmdoc/rules.d/README is missing"
  # check reads rules.d as root only when root alone can write it: the
  # packaged folder must pass (check above ran as root and loaded it).
  [ "$(stat -c '%U %a' "$ROOT/etc/rocmdoc/rules.d")" = "root 755" ] || fail "/etc/rocmdoc/rules.d is not root's, 0755"
  # Read whole before grep: `grep -q` stops at the first match, and a later
  # write of rocmdoc's then fails (EPIPE, exit 2), which pipefail reports.
  ids=$(in_root rocmdoc completion --list fix-ids) || fail "completion --list fix-ids exited $?"
  grep -qx device-node-not-accessible <<<"$ids" || fail "completion --list fix-ids lacks device-node-not-accessible"

  say "apt-get purge rocmdoc, autoremove what it pulled in"
  in_root apt-get purge -y rocmdoc >>"$WORK/apt.log" 2>&1 || fail "apt-get purge failed: $(tail -n 10 "$WORK/apt.log")"
  in_root apt-get autoremove --purge -y >>"$WORK/apt.log" 2>&1 || fail "apt-get autoremove failed"
  in_root dpkg-query -W -f='${Status}' rocmdoc 2>/dev/null | grep -q installed && fail "rocmdoc is still installed"
  [ -e "$ROOT/etc/rocmdoc" ] && fail "/etc/rocmdoc is left after purge: $(find "$ROOT/etc/rocmdoc")"
  rm -rf "$ROOT/tmp/machine" "$ROOT/tmp/$(basename "$DEB")"
  files >"$WORK/after.files"
  diff "$WORK/before.files" "$WORK/after.files" >"$WORK/left.diff" || fail "purge left or removed files: $(head -n 20 "$WORK/left.diff")"
  say "installed, ran, purged: nothing left"
  ;;
*) fail "unknown mode $MODE (build, lintian or install)" ;;
esac
