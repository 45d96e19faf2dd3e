# shellcheck shell=bash
# Sourced by the tests that run `rocmdoc install` for real in a Debian 12
# root (install_integration.sh, install_faults.sh): everything up to the
# first run of rocmdoc. The caller sets BINARY, SOURCE, HERE, SKIP, START and
# IT_NAME (what `skip` says cannot run) and may define fixture_unmount (run
# first at cleanup: a test that mounts inside the root undoes it there).
#
# It leaves: ROOT (a debootstrapped bookworm root holding a recorded RX 7900
# XTX's /sys and /proc with its GPU made an Instinct MI300X (as_mi300x, for
# why), kernel $KERNEL, user alex, /dev/kfd, an earlier install's list at
# $LEFTOVER, Debian's packages the plan needs served from a local copy of
# the mirror, apt's lists read), an https server on
# 127.0.0.1:$PORT ($BASE) serving signed repositories with stand-in
# amdgpu-dkms, dkms, rocm, rocm-core, the amdrocm10.0 packages and kernel
# headers, AMD's key place holding an impostor's key ($WORK/rocm.gpg.key is
# the right one), a rules copy pointed at them in /opt/rocmdoc-test/rules,
# the binary there (`rocmdoc ARGS` runs it in the root, INSTALL the usual
# arguments), the plan ($PLAN: ROCM, DRIVER, CODENAME, GFX, STEPS; `plan
# CODE` reads it) and the assertion helpers (journal, installed, expect_exit,
# fingerprint_root, unchanged_since). Every helper works on the root $ROOT
# names when it runs; fake_machine, as_mi300x, make_deb, core_sdk_debs,
# kernel_debs, index_repo and machine_sources make another machine and its
# repositories.

skip() { echo "SKIP: $IT_NAME cannot run here: $*"; exit $SKIP; }
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
# The work directory in memory where a tmpfs may be mounted (else on disk):
# a root is some 10,000 files that dpkg writes and the cleanup removes, and
# on a busy shared disk writing and removing them was a minute of the test.
WORK_TMPFS=
mount -t tmpfs -o mode=0700 rocmdoc-it "$WORK" 2>/dev/null && WORK_TMPFS=1
ROOT=$WORK/root
SERVER_PID=
cleanup() {
  local rc=$?
  set +e
  say "cleanup"
  declare -F fixture_unmount >/dev/null && fixture_unmount
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  # Key generation started an agent for the test's GnuPG home.
  [ -d "$WORK/gnupg" ] && gpgconf --homedir "$WORK/gnupg" --kill gpg-agent 2>/dev/null
  if [ "${ROCMDOC_IT_KEEP:-}" = 1 ] || { [ $rc != 0 ] && [ $rc != $SKIP ] && [ -n "${ROCMDOC_IT_KEEP_ON_FAIL:-}" ]; }; then
    echo "kept $WORK${WORK_TMPFS:+ (a tmpfs: umount it, then remove the directory)}"
  elif [ -n "$WORK_TMPFS" ]; then
    umount "$WORK" || umount -l "$WORK"
    rmdir "$WORK"
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
new_boot_id() { python3 -c 'import uuid; print(uuid.uuid4())' >"$ROOT/proc/sys/kernel/random/boot_id"; }
# A recorded machine's /sys and /proc in the root (plain files), a boot id,
# and the in-kernel amdgpu: no DKMS version file yet.
fake_machine() {  # machine_root
  rm -rf "${ROOT:?}/sys" "${ROOT:?}/proc"
  cp -a "$1/sys" "$1/proc" "$ROOT/"
  mkdir -p "$ROOT/proc/sys/kernel/random"
  new_boot_id
  rm -f "$ROOT/sys/module/amdgpu/version"
}
KERNEL=6.1.0-999-amd64
MACHINE=$SOURCE/tests/machines/ubuntu2404-rx7900xtx/root
say "the recorded machine's /sys and /proc (kernel $KERNEL), user alex, /dev/kfd"
fake_machine "$MACHINE"
echo "$KERNEL" >"$ROOT/proc/sys/kernel/osrelease"
echo "Linux version $KERNEL (debian-kernel@lists.debian.org) #1 SMP PREEMPT_DYNAMIC Debian 6.1.999-1" >"$ROOT/proc/version"
BOOT1=$(cat "$ROOT/proc/sys/kernel/random/boot_id")
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

# ---------------------------------------------------------------- the GPU
# AMD lists Debian 12 for Instinct GPUs only (rules/matrix/VERIFICATION.md
# 7: ROCm 7.2.4 for gfx942 and gfx90a, 10.x for gfx950, gfx942, gfx90a), so
# on the recorded RX 7900 XTX (gfx1100) the plan is a refusal, and a test of
# what an install does needs a GPU Debian is listed for. An explicit
# `--rocm 7.2.4` on the Radeon would plan too, but as an install outside
# what AMD supports, and every run here would have to carry the flag. The
# recorded MI300X (tests/machines/mi300x-container) is in a container,
# where a driver install is refused, so the bare-metal RX 7900 XTX's /sys
# becomes an MI300X instead: the same slot, bridges, link and KFD node,
# with the identity an MI300X reports there (rules/matrix/gpus.yaml 0x74a1
# revision 0x00 is the Instinct MI300X, gfx942; the class, subsystem and
# KFD values as the recorded MI300X has them). What the probes read of it
# beyond that (CU count, clocks, sensors) stays the Radeon's: no step of
# the install looks at them.
say "the recorded RX 7900 XTX: refused on Debian 12 (AMD lists Debian for Instinct GPUs only)"
set +e; rocmdoc "${INSTALL[@]}" --json >"$WORK/radeon.json"; rc=$?; set -e
[ $rc != 0 ] || fail "install --json on Debian 12 with the RX 7900 XTX exited 0: $(head -c 600 "$WORK/radeon.json")"
python3 -c "import json, sys; r = json.load(open(sys.argv[1])); sys.exit(r['kind'] != 'refusal' or r['refusal']['id'] != 'unsupported-gpu')" \
  "$WORK/radeon.json" || fail "the RX 7900 XTX on Debian 12 is not refused as unsupported-gpu: $(head -c 600 "$WORK/radeon.json")"
as_mi300x() {
  local gpu node
  gpu=$(readlink -f "$ROOT/sys/bus/pci/devices/0000:03:00.0")
  [ "$(cat "$gpu/device")" = 0x744c ] || fail "$gpu is not the recorded RX 7900 XTX"
  node=$(grep -lx "device_id 29772" "$ROOT"/sys/devices/virtual/kfd/kfd/topology/nodes/*/properties)
  [ "$(grep -cx "location_id 768" "$node")" = 1 ] || fail "KFD node $node is not the GPU at 03:00.0"
  echo 0x74a1 >"$gpu/device"
  echo 0x00 >"$gpu/revision"
  echo 0x120000 >"$gpu/class"        # a processing accelerator: no display
  echo 0x1002 >"$gpu/subsystem_vendor"
  echo 0x74a1 >"$gpu/subsystem_device"
  rm "$gpu/boot_vga"                 # the kernel makes it for display classes only
  # The same fields in config space (little-endian): the device id at 0x02,
  # revision and class at 0x08, the subsystem at 0x2c.
  python3 - "$gpu/config" <<'EOF'
import struct, sys
c = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into("<H", c, 0x02, 0x74A1)
c[0x08:0x0C] = bytes([0x00, 0x00, 0x00, 0x12])
struct.pack_into("<HH", c, 0x2C, 0x1002, 0x74A1)
open(sys.argv[1], "wb").write(c)
EOF
  sed -i -e "s/^gfx_target_version 110000$/gfx_target_version 90402/" -e "s/^device_id 29772$/device_id 29857/" "$node"
}
as_mi300x

# ---------------------------------------------------------------- the plan
say "the plan inside the root: the MI300X"
# plan CODE: python CODE with p, the plan in $PLAN (install --json).
PLAN=$WORK/plan.json
plan() { python3 -c "import json, sys; p = json.load(open('$PLAN')); $1" "${@:2}"; }
rocmdoc "${INSTALL[@]}" --json >"$PLAN" || fail "install --json failed: $(cat "$PLAN")"
[ "$(plan 'print(p["kind"])')" = plan ] || fail "no plan here: $(cat "$PLAN")"
ROCM=$(plan 'print(p["plan"]["rocm"])')
DRIVER=$(plan 'print(p["plan"]["driver"])')
CODENAME=$(plan 'print(p["plan"]["codename"])')
MARKER=$(awk -v v="\"$ROCM\"" '$2 == "version:" { hit = ($3 == v) } hit && $1 == "driver_package_marker:" { gsub(/"/, "", $2); print $2; exit }' "$RULES/install/releases.yaml")
GFX=$(plan 'print([c["value"] for s in p["steps"] if s["id"] == "verify-rocm" for c in s["checks"] if c["kind"] == "output_contains"][0])')
STEPS=$(plan 'print(" ".join(s["id"] for s in p["steps"]))')
say "plan: ROCm $ROCM, amdgpu $DRIVER ($MARKER), $CODENAME, $GFX; steps: $STEPS"
echo " $STEPS " | grep -q " leftover-repos " || fail "the plan does not move $LEFTOVER aside"
[ "$(plan 'print(p["plan"]["distro"])')" = "debian 12" ] || fail "the root is not planned as Debian 12"
[ "$GFX" = gfx942 ] || fail "the plan is not for the MI300X's gfx942: $GFX"

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

# The Core SDK line of RELEASE in REPO, laid out as TheRock packages it:
# amdrocm-base<X.Y>, the host part, with rocminfo (naming GFX) and amd-smi
# (naming RELEASE) on PATH, as AMD's guide verifies with both;
# amdrocm<X.Y>-<gfx> for GFX and for OTHER, a target the machine does not
# have, each on the host part; and amdrocm<X.Y>, every target (on each
# amdrocm<X.Y>-<gfx>). A plan naming OTHER's or every target's package
# installs what the test asserts is not installed.
core_sdk_debs() {  # release repo gfx other
  local release=$1 repo=$2 gfx=$3 other=$4 line=${1%.*} target all=
  [ "$gfx" != "$other" ] || fail "core_sdk_debs: the other target is the machine's own ($gfx)"
  script "$PKG/amdrocm-base$line/usr/bin/rocminfo" <<EOF
#!/bin/sh
echo "  Name:                    $gfx"
EOF
  script "$PKG/amdrocm-base$line/usr/bin/amd-smi" <<EOF
#!/bin/sh
echo "AMDSMI Tool: 27.0.0+stand-in | AMDSMI Library version: 27.0.0 | ROCm version: $release | amdgpu version: N/A"
EOF
  make_deb "amdrocm-base$line" "$release-1" "" "$repo"
  for target in "$gfx" "$other"; do
    mkdir -p "$PKG/amdrocm$line-$target"
    make_deb "amdrocm$line-$target" "$release-1" "amdrocm-base$line" "$repo"
    all+=${all:+, }amdrocm$line-$target
  done
  mkdir -p "$PKG/amdrocm$line"
  make_deb "amdrocm$line" "$release-1" "$all" "$repo"
}
CORE_REPO=$SRV/amd-stable/rocm/core/packages/debian12
CORE_PACKAGE=amdrocm10.0-$GFX
CORE_OTHER_PACKAGE=amdrocm10.0-gfx1100   # the Radeon's target, not the MI300X's
core_sdk_debs 10.0.0 "$CORE_REPO" "$GFX" gfx1100

# The running kernel's headers (the build link to them) and the packages the
# recipe names with them (NAMES, empty), from the distribution's side (a
# repository the fake machine already uses).
kernel_debs() {  # kernel version repo names...
  local kernel=$1 version=$2 repo=$3 h=$PKG/linux-headers-$1 name
  shift 3
  mkdir -p "$h/usr/src/linux-headers-$kernel" "$h/usr/lib/modules/$kernel"
  echo "# stand-in" >"$h/usr/src/linux-headers-$kernel/Makefile"
  ln -sfn "/usr/src/linux-headers-$kernel" "$h/usr/lib/modules/$kernel/build"
  make_deb "linux-headers-$kernel" "$version" "" "$repo"
  for name in "$@"; do
    mkdir -p "$PKG/$name"
    make_deb "$name" "$version" "" "$repo"
  done
}
kernel_debs "$KERNEL" 6.1.999-1 "$KERNEL_REPO"

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
# repository at URL (suite SUITE), known to apt before rocmdoc starts.
machine_sources() {  # url suite
  gpg --export "$FINGERPRINT" >"$ROOT/usr/share/keyrings/rocmdoc-test-kernel.gpg"
  echo "deb [signed-by=/usr/share/keyrings/rocmdoc-test-kernel.gpg] $1 $2 main" \
    >"$ROOT/etc/apt/sources.list.d/test-kernel.list"
  in_root apt-get update >"$WORK/apt-update.log" 2>&1 || fail "apt-get update in the root failed: $(tail -n 5 "$WORK/apt-update.log")"
}
machine_sources "$BASE/kernel" bookworm

# The Debian packages the plan installs (with their dependencies), fetched
# once from the mirror, then served here in a repository of their own in the
# mirror's place: apt in every root reads a small index and needs no
# network. Still real apt and real Debian packages, downloaded over https
# (Debian's signatures are checked once, at the fetch; the copy is signed
# with the test's key); what it saves is an update and an `apt-get -s
# install` over all of Debian's index in every run (a second of CPU each)
# and the downloads from the mirror in each run that installs.
# The plan's and the Core SDK line's (which needs more: the integration
# test installs 10.0 here, and 10.1 on Ubuntu 26.04, whose plan it checks
# against this set before its run 6).
rocmdoc install --rules /opt/rocmdoc-test/rules --rocm 10.0.0 --no-driver --no-torch --user alex --json >"$WORK/plan-core.json" ||
  fail "install --rocm 10.0.0 --json failed: $(cat "$WORK/plan-core.json")"
[ "$(python3 -c "import json; print(json.load(open('$WORK/plan-core.json'))['kind'])")" = plan ] ||
  fail "install --rocm 10.0.0 --json gave no plan: $(cat "$WORK/plan-core.json")"
read -ra MIRROR_PACKAGES < <(python3 - "$PLAN" "$WORK/plan-core.json" <<'EOF'
import json, sys
print(" ".join(sorted({n for f in sys.argv[1:] for s in json.load(open(f))["steps"] if s["id"] in ("apt-base", "headers")
                       for c in s["checks"] if c["kind"] == "packages_installed" for n in c["names"]})))
EOF
)
[ ${#MIRROR_PACKAGES[@]} -gt 0 ] || fail "the plans name no Debian package to serve: $(cat "$PLAN")"
in_root apt-get install --download-only --reinstall -y "${MIRROR_PACKAGES[@]}" >"$WORK/download.log" 2>&1 ||
  fail "fetching ${MIRROR_PACKAGES[*]} failed: $(tail -n 5 "$WORK/download.log")"
mkdir -p "$SRV/debian/pool/main"
cp "$ROOT"/var/cache/apt/archives/*.deb "$SRV/debian/pool/main/"
rm -f "$ROOT"/var/cache/apt/archives/*.deb  # so that the runs download them over https
index_repo "$SRV/debian" bookworm Debian
gpgconf --homedir "$GNUPGHOME" --kill gpg-agent
echo "deb [signed-by=/usr/share/keyrings/rocmdoc-test-kernel.gpg] $BASE/debian bookworm main" >"$ROOT/etc/apt/sources.list"
find "$ROOT/var/lib/apt/lists" -maxdepth 1 -type f ! -name lock -delete
in_root apt-get update >"$WORK/apt-update-local.log" 2>&1 ||
  fail "apt-get update from the local Debian repository failed: $(tail -n 5 "$WORK/apt-update-local.log")"

# ---------------------------------------------------------------- assertions
journal() { python3 -c "import json, sys; j = json.load(open('$ROOT/var/lib/rocmdoc/install.json')); $1"; }
installed() { [ "$(in_root dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
# The fingerprint of the (first) key in the keyring file PATH.
fingerprint_of() { gpg --batch --with-colons --show-keys "$1" 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }'; }
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
