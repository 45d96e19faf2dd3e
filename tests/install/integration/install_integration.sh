#!/bin/bash
# The integration test of `rocmdoc install` (issue 5, docs/install.md): the
# real package tools on a Debian 12 root, and on the same root dressed as a
# fresh Ubuntu 26.04 machine.
#
#   install_integration.sh ROCMDOC_BINARY SOURCE_DIR
#
# What is real: apt, dpkg, gpg, curl, chroot and rocmdoc itself (the binary
# under test, run inside the root with its own libraries): apt resolves,
# downloads over https and checks signatures; dpkg unpacks and runs the
# maintainer scripts; gpg makes and checks the keys. What stands in:
# - the machine: a bookworm root made with debootstrap gets a recorded AMD
#   machine's /sys and /proc (plain files: the probes see an RX 7900 XTX on
#   bare metal, never this host; refused on Debian 12, its GPU becomes an
#   Instinct MI300X, which AMD lists there: fixture.sh says why), a user and
#   a CA it trusts;
# - the distribution's identity in step 6: only Debian's mirror is
#   reachable, so the Ubuntu 26.04 machine is the same Debian 12 root whose
#   /etc/os-release and recorded /sys and /proc (kernel 7.0.0-15-generic) say
#   Ubuntu 26.04; its base packages (curl, gnupg, python3 ...) are Debian 12's;
# - the packages: amdgpu-dkms, dkms, rocm, the amdrocm packages and the
#   kernel's headers are built here with dpkg-deb (no DKMS build, no real
#   ROCm);
# - the server: apt repositories laid out as AMD's, signed with a key made
#   here and served over https on 127.0.0.1; a copy of rules/ points the
#   recipe at them (URLs, key fingerprints);
# - the reboot: a new boot id and the DKMS driver's sysfs file.
# Inside the root (chroot), rocmdoc install runs for real:
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
#      --trust-key, then nothing left to do;
#   6. ROCm 10.1.0 on a fresh Ubuntu 26.04 (a copy of the root taken before
#      run 0, the recorded ubuntu2604-rx7900xtx machine, gfx1100): --auto
#      --yes with neither --rocm nor --trust-key picks 10.1.0 and stops for
#      the reboot; --resume after it finishes; again: nothing to do. The
#      only repositories served for it are the ones AMD's 10.1.0 guide
#      names (core/packages/ubuntu2604, amdrocm10.1-<gfx>, amdgpu/31.60
#      resolute, the pinned key), so a plan naming any other fails.
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
IT_NAME="the install integration test"

# The root, the server, the packages, the plan (everything before the first run).
source "$HERE/fixture.sh"
# A copy of the prepared root before any run: the fresh machine of step 6.
say "a copy of the prepared root for step 6"
cp -a "$ROOT" "$WORK/root2604"

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
# rocmdoc ARGS once more (NAME its output): exit 0, no command run, nothing
# on disk changed.
nothing_left() {  # name args...
  local name=$1 rc
  shift
  fingerprint_root >"$WORK/before-$name.sums"
  set +e; rocmdoc "$@" >"$WORK/$name.out" 2>&1; rc=$?; set -e
  expect_exit 0 $rc "$name"
  unchanged_since "$WORK/before-$name.sums" "$name"
  if grep -q '` exited ' "$WORK/$name.out"; then fail "$name ran a command"; fi
}
# The deb822 source AMD's guides give for the Core SDK on distribution DIST
# (debian12, ubuntu2604), with this test's server in its place.
core_source() {  # dist
  printf 'X-Repo-Id: amdrocm-stable\nTypes: deb\nURIs: %s/amd-stable/rocm/core/packages/%s/\nSuites: stable\nComponents: main\nArchitectures: amd64\nSigned-By: /etc/apt/keyrings/amdrocm.gpg\nEnabled: yes\n' \
    "$BASE" "$1"
}
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
[ "$(fingerprint_of "$ROOT/etc/apt/keyrings/amdrocm.gpg")" = "$FINGERPRINT" ] || fail "amdrocm.gpg does not hold the test key"
core_source debian12 | cmp -s - "$ROOT/etc/apt/sources.list.d/amdrocm-stable.sources" || fail "amdrocm-stable.sources is not as planned"
for p in libatomic1 libquadmath0 "$CORE_PACKAGE"; do installed "$p" || fail "$p is not installed"; done
installed rocm-core && fail "rocm-core came back"
installed amdrocm10.0 && fail "amdrocm10.0 (every target) is installed"
installed "$CORE_OTHER_PACKAGE" && fail "$CORE_OTHER_PACKAGE (another GPU's target) is installed"
grep -q "rocminfo shows the GPU" "$WORK/run5d.out" || fail "run 5d did not reach verify-rocm"

say "run 5e: again: every step already done, nothing changes"
nothing_left run5e "${CORE[@]}" --auto --yes

# ---------------------------------------------------------------- 6. ROCm 10.1.0 on a fresh Ubuntu 26.04
# The copy taken before run 0 becomes a fresh Ubuntu 26.04 machine: the
# recorded ubuntu2604-rx7900xtx's /sys and /proc (kernel 7.0.0-15-generic)
# and /etc/os-release; no earlier list. What AMD's 10.1.0 guide gives for
# it (not read from the rules, so that a recipe naming other places fails):
# the Core SDK source .../rocm/core/packages/ubuntu2604/, suite stable, the
# packages amdrocm10.1-<gfx>; the driver 31.60 (marker 31600000) from
# amdgpu/31.60/ubuntu resolute. Only those repositories are served.
ROOT=$WORK/root2604
MACHINE_2604=$SOURCE/tests/machines/ubuntu2604-rx7900xtx/root
KERNEL_2604=$(cat "$MACHINE_2604/proc/sys/kernel/osrelease")
say "run 6: a fresh Ubuntu 26.04 ($KERNEL_2604), repositories laid out as for ROCm 10.1.0"
rm "$ROOT$LEFTOVER"
fake_machine "$MACHINE_2604"
BOOT_2604=$(cat "$ROOT/proc/sys/kernel/random/boot_id")
# Debian's /etc/os-release is a link to /usr/lib/os-release: both become Ubuntu's.
rm "$ROOT/etc/os-release"
cp "$MACHINE_2604/etc/os-release" "$ROOT/etc/os-release"
cp "$MACHINE_2604/usr/lib/os-release" "$ROOT/usr/lib/os-release"
[ -e "$ROOT/var/lib/rocmdoc" ] && fail "the copy for step 6 is not fresh: /var/lib/rocmdoc exists"

DRIVER_REPO_2604=$SRV/amdgpu/31.60/ubuntu
CORE_REPO_2604=$SRV/amd-stable/rocm/core/packages/ubuntu2604
make_deb dkms 3.0.10-8+rocmdoctest "" "$DRIVER_REPO_2604"
make_deb amdgpu-dkms "1:6.16.13.31600000-2278356.26.04" dkms "$DRIVER_REPO_2604"
core_sdk_debs 10.1.0 "$CORE_REPO_2604" gfx1100 gfx942
kernel_debs "$KERNEL_2604" 7.0.0-15.15 "$SRV/kernel-resolute" "linux-modules-extra-$KERNEL_2604"
# The GA kernel's meta package (empty: no real kernel is installed), for run 6k.
make_deb linux-generic 7.0.0.15.15 "" "$SRV/kernel-resolute"
index_repo "$DRIVER_REPO_2604" resolute repo.radeon.com
index_repo "$CORE_REPO_2604" stable stable.repo.amd.com
index_repo "$SRV/kernel-resolute" resolute "rocmdoc test kernel"
gpgconf --homedir "$GNUPGHOME" --kill gpg-agent
machine_sources "$BASE/kernel-resolute" resolute

# Run 6k: booted into an older kernel (6.17), which 10.1.0 does not list
# for 26.04 (GA 7.0): the plan asks apt whether linux-generic is a 7.0
# kernel (apt-cache show, real apt), installs it and stops for the reboot
# before the driver; the reboot into 7.0 is the fake one, and run 6 goes on
# from there in a plan without the kernel steps.
echo 6.17.0-5-generic >"$ROOT/proc/sys/kernel/osrelease"
say "run 6k: booted 6.17.0-5-generic, which ROCm 10.1.0 does not list: the listed kernel first"
set +e; rocmdoc "${INSTALL[@]}" --auto --yes >"$WORK/run6k.out" 2>&1; rc=$?; set -e
expect_exit 5 $rc run6k
# The gate passed on apt's own answer: the journal decides (the plan printed
# before the run names the gate's title too).
[ "$(in_root dpkg-query -W -f='${Version}' linux-generic)" = "7.0.0.15.15" ] || fail "run 6k did not install linux-generic 7.0"
installed amdgpu-dkms && fail "run 6k built the driver for the kernel it was about to leave"
journal "import sys
done = [e['step'] for e in j['done']]
if done[-2:] != ['kernel-candidate', 'listed-kernel']:
    sys.exit('journal: run 6k ended with %s' % done[-3:])
if j.get('reboot_requested_by') != 'kernel-reboot' or not j['reboot_requested_in_boot']:
    sys.exit('journal: reboot %r by %r' % (j['reboot_requested_in_boot'], j.get('reboot_requested_by')))" ||
  fail "run 6k did not record the kernel's reboot request"
echo "$KERNEL_2604" >"$ROOT/proc/sys/kernel/osrelease"
new_boot_id
BOOT_2604=$(cat "$ROOT/proc/sys/kernel/random/boot_id")

# No --rocm, no --trust-key: Ubuntu 26.04's default is 10.1.0.
PLAN=$WORK/plan2604.json
rocmdoc "${INSTALL[@]}" --json >"$PLAN" || fail "install --json on Ubuntu 26.04 failed: $(cat "$PLAN")"
[ "$(plan 'print(p["plan"]["distro"], p["plan"]["rocm"], p["plan"]["driver"])')" = "ubuntu 26.04 10.1.0 31.60" ] ||
  fail "the plan on Ubuntu 26.04 is not ROCm 10.1.0 with driver 31.60: $(plan 'print(p["plan"])')"
STEPS_2604=$(plan 'print(" ".join(s["id"] for s in p["steps"]))')
say "plan: $STEPS_2604"
# The local copy of Debian's packages (fixture.sh) holds what the Debian
# plans name; a 26.04 plan naming another package would fail in apt's words.
for name in $(plan 'print(" ".join(n for s in p["steps"] if s["id"] in ("apt-base", "headers") for c in s["checks"] if c["kind"] == "packages_installed" for n in c["names"]))'); do
  in_root apt-cache policy "$name" | grep -q 'Candidate: [^(]' ||
    fail "the Ubuntu 26.04 plan installs $name, which no served repository has (fixture.sh's local Debian packages: add its plan)"
done

set +e; rocmdoc "${INSTALL[@]}" --auto --yes >"$WORK/run6.out" 2>&1; rc=$?; set -e
expect_exit 5 $rc run6
head -n 1 "$WORK/run6.out" | grep -q "ROCm 10.1.0 on Ubuntu 26.04 .*driver amdgpu 31.60" ||
  fail "run 6 does not install ROCm 10.1.0 with driver 31.60: $(head -n 1 "$WORK/run6.out")"
[ "$(in_root dpkg-query -W -f='${Version}' amdgpu-dkms)" = "1:6.16.13.31600000-2278356.26.04" ] ||
  fail "amdgpu-dkms is not the 31.60 stand-in"

say "run 6b: the reboot (a new boot id, the DKMS amdgpu loaded), then --resume: ROCm 10.1.0 and verify-rocm"
new_boot_id
BOOT_2604B=$(cat "$ROOT/proc/sys/kernel/random/boot_id")
echo "6.16.13" >"$ROOT/sys/module/amdgpu/version"
set +e; rocmdoc "${INSTALL[@]}" --resume --yes >"$WORK/run6b.out" 2>&1; rc=$?; set -e
expect_exit 0 $rc run6b
grep -q "rocminfo shows the GPU" "$WORK/run6b.out" || fail "run 6b did not reach verify-rocm"

# The keys: the pinned one, for both (the rules copy pins the test key).
for keyring in amdrocm.gpg rocm.gpg; do
  [ "$(fingerprint_of "$ROOT/etc/apt/keyrings/$keyring")" = "$FINGERPRINT" ] || fail "$keyring does not hold the test key"
done
core_source ubuntu2604 | cmp -s - "$ROOT/etc/apt/sources.list.d/amdrocm-stable.sources" ||
  fail "amdrocm-stable.sources is not the ubuntu2604 source: $(cat "$ROOT/etc/apt/sources.list.d/amdrocm-stable.sources")"
[ "$(cat "$ROOT/etc/apt/sources.list.d/amdgpu.list")" = \
  "deb [arch=amd64,i386 signed-by=/etc/apt/keyrings/rocm.gpg] $BASE/amdgpu/31.60/ubuntu resolute main" ] ||
  fail "amdgpu.list does not name 31.60 and resolute: $(cat "$ROOT/etc/apt/sources.list.d/amdgpu.list")"
[ -e "$ROOT/etc/apt/sources.list.d/rocm.list" ] && fail "a legacy rocm.list was written on Ubuntu 26.04"
for p in curl gnupg libatomic1 libquadmath0 "linux-headers-$KERNEL_2604" "linux-modules-extra-$KERNEL_2604" \
  dkms amdgpu-dkms amdrocm10.1-gfx1100 amdrocm-base10.1; do
  installed "$p" || fail "$p is not installed"
done
# The package for this GPU's target, not every target's.
for p in amdrocm10.1 amdrocm10.1-gfx942; do installed "$p" && fail "$p is installed"; done
in_root apt-cache policy amdrocm10.1-gfx1100 | grep -q "$BASE/amd-stable/rocm/core/packages/ubuntu2604 stable/main" ||
  fail "amdrocm10.1-gfx1100 is not from the ubuntu2604 repository"
in_root id -nG alex | tr ' ' '\n' | grep -qx render || fail "alex is not in render"
journal "import sys
# Run 6k's kernel steps were recorded before the reboot into 7.0 (the
# kernel-reboot itself is not: its request was met by that reboot).
ids = [e['step'] for e in j['done'] if e['step'] not in ('kernel-candidate', 'listed-kernel')]
if [e['step'] for e in j['done'] if e['step'] in ('kernel-candidate', 'listed-kernel')] != ['kernel-candidate', 'listed-kernel']:
    sys.exit('journal: no kernel steps of run 6k in %s' % [e['step'] for e in j['done']])
want = '$STEPS_2604'.split()
if ids != want or j['reboot_requested_in_boot'] or j['plan_key'] != 'install ubuntu-26.04 rocm-10.1.0 driver-31.60':
    sys.exit('journal: entries %s, reboot pending %r, plan %s' % (ids, j['reboot_requested_in_boot'], j['plan_key']))
boots = {e['step']: e['boot_id'] for e in j['done']}
if boots['amdgpu-dkms'] != '$BOOT_2604' or boots['rocm'] != '$BOOT_2604B' or boots['verify-rocm'] != '$BOOT_2604B':
    sys.exit('journal: boot ids %s' % boots)" || fail "the journal of the Ubuntu 26.04 install is not complete"

say "run 6c: again: every step already done, nothing changes"
nothing_left run6c "${INSTALL[@]}" --auto --yes
[ "$(grep -c ': already done (' "$WORK/run6c.out")" = "$(echo "$STEPS_2604" | wc -w)" ] || fail "run 6c did not find every step done"

say "passed: killed, resumed, rebooted, resumed, nothing left to do; the Core SDK line by its pinned key; ROCm 10.1.0 on Ubuntu 26.04"
