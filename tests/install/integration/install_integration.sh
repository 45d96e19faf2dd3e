#!/bin/bash
# The integration test of `rocmdoc install` (issue 5, docs/install.md): the
# real package tools on a real Debian 12 root.
#
#   install_integration.sh ROCMDOC_BINARY SOURCE_DIR
#
# A bookworm root made with debootstrap gets a recorded AMD machine's /sys
# and /proc (plain files: the probes see an RX 7900 XTX on bare metal, never
# this host), a user and a CA it trusts. Stand-in amdgpu-dkms, dkms, rocm and
# kernel headers packages are built here with dpkg-deb into apt repositories
# signed with a key made here and served over https on 127.0.0.1. A copy of
# rules/ points the recipe at them (URLs, key fingerprint). Then, inside the
# root (chroot), rocmdoc install runs for real:
#   1. --auto --yes, killed (SIGKILL to its whole process group, as a power
#      cut) while amdgpu-dkms's postinst runs;
#   2. again: finishes dpkg's interrupted run, repeats nothing, stops for the
#      reboot (exit 5); once more without a reboot: still 5;
#   3. a new boot id (the fake reboot) and the DKMS driver's sysfs file; then
#      --resume finishes (exit 0);
#   4. again: every step already done, nothing on disk changed;
#   5. the Core SDK 10.0 line (its own key, pinned by the recipe, a deb822
#      source, amdrocm10.0-<gfx>): stopped by the older-ROCm gate, refused
#      with a --trust-key the recipe does not pin, refused at the key step
#      when the served key is not the pinned one, installed without
#      --trust-key, then nothing left to do.
# The assertions read the root: files, dpkg's database, the journal, logs.
#
# It needs root, debootstrap, chroot and a reachable Debian mirror; without
# them it prints one line saying why and exits 77 (ctest: skipped).
# ROCMDOC_IT_MIRROR=URL picks the mirror; ROCMDOC_IT_BASE=DIR copies an
# existing debootstrapped bookworm root instead of making one (quicker while
# developing); ROCMDOC_IT_CACHE=DIR (set by ctest: the build's test-cache)
# keeps one base root there for every test that needs one
# (bookworm_root.sh); ROCMDOC_IT_KEEP=1 keeps the work directory for a post-mortem.
set -euo pipefail

BINARY=${1:?usage: install_integration.sh ROCMDOC_BINARY SOURCE_DIR}
SOURCE=${2:?usage: install_integration.sh ROCMDOC_BINARY SOURCE_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
SKIP=77
START=$SECONDS

skip() { echo "SKIP: the install integration test cannot run here: $*"; exit $SKIP; }
fail() { echo "FAIL: $*" >&2; exit 1; }
say() { printf '[%3ds] %s\n' $((SECONDS - START)) "$*"; }

# ---------------------------------------------------------------- can it run
[ "$(id -u)" = 0 ] || skip "not root (debootstrap and chroot need root)"
for tool in debootstrap chroot gpg openssl python3 dpkg-deb dpkg-scanpackages curl cc ldd setsid; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (packaging/build-deps.txt)"
done
[ -x "$BINARY" ] || fail "$BINARY is not an executable"

# The Debian mirror and the base root (shared with tests/packaging/deb_test.sh).
source "$HERE/bookworm_root.sh"
MIRROR=$(find_bookworm_mirror)
[ -n "$MIRROR" ] || skip "no Debian mirror serving bookworm is reachable (set ROCMDOC_IT_MIRROR)"

WORK=$(mktemp -d /var/tmp/rocmdoc-it.XXXXXX)
ROOT=$WORK/root
SERVER_PID=
cleanup() {
  local rc=$?
  set +e
  say "cleanup"
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  # Key generation started an agent for the test's GnuPG home.
  [ -d "$WORK/gnupg" ] && gpgconf --homedir "$WORK/gnupg" --kill gpg-agent 2>/dev/null
  if [ "${ROCMDOC_IT_KEEP:-}" = 1 ] || { [ $rc != 0 ] && [ $rc != $SKIP ] && [ -n "${ROCMDOC_IT_KEEP_ON_FAIL:-}" ]; }; then
    echo "kept $WORK"
  else
    rm -rf --one-file-system "$WORK"
  fi
  say "cleaned up"
  exit $rc
}
trap cleanup EXIT
# A signal or a closed output pipe still cleans up (the EXIT trap runs on exit).
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
trap '' PIPE

# ---------------------------------------------------------------- the root
if [ -n "${ROCMDOC_IT_BASE:-}" ]; then
  say "copying the bookworm root $ROCMDOC_IT_BASE"
  cp -a "$ROCMDOC_IT_BASE" "$ROOT"
elif [ -n "${ROCMDOC_IT_CACHE:-}" ]; then
  say "the bookworm base root in $ROCMDOC_IT_CACHE (debootstrap from $MIRROR the first time)"
  bookworm_base "$ROCMDOC_IT_CACHE" "$MIRROR" "$WORK/debootstrap.log" ||
    skip "debootstrap failed (see its last line: $(tail -n 1 "$WORK/debootstrap.log"))"
  cp -a "$ROCMDOC_IT_CACHE/root" "$ROOT"
else
  say "debootstrap bookworm (minbase) from $MIRROR"
  if ! debootstrap --variant=minbase --include=ca-certificates bookworm "$ROOT" "$MIRROR" >"$WORK/debootstrap.log" 2>&1; then
    skip "debootstrap failed (see its last line: $(tail -n 1 "$WORK/debootstrap.log"))"
  fi
fi
chroot "$ROOT" /bin/true 2>/dev/null || skip "chroot into the new root does not work here"

in_root() { env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 chroot "$ROOT" "$@"; }

# ---------------------------------------------------------------- keys and certificates
say "CA, server certificate for 127.0.0.1, repository signing key"
mkdir -p "$WORK/tls" "$WORK/gnupg" && chmod 700 "$WORK/gnupg"
export GNUPGHOME=$WORK/gnupg
(
  cd "$WORK/tls"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=rocmdoc test CA" -keyout ca.key -out ca.crt \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout server.key -out server.csr 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >server.ext
  openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile server.ext \
    -out server.crt 2>/dev/null
)
gpg --batch --quiet --passphrase '' --quick-gen-key 'rocmdoc test repository <test@rocmdoc.invalid>' rsa2048 sign 2d 2>/dev/null
FINGERPRINT=$(gpg --with-colons --list-keys 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')
[ ${#FINGERPRINT} = 40 ] || fail "no fingerprint for the test key"
# Another key, served first in AMD's key's place: rocmdoc must refuse it.
gpg --batch --quiet --passphrase '' --quick-gen-key 'impostor <impostor@rocmdoc.invalid>' rsa2048 sign 2d 2>/dev/null
IMPOSTOR=$(gpg --with-colons --list-keys impostor@rocmdoc.invalid 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')
[ ${#IMPOSTOR} = 40 ] && [ "$IMPOSTOR" != "$FINGERPRINT" ] || fail "no fingerprint for the impostor key"

# ---------------------------------------------------------------- the server
SRV=$WORK/srv
mkdir -p "$SRV"
python3 "$HERE/https_server.py" "$SRV" "$WORK/tls/server.crt" "$WORK/tls/server.key" "$WORK/port" 2>"$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 100); do [ -s "$WORK/port" ] && break; sleep 0.1; done
[ -s "$WORK/port" ] || fail "the https server did not start: $(cat "$WORK/server.log")"
PORT=$(cat "$WORK/port")
BASE=https://127.0.0.1:$PORT
curl -fsS --cacert "$WORK/tls/ca.crt" "$BASE/" >/dev/null || fail "the https server does not answer on $BASE"

# ---------------------------------------------------------------- the recipe, pointed at the server
RULES=$WORK/rules
cp -r "$SOURCE/rules" "$RULES"
sed -i -e "s|https://repo.radeon.com|$BASE|g" -e "s|CA8BB4727A47B4D09B4EE8969386B48A1A693C5C|$FINGERPRINT|g" \
  -e 's|min_bytes: .*|min_bytes: 268435456|' "$RULES/install/repositories.yaml" "$RULES/install/releases.yaml"
sed -i -e "s|https://stable.repo.amd.com|$BASE/amd-stable|g" -e "s|https://repo.radeon.com|$BASE|g" \
  -e "s|D0F004A0025A1145C7807FCD0701EAC4D5E02107|$FINGERPRINT|g" "$RULES/install/core-sdk.yaml"
grep -q "fingerprint: $FINGERPRINT" "$RULES/install/core-sdk.yaml" || fail "the Core SDK key fingerprint was not replaced"
grep -q "$BASE/amd-stable/rocm/gpg/packages.gpg" "$RULES/install/core-sdk.yaml" || fail "the Core SDK key URL was not replaced"
grep -q "$FINGERPRINT" "$RULES/install/repositories.yaml" || fail "the key fingerprint was not replaced in the rules copy"

# ---------------------------------------------------------------- the fake machine
KERNEL=6.1.0-999-amd64
MACHINE=$SOURCE/tests/machines/ubuntu2404-rx7900xtx/root
say "the recorded machine's /sys and /proc (kernel $KERNEL), user alex, /dev/kfd"
rm -rf "${ROOT:?}/sys" "${ROOT:?}/proc"
cp -a "$MACHINE/sys" "$MACHINE/proc" "$ROOT/"
echo "$KERNEL" >"$ROOT/proc/sys/kernel/osrelease"
echo "Linux version $KERNEL (debian-kernel@lists.debian.org) #1 SMP PREEMPT_DYNAMIC Debian 6.1.999-1" >"$ROOT/proc/version"
mkdir -p "$ROOT/proc/sys/kernel/random"
new_boot_id() { python3 -c 'import uuid; print(uuid.uuid4())' >"$ROOT/proc/sys/kernel/random/boot_id"; }
new_boot_id
BOOT1=$(cat "$ROOT/proc/sys/kernel/random/boot_id")
rm -f "$ROOT/sys/module/amdgpu/version"   # the in-kernel amdgpu: no DKMS version file yet
in_root groupadd --system render
in_root useradd --create-home --shell /bin/bash alex
install -m 0660 /dev/null "$ROOT/dev/kfd"
in_root chgrp render /dev/kfd
cp "$WORK/tls/ca.crt" "$ROOT/usr/local/share/ca-certificates/rocmdoc-test-ca.crt"
in_root update-ca-certificates >/dev/null 2>&1 || fail "update-ca-certificates failed in the root"

# rocmdoc inside the root, with the libraries it was linked against (the
# root's glibc may be older than the host's).
TOOL=$ROOT/opt/rocmdoc-test
mkdir -p "$TOOL"
cp "$BINARY" "$TOOL/rocmdoc"
LOADER=
while read -r lib; do
  cp -L "$lib" "$TOOL/"
  case "$lib" in */ld-linux*) LOADER=$(basename "$lib") ;; esac
done < <(ldd "$BINARY" | awk '/=> \// { print $3 } /^[ \t]*\/.*ld-linux/ { print $1 }')
[ -n "$LOADER" ] || fail "ldd names no dynamic loader for $BINARY"
cp -r "$RULES" "$TOOL/rules"
rocmdoc() {
  in_root "/opt/rocmdoc-test/$LOADER" --library-path /opt/rocmdoc-test /opt/rocmdoc-test/rocmdoc "$@"
}
INSTALL=(install --rules /opt/rocmdoc-test/rules --no-torch --user alex)

# An earlier install's list (amdgpu-install's, an older driver): the plan
# moves it aside before anything else touches apt.
LEFTOVER=/etc/apt/sources.list.d/amdgpu-6.0.2.list
echo "deb [arch=amd64] https://repo.radeon.com/amdgpu/6.0.2/ubuntu jammy main" >"$ROOT$LEFTOVER"

# ---------------------------------------------------------------- the plan
say "the plan inside the root"
rocmdoc "${INSTALL[@]}" --json >"$WORK/plan.json" || fail "install --json failed: $(cat "$WORK/plan.json")"
plan() { python3 -c "import json, sys; p = json.load(open('$WORK/plan.json')); $1" "${@:2}"; }
[ "$(plan 'print(p["kind"])')" = plan ] || fail "no plan here: $(cat "$WORK/plan.json")"
ROCM=$(plan 'print(p["plan"]["rocm"])')
DRIVER=$(plan 'print(p["plan"]["driver"])')
CODENAME=$(plan 'print(p["plan"]["codename"])')
MARKER=$(awk -v v="\"$ROCM\"" '$2 == "version:" { hit = ($3 == v) } hit && $1 == "driver_package_marker:" { gsub(/"/, "", $2); print $2; exit }' "$RULES/install/releases.yaml")
GFX=$(plan 'print([c["value"] for s in p["steps"] if s["id"] == "verify-rocm" for c in s["checks"] if c["kind"] == "output_contains"][0])')
STEPS=$(plan 'print(" ".join(s["id"] for s in p["steps"]))')
say "plan: ROCm $ROCM, amdgpu $DRIVER ($MARKER), $CODENAME, $GFX; steps: $STEPS"
echo " $STEPS " | grep -q " leftover-repos " || fail "the plan does not move $LEFTOVER aside"
[ "$(plan 'print(p["plan"]["distro"])')" = "debian 12" ] || fail "the root is not planned as Debian 12"

# ---------------------------------------------------------------- stand-in packages
say "stand-in packages and signed repositories"
PKG=$WORK/pkg
make_deb() {  # name version depends repo_dir; files already staged in $PKG/name
  local name=$1 version=$2 depends=$3 repo=$4 dir=$PKG/$1
  mkdir -p "$dir/DEBIAN" "$repo/pool/main"
  {
    echo "Package: $name"
    echo "Version: $version"
    echo "Architecture: amd64"
    echo "Maintainer: rocmdoc tests <test@rocmdoc.invalid>"
    [ -n "$depends" ] && echo "Depends: $depends"
    echo "Description: stand-in for $name (rocmdoc install integration test)"
  } >"$dir/DEBIAN/control"
  dpkg-deb --root-owner-group -Zgzip -b "$dir" "$repo/pool/main/${name}_${version#*:}_amd64.deb" >/dev/null
}
script() { mkdir -p "$(dirname "$1")"; cat >"$1"; chmod 0755 "$1"; }

DRIVER_REPO=$SRV/amdgpu/$DRIVER/ubuntu
ROCM_REPO=$SRV/rocm/apt/$ROCM
GRAPHICS_REPO=$SRV/graphics/$ROCM/ubuntu
KERNEL_REPO=$SRV/kernel

# dkms: `dkms status -m M -k K` answers from what the stand-in driver recorded.
script "$PKG/dkms/usr/sbin/dkms" <<'EOF'
#!/bin/sh
module= kernel=
[ "$1" = status ] || { echo "stand-in dkms: only 'status'" >&2; exit 1; }
shift
while [ $# -gt 0 ]; do case "$1" in -m) module=$2; shift 2 ;; -k) kernel=$2; shift 2 ;; *) shift ;; esac; done
grep -F ", $kernel," "/var/lib/dkms/$module/status" 2>/dev/null || true
EOF
make_deb dkms 3.0.10-8+rocmdoctest "" "$DRIVER_REPO"

# amdgpu-dkms: its postinst "builds" the module for the running kernel, and
# sleeps while /rocmdoc-it-kill-here exists so the test can cut the power.
script "$PKG/amdgpu-dkms/DEBIAN/postinst" <<'EOF'
#!/bin/sh
set -e
echo "amdgpu-dkms postinst $*" >>/var/log/rocmdoc-it-maintscripts.log
if [ "$1" = configure ] && [ -e /rocmdoc-it-kill-here ]; then
  touch /rocmdoc-it-postinst-running
  sleep 600
fi
mkdir -p /var/lib/dkms/amdgpu
echo "amdgpu/6.16.13-2278356.22.04, $(cat /proc/sys/kernel/osrelease), x86_64: installed" >/var/lib/dkms/amdgpu/status
EOF
mkdir -p "$PKG/amdgpu-dkms/usr/src/amdgpu-6.16.13-2278356.22.04"
echo "stand-in" >"$PKG/amdgpu-dkms/usr/src/amdgpu-6.16.13-2278356.22.04/dkms.conf"
make_deb amdgpu-dkms "1:6.16.13.$MARKER-2278356.22.04" dkms "$DRIVER_REPO"

# rocm: /opt/rocm-X through update-alternatives, a real ELF libamdhip64 for
# ldconfig, and a rocminfo that names the GPU; its preinst sleeps while the
# test wants to cut the power in its unpack.
R=$PKG/rocm/opt/rocm-$ROCM
mkdir -p "$R/.info" "$R/lib"
echo "$ROCM-70204" >"$R/.info/version"
echo 'int hipInit(unsigned flags) { return (int)flags; }' >"$WORK/hip.c"
cc -shared -nostdlib -fPIC -Wl,-soname,libamdhip64.so.7 -o "$R/lib/libamdhip64.so.7" "$WORK/hip.c"
ln -s libamdhip64.so.7 "$R/lib/libamdhip64.so"
script "$R/bin/rocminfo" <<EOF
#!/bin/sh
echo "ROCk module is loaded"
echo "  Name:                    $GFX"
EOF
script "$PKG/rocm/DEBIAN/preinst" <<'EOF'
#!/bin/sh
set -e
if [ "$1" = install ] && [ -e /rocmdoc-it-kill-here ]; then
  touch /rocmdoc-it-preinst-running
  sleep 600
fi
EOF
script "$PKG/rocm/DEBIAN/postinst" <<EOF
#!/bin/sh
set -e
echo "rocm postinst \$*" >>/var/log/rocmdoc-it-maintscripts.log
update-alternatives --install /opt/rocm rocm /opt/rocm-$ROCM 100
EOF
script "$PKG/rocm/DEBIAN/prerm" <<EOF
#!/bin/sh
set -e
[ "\$1" = upgrade ] || update-alternatives --remove rocm /opt/rocm-$ROCM
EOF
make_deb rocm "$ROCM.70204-1~22.04" rocm-core "$ROCM_REPO"
# rocm-core: in every legacy install; the Core SDK's guide wants it gone first.
mkdir -p "$PKG/rocm-core"
make_deb rocm-core "$ROCM.70204-1~22.04" "" "$ROCM_REPO"

# The Core SDK line: one package for this GPU's target, with rocminfo and
# amd-smi on PATH (AMD's 10.0 guide verifies with both).
CORE_REPO=$SRV/amd-stable/rocm/core/packages/debian12
CORE_PACKAGE=amdrocm10.0-$GFX
script "$PKG/$CORE_PACKAGE/usr/bin/rocminfo" <<EOF
#!/bin/sh
echo "  Name:                    $GFX"
EOF
script "$PKG/$CORE_PACKAGE/usr/bin/amd-smi" <<'EOF'
#!/bin/sh
echo "AMDSMI Tool: 27.0.0+stand-in | AMDSMI Library version: 27.0.0 | ROCm version: 10.0.0 | amdgpu version: N/A"
EOF
make_deb "$CORE_PACKAGE" 10.0.0-1 "" "$CORE_REPO"

# The running kernel's headers, from the distribution's side (a repository
# the fake machine already uses).
H=$PKG/linux-headers-$KERNEL
mkdir -p "$H/usr/src/linux-headers-$KERNEL" "$H/usr/lib/modules/$KERNEL"
echo "# stand-in" >"$H/usr/src/linux-headers-$KERNEL/Makefile"
ln -s "/usr/src/linux-headers-$KERNEL" "$H/usr/lib/modules/$KERNEL/build"
make_deb "linux-headers-$KERNEL" 6.1.999-1 "" "$KERNEL_REPO"

# Indices, Release (Origin repo.radeon.com: the recipe's pin names it),
# InRelease and Release.gpg signed with the test key.
index_repo() {  # repo_dir suite origin
  local repo=$1 suite=$2 dists=$1/dists/$2
  mkdir -p "$dists/main/binary-amd64" "$repo/pool/main"
  (cd "$repo" && dpkg-scanpackages --multiversion pool 2>/dev/null) >"$dists/main/binary-amd64/Packages"
  {
    echo "Origin: $3"
    echo "Label: $3"
    echo "Suite: $suite"
    echo "Codename: $suite"
    echo "Date: $(LC_ALL=C date -Ru)"
    echo "Architectures: amd64"
    echo "Components: main"
    echo "SHA256:"
    printf ' %s %s main/binary-amd64/Packages\n' "$(sha256sum <"$dists/main/binary-amd64/Packages" | cut -d' ' -f1)" \
      "$(stat -c %s "$dists/main/binary-amd64/Packages")"
  } >"$dists/Release"
  gpg --batch --yes --quiet --local-user "$FINGERPRINT" --clearsign -o "$dists/InRelease" "$dists/Release"
  gpg --batch --yes --quiet --local-user "$FINGERPRINT" -abs -o "$dists/Release.gpg" "$dists/Release"
}
index_repo "$DRIVER_REPO" "$CODENAME" repo.radeon.com
index_repo "$ROCM_REPO" "$CODENAME" repo.radeon.com
index_repo "$GRAPHICS_REPO" "$CODENAME" repo.radeon.com
index_repo "$KERNEL_REPO" bookworm "rocmdoc test kernel"
index_repo "$CORE_REPO" stable stable.repo.amd.com
mkdir -p "$SRV/amd-stable/rocm/gpg"
gpg --armor --export "$FINGERPRINT" >"$SRV/amd-stable/rocm/gpg/packages.gpg"
gpg --armor --export "$IMPOSTOR" >"$SRV/rocm/rocm.gpg.key"
gpg --armor --export "$FINGERPRINT" >"$WORK/rocm.gpg.key"
# Nothing more to sign: the agent key generation started goes now, not at exit.
gpgconf --homedir "$GNUPGHOME" --kill gpg-agent

# The machine's own sources: Debian's mirror (debootstrap) and the kernel
# repository, known to apt before rocmdoc starts.
gpg --export "$FINGERPRINT" >"$ROOT/usr/share/keyrings/rocmdoc-test-kernel.gpg"
echo "deb [signed-by=/usr/share/keyrings/rocmdoc-test-kernel.gpg] $BASE/kernel bookworm main" \
  >"$ROOT/etc/apt/sources.list.d/test-kernel.list"
in_root apt-get update >"$WORK/apt-update.log" 2>&1 || fail "apt-get update in the root failed: $(tail -n 5 "$WORK/apt-update.log")"

# ---------------------------------------------------------------- assertions
journal() { python3 -c "import json, sys; j = json.load(open('$ROOT/var/lib/rocmdoc/install.json')); $1"; }
installed() { [ "$(in_root dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
expect_exit() {  # expected actual what
  [ "$1" = "$2" ] || { tail -n 30 "$WORK/$3.out" >&2; fail "$3: exit $2, expected $1"; }
}
# Every file in the root that a run could change, with its content hash
# (logs and apt's caches aside).
fingerprint_root() {
  local skip=(\( -path var/log -o -path var/cache -o -path var/lib/apt/lists \) -prune)
  (
    cd "$ROOT"
    find etc opt usr var home root -xdev "${skip[@]}" -o -type f -print0 | sort -z | xargs -0 sha256sum
    find etc opt usr var home root -xdev "${skip[@]}" -o -type l -printf '%p -> %l\n' | sort
    find etc opt usr var home root -xdev "${skip[@]}" -o -printf '%p %m %u %g\n' | sort
  )
}

# The files are as SUMS recorded them (the journal aside with --except-journal:
# another plan starts its own).
unchanged_since() {  # sums_file what [--except-journal]
  local drop='^$'
  [ "${3:-}" = --except-journal ] && drop=' var/lib/rocmdoc/install.json'
  fingerprint_root | grep -v "$drop" >"$WORK/now.sums"
  grep -v "$drop" "$1" | diff - "$WORK/now.sums" >"$WORK/changed.diff" ||
    fail "$2 changed files: $(head -n 20 "$WORK/changed.diff")"
}
# The steps of an earlier run's journal entries (ENTRIES: "step finished_at"
# lines) kept their entries, and the run that wrote LOG skipped them as done.
# dpkg runs again after a kill (the kill unsettles it); leftover-repos is no
# longer planned once the leftover is gone.
kept_and_skipped() {  # entries log what
  while read -r step at; do
    journal "import sys; sys.exit(0 if any(e['step'] == '$step' and e['finished_at'] == '$at' for e in j['done']) else 1)" ||
      fail "$3 changed the journal entry of $step (done before)"
    case $step in dpkg | leftover-repos) continue ;; esac
    grep -q "] $step: already done" "$2" || fail "$3 did not skip $step"
  done <"$1"
}

# ---------------------------------------------------------------- 0. a key with another fingerprint
say "run 0: the server hands out another key: refused at the key step (exit 4), no keyring"
set +e; rocmdoc "${INSTALL[@]}" --auto --yes >"$WORK/run0.out" 2>&1; rc=$?; set -e
expect_exit 4 $rc run0
grep -q "has the fingerprint $IMPOSTOR, not $FINGERPRINT: refusing to use it" "$WORK/run0.out" ||
  fail "run 0 does not say why it refused the key: $(tail -n 5 "$WORK/run0.out")"
[ -e "$ROOT/etc/apt/keyrings/rocm.gpg" ] && fail "a keyring was made from the wrong key"
[ -e "$ROOT/etc/apt/sources.list.d/rocm.list" ] && fail "a list names AMD's repository without its key"
[ -e "$ROOT$LEFTOVER" ] && fail "$LEFTOVER was not moved aside"
cmp -s <(echo "deb [arch=amd64] https://repo.radeon.com/amdgpu/6.0.2/ubuntu jammy main") \
  "$ROOT/var/lib/rocmdoc/disabled/$(basename "$LEFTOVER")" || fail "$LEFTOVER is not kept in /var/lib/rocmdoc/disabled"
cp "$WORK/rocm.gpg.key" "$SRV/rocm/rocm.gpg.key.new" && mv "$SRV/rocm/rocm.gpg.key.new" "$SRV/rocm/rocm.gpg.key"

# Runs rocmdoc ARGS in a session of its own, waits until a stand-in's
# maintainer script creates READY (while /rocmdoc-it-kill-here exists it then
# sleeps), and kills the whole process group with SIGKILL: a power cut.
run_killed() {  # name ready args...
  local name=$1 ready=$2 pid
  shift 2
  rm -f "$ROOT/$ready"
  touch "$ROOT/rocmdoc-it-kill-here"
  setsid bash -c 'exec "$@"' _ env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 chroot "$ROOT" \
    "/opt/rocmdoc-test/$LOADER" --library-path /opt/rocmdoc-test /opt/rocmdoc-test/rocmdoc "$@" >"$WORK/$name.out" 2>&1 &
  pid=$!
  for _ in $(seq 1800); do
    [ -e "$ROOT/$ready" ] && break
    kill -0 $pid 2>/dev/null || { tail -n 40 "$WORK/$name.out" >&2; fail "$name ended before /$ready"; }
    sleep 0.1
  done
  [ -e "$ROOT/$ready" ] || fail "$name: /$ready never appeared: $(tail -n 20 "$WORK/$name.out")"
  kill -KILL -- -$pid
  wait $pid 2>/dev/null || true
  rm -f "$ROOT/rocmdoc-it-kill-here"
  for _ in $(seq 100); do pgrep -g $pid >/dev/null || break; sleep 0.1; done
  if pgrep -g $pid >/dev/null; then fail "processes of $name survived the kill: $(pgrep -a -g $pid)"; fi
}

# ---------------------------------------------------------------- 1. killed in the middle of a step
say "run 1: install --auto --yes, killed (SIGKILL, whole group) in amdgpu-dkms's postinst"
run_killed run1 rocmdoc-it-postinst-running "${INSTALL[@]}" --auto --yes
[ "$(in_root dpkg-query -W -f='${Status}' amdgpu-dkms)" != "install ok installed" ] ||
  fail "amdgpu-dkms is fully installed although its postinst was killed"
journal 'print(" ".join(e["step"] for e in j["done"]))' >"$WORK/journal1.steps"
grep -qw apt-simulate "$WORK/journal1.steps" || fail "run 1's journal misses the steps before the kill: $(cat "$WORK/journal1.steps")"
grep -qw amdgpu-dkms "$WORK/journal1.steps" && fail "run 1's journal records amdgpu-dkms, which was killed"
journal 'print("\n".join(e["step"] + " " + e["finished_at"] for e in j["done"]))' >"$WORK/journal1.entries"
KEYRING_HASH=$(sha256sum <"$ROOT/etc/apt/keyrings/rocm.gpg")
RUN1_LOG=$(ls -t "$ROOT"/var/log/rocmdoc/install-*.log | head -n 1)
grep -q "run apt-get install -y --no-install-recommends --reinstall amdgpu-dkms" "$RUN1_LOG" || fail "run 1's log does not say what was running at the kill"
say "run 1 killed after: $(cat "$WORK/journal1.steps")"

# ---------------------------------------------------------------- 2. re-run: finish dpkg, stop for the reboot
say "run 2: the same command finishes the interrupted step and stops for the reboot"
set +e; rocmdoc "${INSTALL[@]}" --auto --yes >"$WORK/run2.out" 2>&1; rc=$?; set -e
expect_exit 5 $rc run2
RUN2_LOG=$(ls -t "$ROOT"/var/log/rocmdoc/install-*.log | head -n 1)
installed amdgpu-dkms || fail "amdgpu-dkms is not installed after run 2"
installed dkms || fail "dkms is not installed after run 2"
[ "$(grep -c 'install amdgpu-dkms' "$ROOT/var/log/dpkg.log")" = 1 ] || fail "amdgpu-dkms was unpacked more than once"
[ "$(sha256sum <"$ROOT/etc/apt/keyrings/rocm.gpg")" = "$KEYRING_HASH" ] || fail "run 2 wrote the keyring again"
grep -q '`dpkg --configure -a` exited 0' "$WORK/run2.out" || fail "run 2 did not finish dpkg's interrupted run first"
kept_and_skipped "$WORK/journal1.entries" "$RUN2_LOG" "run 2"
[ "$(journal 'print(j["reboot_requested_in_boot"])')" = "$BOOT1" ] || fail "the journal does not hold the boot id of the reboot request"

set +e; rocmdoc "${INSTALL[@]}" --resume --yes >"$WORK/run2b.out" 2>&1; rc=$?; set -e
expect_exit 5 $rc run2b
grep -q "has not happened yet" "$WORK/run2b.out" || fail "without a reboot, --resume does not say the reboot is still due"

# ---------------------------------------------------------------- 3. the reboot, then resume
say "run 3: a new boot id (the reboot) with the DKMS amdgpu loaded; --resume, killed in rocm's unpack"
new_boot_id
BOOT2=$(cat "$ROOT/proc/sys/kernel/random/boot_id")
echo "6.16.13" >"$ROOT/sys/module/amdgpu/version"
run_killed run3 rocmdoc-it-preinst-running "${INSTALL[@]}" --resume --yes
# Killed in its preinst: half-installed, which dpkg --configure -a cannot finish.
[ "$(in_root dpkg-query -W -f='${Status}' rocm)" = "install reinstreq half-installed" ] ||
  fail "rocm is not half-installed after the kill in its unpack: $(in_root dpkg-query -W -f='${Status}' rocm)"
journal 'print("\n".join(e["step"] + " " + e["finished_at"] for e in j["done"]))' >"$WORK/journal3.entries"
grep -q "^rocm " "$WORK/journal3.entries" && fail "run 3's journal records rocm, which was killed"

say "run 3b: --resume again reinstalls rocm and finishes"
set +e; rocmdoc "${INSTALL[@]}" --resume --yes >"$WORK/run3b.out" 2>&1; rc=$?; set -e
expect_exit 0 $rc run3b
RUN3B_LOG=$(ls -t "$ROOT"/var/log/rocmdoc/install-*.log | head -n 1)
kept_and_skipped "$WORK/journal3.entries" "$RUN3B_LOG" "run 3b"

# What is on disk now: the key by fingerprint, the list files and the pin
# whole, the packages, the groups, the loader, the journal.
gpg --batch --with-colons --show-keys "$ROOT/etc/apt/keyrings/rocm.gpg" >"$WORK/keyring.colons" 2>/dev/null ||
  fail "the keyring is not an OpenPGP keyring"
[ "$(awk -F: '$1 == "fpr" { print $10; exit }' "$WORK/keyring.colons")" = "$FINGERPRINT" ] || fail "the keyring holds another key"
head -c 5 "$ROOT/etc/apt/keyrings/rocm.gpg" | grep -q -- "-----" && fail "the keyring is still ASCII-armoured"
[ "$(stat -c %a "$ROOT/etc/apt/keyrings/rocm.gpg")" = 644 ] || fail "the keyring is not 0644"
KEYRING=/etc/apt/keyrings/rocm.gpg
[ "$(cat "$ROOT/etc/apt/sources.list.d/amdgpu.list")" = \
  "deb [arch=amd64 signed-by=$KEYRING] $BASE/amdgpu/$DRIVER/ubuntu $CODENAME main" ] || fail "amdgpu.list is not as planned"
printf 'deb [arch=amd64 signed-by=%s] %s/rocm/apt/%s %s main\ndeb [arch=amd64 signed-by=%s] %s/graphics/%s/ubuntu %s main\n' \
  $KEYRING "$BASE" "$ROCM" "$CODENAME" $KEYRING "$BASE" "$ROCM" "$CODENAME" | cmp -s - "$ROOT/etc/apt/sources.list.d/rocm.list" ||
  fail "rocm.list is not as planned"
printf 'Package: *\nPin: release o=repo.radeon.com\nPin-Priority: 600\n' | cmp -s - "$ROOT/etc/apt/preferences.d/rocm-pin-600" ||
  fail "the pin is not as planned"
for p in curl gnupg python3-setuptools python3-wheel "linux-headers-$KERNEL" dkms amdgpu-dkms rocm rocm-core; do
  installed "$p" || fail "$p is not installed"
done
[ "$(in_root dpkg-query -W -f='${Version}' rocm)" = "$ROCM.70204-1~22.04" ] || fail "rocm is not the stand-in's version"
in_root id -nG alex | tr ' ' '\n' | grep -qx render || fail "alex is not in render"
in_root id -nG alex | tr ' ' '\n' | grep -qx video || fail "alex is not in video"
in_root ldconfig -p | grep -q "libamdhip64.so.7 .*/opt/rocm/lib/libamdhip64.so.7" || fail "ldconfig does not know libamdhip64"
[ -e "$ROOT/root/.gnupg" ] && fail "rocmdoc's gpg calls wrote root's ~/.gnupg"
journal "import sys
ids = [e['step'] for e in j['done']]
want = '$STEPS'.split()
missing = [s for s in want if s not in ids]
if missing or len(ids) != len(set(ids)) or j['reboot_requested_in_boot']:
    sys.exit('journal: missing %s, entries %s, reboot pending %r' % (missing, ids, j['reboot_requested_in_boot']))
boots = {e['step']: e['boot_id'] for e in j['done']}
if boots['amdgpu-dkms'] != '$BOOT1' or boots['rocm'] != '$BOOT2':
    sys.exit('journal: boot ids %s' % boots)" || fail "the journal is not complete"
[ "$(grep -c 'rocm postinst configure' "$ROOT/var/log/rocmdoc-it-maintscripts.log")" = 1 ] || fail "rocm was configured more than once"

# ---------------------------------------------------------------- 4. once more: nothing to do
say "run 4: every step already done, nothing changes"
fingerprint_root >"$WORK/before.sums"
cp "$ROOT/var/lib/rocmdoc/install.json" "$WORK/journal-before.json"
set +e; rocmdoc "${INSTALL[@]}" --auto --yes >"$WORK/run4.out" 2>&1; rc=$?; set -e
expect_exit 0 $rc run4
fingerprint_root >"$WORK/after.sums"
diff "$WORK/before.sums" "$WORK/after.sums" >"$WORK/changed.diff" || fail "run 4 changed files: $(head -n 20 "$WORK/changed.diff")"
cmp -s "$WORK/journal-before.json" "$ROOT/var/lib/rocmdoc/install.json" || fail "run 4 rewrote the journal"
# Without the leftover the plan has one step less (the journal still records it).
n_steps=$(($(echo "$STEPS" | wc -w) - 1))
[ "$(grep -c ': already done (' "$WORK/run4.out")" = "$n_steps" ] || fail "run 4 did not find all $n_steps steps done"
grep -q '` exited ' "$WORK/run4.out" && fail "run 4 ran a command"

# ---------------------------------------------------------------- 5. the Core SDK 10.0 line
# Its key is pinned by the recipe (the copy names the test key's fingerprint);
# a second copy pins another one, as if the server handed out a key that is not
# AMD's.
CORE=(install --rules /opt/rocmdoc-test/rules --rocm 10.0.0 --no-driver --no-torch --user alex)
cp -r "$ROOT/opt/rocmdoc-test/rules" "$ROOT/opt/rocmdoc-test/rules-impostor"
sed -i "s|$FINGERPRINT|$IMPOSTOR|g" "$ROOT/opt/rocmdoc-test/rules-impostor/install/core-sdk.yaml"
grep -q "$IMPOSTOR" "$ROOT/opt/rocmdoc-test/rules-impostor/install/core-sdk.yaml" || fail "the impostor copy pins no other key"
IMPOSTOR_CORE=(install --rules /opt/rocmdoc-test/rules-impostor --rocm 10.0.0 --no-driver --no-torch --user alex)

say "run 5: ROCm 10.0.0 while ROCm 7.2.4 (rocm-core) is installed: stopped by the older-ROCm gate (exit 4)"
fingerprint_root >"$WORK/before5.sums"
set +e; rocmdoc "${CORE[@]}" --auto --yes >"$WORK/run5.out" 2>&1; rc=$?; set -e
expect_exit 4 $rc run5
grep -q "No earlier ROCm is installed" "$WORK/run5.out" || fail "run 5 did not stop at the older-rocm gate: $(tail -n 5 "$WORK/run5.out")"
unchanged_since "$WORK/before5.sums" "run 5" --except-journal
# What AMD's guide says to do (reference install.md 3.5).
in_root apt-get autoremove -y rocm >"$WORK/uninstall.log" 2>&1 || fail "apt-get autoremove rocm failed"
in_root apt-get autoremove -y rocm-core >>"$WORK/uninstall.log" 2>&1 || fail "apt-get autoremove rocm-core failed"

say "run 5b: --trust-key of a key the recipe does not pin: refused before any change (exit 1)"
fingerprint_root >"$WORK/before5b.sums"
set +e; rocmdoc "${CORE[@]}" --trust-key "$IMPOSTOR" --auto --yes >"$WORK/run5b.out" 2>&1; rc=$?; set -e
expect_exit 1 $rc run5b
grep -q "(trust-key-mismatch)" "$WORK/run5b.out" || fail "run 5b does not refuse the other key: $(tail -n 5 "$WORK/run5b.out")"
unchanged_since "$WORK/before5b.sums" "run 5b"

say "run 5c: the server's key is not the pinned one: refused at the key step (exit 4), no keyring, no source file"
set +e; rocmdoc "${IMPOSTOR_CORE[@]}" --auto --yes >"$WORK/run5c.out" 2>&1; rc=$?; set -e
expect_exit 4 $rc run5c
grep -q "has the fingerprint $FINGERPRINT, not $IMPOSTOR: refusing to use it" "$WORK/run5c.out" ||
  fail "run 5c does not say why it refused the key: $(tail -n 5 "$WORK/run5c.out")"
[ -e "$ROOT/etc/apt/keyrings/amdrocm.gpg" ] && fail "an amdrocm keyring was made from a key that is not the pinned one"
[ -e "$ROOT/etc/apt/sources.list.d/amdrocm-stable.sources" ] && fail "the Core SDK source exists without its key"
# ROCm 7.2.4's rocm.list and pin stay: they name this test's server, not
# repo.radeon.com, so the probe does not count them as AMD's (the plan tests
# show a real one moved aside).

say "run 5d: the pinned key, no --trust-key: ROCm 10.0.0 installed from the deb822 source (exit 0)"
set +e; rocmdoc "${CORE[@]}" --auto --yes >"$WORK/run5d.out" 2>&1; rc=$?; set -e
expect_exit 0 $rc run5d
gpg --batch --with-colons --show-keys "$ROOT/etc/apt/keyrings/amdrocm.gpg" 2>/dev/null |
  awk -F: '$1 == "fpr" { print $10; exit }' | grep -qx "$FINGERPRINT" || fail "amdrocm.gpg does not hold the test key"
printf 'X-Repo-Id: amdrocm-stable\nTypes: deb\nURIs: %s/amd-stable/rocm/core/packages/debian12/\nSuites: stable\nComponents: main\nArchitectures: amd64\nSigned-By: /etc/apt/keyrings/amdrocm.gpg\nEnabled: yes\n' \
  "$BASE" | cmp -s - "$ROOT/etc/apt/sources.list.d/amdrocm-stable.sources" || fail "amdrocm-stable.sources is not as planned"
for p in libatomic1 libquadmath0 "$CORE_PACKAGE"; do installed "$p" || fail "$p is not installed"; done
installed rocm-core && fail "rocm-core came back"
grep -q "rocminfo shows the GPU" "$WORK/run5d.out" || fail "run 5d did not reach verify-rocm"

say "run 5e: again: every step already done, nothing changes"
fingerprint_root >"$WORK/before5e.sums"
set +e; rocmdoc "${CORE[@]}" --auto --yes >"$WORK/run5e.out" 2>&1; rc=$?; set -e
expect_exit 0 $rc run5e
unchanged_since "$WORK/before5e.sums" "run 5e"
grep -q '` exited ' "$WORK/run5e.out" && fail "run 5e ran a command"

say "passed: killed, resumed, rebooted, resumed, nothing left to do; the Core SDK line by its pinned key"
