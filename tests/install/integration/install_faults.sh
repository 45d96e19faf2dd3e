#!/bin/bash
# Faults during `rocmdoc install` (issue 17, docs/install.md "Faults during
# an install"), in the Debian 12 root of the integration test (fixture.sh
# builds it: real apt and dpkg, stand-in packages over https):
#
#   install_faults.sh ROCMDOC_BINARY SOURCE_DIR
#
# 1. The reference: a copy of the prepared root, installed without a fault
#    (--auto --yes, the fake reboot, --resume --yes).
# 2. Power cuts, in one timeline: rocmdoc runs again and again in one root,
#    each run killed (SIGKILL to its whole process group) at the next point:
#    - every step boundary: right after the journal records step N, and for a
#      step that changes the machine also right before (the change made, not
#      yet recorded); the reboot request likewise;
#    - the middle of every step that changes the machine: a list, the pin,
#      the keyring, the downloaded key or the loader's file written beside
#      its place and not yet renamed; dpkg unpacking a dependency apt pulled
#      in (apt-base), the headers, rocm; amdgpu-dkms's postinst, then again
#      inside the dpkg step's `dpkg --configure -a`; usermod replacing
#      /etc/group; apt-get update storing AMD's index; leftover-repos and
#      ldconf between their two actions.
#    kill_shim.c, preloaded into rocmdoc and everything it starts, does the
#    kill: rocmdoc has no test hook. After each kill: no process of the run
#    is left; the journal is whole, keeps every earlier entry unchanged and
#    gained exactly the expected step; every step it records as done is done
#    (packages, files, groups, apt's view: checked from outside, not by
#    rocmdoc); every file rocmdoc writes is absent or whole; the only
#    temporary is the one the kill interrupted. At the end the root has the
#    reference's dpkg database, files (/etc/apt, /opt/rocm*, groups, loader),
#    journal steps, and no temporaries.
# 3. A full disk under the journal (a 1 MiB tmpfs on /var/lib/rocmdoc,
#    filled), in a copy of the timeline's root taken before ldconf: exit 4
#    when ldconf is to be recorded, the message names the journal and the
#    error, the journal is the one before byte for byte, nothing beside it;
#    with space again the same command carries on to the reference's state.
# 4. A read-only /etc/apt (a read-only bind mount on it), in a copy taken
#    before amdgpu-list: exit 4 there, the message names the list file and
#    the reason, no file, no temporary, nothing recorded; writable again, it
#    carries on to the reference's state.
#
# Needs root, mount, and what install_integration.sh needs; else it says why
# in one line and exits 77. ROCMDOC_IT_* as there.
set -euo pipefail

BINARY=${1:?usage: install_faults.sh ROCMDOC_BINARY SOURCE_DIR}
SOURCE=${2:?usage: install_faults.sh ROCMDOC_BINARY SOURCE_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
SKIP=77
START=$SECONDS
IT_NAME="the install fault test"

# Mounts made inside the roots, undone (newest first) at cleanup.
MOUNTED=()
fixture_unmount() {
  local i
  for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do umount "${MOUNTED[i]}" 2>/dev/null || umount -l "${MOUNTED[i]}"; done
  MOUNTED=()
}
unmount_last() {
  umount "${MOUNTED[-1]}"
  unset 'MOUNTED[-1]'
}

source "$HERE/fixture.sh"

# ---------------------------------------------------------------- the prepared root
# AMD's key where the recipe looks (the fixture starts with an impostor's).
cp "$WORK/rocm.gpg.key" "$SRV/rocm/rocm.gpg.key"
cc -shared -fPIC -O2 -Wall -Wextra -o "$TOOL/kill_shim.so" "$HERE/kill_shim.c" -ldl || fail "the kill shim does not build"
mount --bind "$WORK/tls" "$WORK/tls" 2>/dev/null || skip "mount is not allowed here"
umount "$WORK/tls"

JOURNAL=/var/lib/rocmdoc/install.json
# What the plan writes, from the plan itself.
write_path() { plan "print(next(a['path'] for s in p['steps'] if s['id'] == '$1' for a in s['actions'] if a['kind'] == '$2'))"; }
write_content() { plan "print(next(a['content'] for s in p['steps'] if s['id'] == '$1' for a in s['actions'] if a['kind'] == 'write_file'), end='')"; }
AMDGPU_LIST=$(write_path amdgpu-list write_file)
ROCM_LIST=$(write_path rocm-list write_file)
PIN=$(write_path pin write_file)
LD_CONF=$(write_path ldconf write_file)
KEY_DOWNLOAD=$(write_path key download)
KEYRING=$(write_path key dearmor_key)
for step in amdgpu-list rocm-list pin ldconf; do write_content "$step" >"$WORK/planned.$step"; done
planned() { cmp -s "$WORK/planned.$1" "$ROOT$2"; }  # step path: the file is as the plan writes it
state_of() { plan "print(next(s['state'] for s in p['steps'] if s['id'] == '$1'))"; }
changes_machine() { [ "$(plan "print(next(s['changes_machine'] for s in p['steps'] if s['id'] == '$1'))")" = True ]; }

# One run of `rocmdoc ARGS` in a session of its own, the shim preloaded and
# armed at POINT (empty: inert). RC is its exit code; no process of it may
# outlive it.
fault_run() {  # name point args...
  local name=$1 point=$2 pid
  shift 2
  rm -f "$ROOT/rocmdoc-it-killed"
  setsid bash -c 'exec "$@"' _ env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin chroot "$ROOT" /usr/bin/env \
    HOME=/root LANG=C.UTF-8 LD_PRELOAD=/opt/rocmdoc-test/kill_shim.so ROCMDOC_IT_KILL_AT="$point" \
    ROCMDOC_IT_KILLED=/rocmdoc-it-killed "/opt/rocmdoc-test/$LOADER" --library-path /opt/rocmdoc-test \
    /opt/rocmdoc-test/rocmdoc "$@" >"$WORK/$name.out" 2>&1 &
  pid=$!
  set +e
  wait $pid 2>/dev/null  # not the shell's "Killed" notice
  RC=$?
  set -e
  for _ in $(seq 50); do pgrep -s $pid >/dev/null || break; sleep 0.1; done
  if pgrep -s $pid >/dev/null; then fail "$name: processes outlived the run: $(pgrep -a -s $pid)"; fi
}

# The same command again (the docs: before the reboot `--auto --yes` again,
# after it `--resume`).
ARGS=(--auto --yes)
# Runs (faking the reboot when asked) until the install finishes.
install_to_end() {  # name
  local n
  for n in 1 2 3; do
    fault_run "$1-$n" "" "${INSTALL[@]}" "${ARGS[@]}"
    case $RC in
      0) return 0 ;;
      5) fake_reboot ;;
      *) tail -n 30 "$WORK/$1-$n.out" >&2; fail "$1-$n: exit $RC" ;;
    esac
  done
  fail "$1 did not finish in three runs"
}
# What the integration test does for a reboot: a new boot id, the DKMS
# driver's sysfs file.
fake_reboot() {
  new_boot_id
  echo "6.16.13" >"$ROOT/sys/module/amdgpu/version"
  ARGS=(--resume --yes)
}

# ---------------------------------------------------------------- checks from outside
# The journal's entries, one "step finished_at boot_id" line each (nothing
# when there is no journal); fails when it is not a whole journal.
journal_entries() {
  [ -e "$ROOT$JOURNAL" ] || return 0
  python3 - "$ROOT$JOURNAL" <<'EOF' || fail "the journal is not whole: $(head -c 300 "$ROOT$JOURNAL")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["format"] == 1 and isinstance(j["plan_key"], str) and isinstance(j["reboot_requested_in_boot"], str)
for e in j["done"]:
    assert set(e) == {"step", "finished_at", "boot_id"}
    print(e["step"], e["finished_at"], e["boot_id"])
EOF
}
reboot_request() { python3 -c "import json; print(json.load(open('$ROOT$JOURNAL'))['reboot_requested_in_boot'])"; }
# What the package tools say now, asked once per kill.
look_now() {
  in_root dpkg-query -W -f='${Package} ${Status}\n' >"$WORK/now.status"
  in_root apt-cache policy rocm amdgpu-dkms >"$WORK/now.policy" 2>&1 || true
  in_root id -nG alex | tr ' ' '\n' >"$WORK/now.groups"
  in_root ldconfig -p >"$WORK/now.ldconfig"
  in_root update-alternatives --list rocm >"$WORK/now.alternatives" 2>&1 || true
  in_root dkms status -m amdgpu -k "$KERNEL" >"$WORK/now.dkms" 2>&1 || true
}
installed_now() {  # package...
  local p
  for p; do grep -qx "$p install ok installed" "$WORK/now.status" || return 1; done
}
# The step's effect is on the machine now (after look_now). Gates change
# nothing: what they checked belongs to the machine at the time (dpkg
# settled, a lock free).
holds() {  # step
  case $1 in
    leftover-repos) [ ! -e "$ROOT$LEFTOVER" ] && [ -e "$ROOT/var/lib/rocmdoc/disabled/${LEFTOVER##*/}" ] ;;
    apt-base) installed_now ca-certificates curl gnupg ;;
    headers) installed_now "linux-headers-$KERNEL" python3-setuptools python3-wheel &&
      [ -e "$ROOT/usr/src/linux-headers-$KERNEL/Makefile" ] &&
      [ "$(readlink "$ROOT/lib/modules/$KERNEL/build")" = "/usr/src/linux-headers-$KERNEL" ] ;;
    groups) grep -qx render "$WORK/now.groups" && grep -qx video "$WORK/now.groups" ;;
    key) [ "$(fingerprint_of "$ROOT$KEYRING")" = "$FINGERPRINT" ] ;;
    amdgpu-list) planned amdgpu-list "$AMDGPU_LIST" ;;
    rocm-list) planned rocm-list "$ROCM_LIST" ;;
    pin) planned pin "$PIN" ;;
    apt-update) grep -qF "$BASE/rocm/apt/$ROCM $CODENAME/main" "$WORK/now.policy" &&
      grep -qF "$BASE/amdgpu/$DRIVER/ubuntu $CODENAME/main" "$WORK/now.policy" ;;
    amdgpu-dkms) installed_now amdgpu-dkms && grep -q installed "$WORK/now.dkms" ;;
    reboot) [ "$(awk '$1 == "reboot" { print $3 }' "$ENTRIES")" = "$(cat "$ROOT/proc/sys/kernel/random/boot_id")" ] ;;
    driver-loaded) [ -e "$ROOT/sys/module/amdgpu/version" ] ;;
    rocm) installed_now rocm ;;
    ldconf) planned ldconf "$LD_CONF" && grep -q "libamdhip64.so.7 .*/opt/rocm/lib/libamdhip64.so.7" "$WORK/now.ldconfig" ;;
    path) grep -qx "/opt/rocm-$ROCM" "$WORK/now.alternatives" ;;
    os | kernel | disk | apt-lock | dpkg | secureboot | headers-available | probe-repos | apt-simulate | verify-rocm) true ;;
    *) fail "no check from outside for step $1" ;;
  esac
}
# A file rocmdoc writes is absent or whole.
whole_or_absent() {  # path what [content-step]
  [ -e "$ROOT$1" ] || return 0
  case $2 in
    content) planned "$3" "$1" || fail "$1 is there but not as planned (half-written?)" ;;
    keyring) [ "$(fingerprint_of "$ROOT$1")" = "$FINGERPRINT" ] || fail "$1 is there but is not the keyring" ;;
    key) cmp -s "$WORK/rocm.gpg.key" "$ROOT$1" || fail "$1 is there but is not the downloaded key" ;;
  esac
}
# rocmdoc's temporaries anywhere in the root (and its GnuPG homes in /tmp).
temporaries() {
  find "$ROOT" -xdev \( -path "$ROOT/proc" -o -path "$ROOT/sys" \) -prune -o -name '*.tmp-rocmdoc-??????' -print | sed "s|^$ROOT||"
  find "$ROOT/tmp" -maxdepth 1 -name 'rocmdoc-gpg-*' | sed "s|^$ROOT||"
}

ENTRIES=$WORK/entries   # the journal after the last kill
: >"$ENTRIES"
# After a kill at POINT: the journal is whole and is the one before plus
# GAINS (a step id, or - for nothing); each step it records holds; each
# file rocmdoc writes is absent or whole; the only temporary is the one
# beside the file whose rename the kill stopped.
after_kill() {  # name point gains
  local name=$1 point=$2 gains=$3 step
  journal_entries >"$WORK/$name.entries"
  {
    cat "$ENTRIES"
    [ "$gains" = - ] || awk -v s="$gains" '$1 == s' "$WORK/$name.entries"
  } >"$WORK/$name.expected"
  diff "$WORK/$name.expected" "$WORK/$name.entries" >"$WORK/$name.journal.diff" ||
    fail "$name: the journal is not the one before $([ "$gains" = - ] && echo "unchanged" || echo "plus $gains"): $(cat "$WORK/$name.journal.diff")"
  [ "$gains" = - ] || grep -q "^$gains " "$WORK/$name.entries" || fail "$name: the journal does not record $gains"
  cp "$WORK/$name.entries" "$ENTRIES"
  look_now
  while read -r step _; do
    holds "$step" || fail "$name: the journal records $step as done, but it is not"
  done <"$ENTRIES"
  whole_or_absent "$AMDGPU_LIST" content amdgpu-list
  whole_or_absent "$ROCM_LIST" content rocm-list
  whole_or_absent "$PIN" content pin
  whole_or_absent "$LD_CONF" content ldconf
  whole_or_absent "$KEYRING" keyring
  whole_or_absent "$KEY_DOWNLOAD" key
  local beside=
  case $point in before-rename:/*) beside=${point#before-rename:} ;; esac
  temporaries | while read -r t; do
    [ -n "$beside" ] && [ "${t%.tmp-rocmdoc-??????}" = "$beside" ] ||
      fail "$name: a temporary is left that the kill did not interrupt: $t"
  done
}

# One run killed at POINT, then the checks above.
KILLS=0
cut() {  # name point gains
  local started=$SECONDS ran
  KILLS=$((KILLS + 1))
  fault_run "$1" "$2" "${INSTALL[@]}" "${ARGS[@]}"
  [ "$RC" = 137 ] && [ "$(cat "$ROOT/rocmdoc-it-killed" 2>/dev/null)" = "$2" ] ||
    { tail -n 20 "$WORK/$1.out" >&2; fail "$1: exit $RC, not killed at $2"; }
  ran=$((SECONDS - started))
  after_kill "$@"
  say "  $1: killed at $2 after ${ran}s; checked in $((SECONDS - started - ran))s"
}

# The points in the middle of a step, in the order the step reaches them.
middle_points() {  # step
  case $1 in
    leftover-repos) echo "exec:mv" ;;                              # after install -d, before mv
    apt-base) echo "before-rename:/usr/bin/gpg-agent" ;;           # dpkg unpacking gpg-agent (gnupg's dependency)
    headers) echo "before-rename:/usr/src/linux-headers-$KERNEL/Makefile" ;;
    groups) echo "before-rename:/etc/group" ;;                     # usermod, its locks held
    key) echo "before-rename:$KEY_DOWNLOAD"; echo "before-rename:$KEYRING" ;;
    amdgpu-list) echo "before-rename:$AMDGPU_LIST" ;;
    rocm-list) echo "before-rename:$ROCM_LIST" ;;
    pin) echo "before-rename:$PIN" ;;
    apt-update) echo "before-rename:/var/lib/apt/lists/$ROCM_INDEX" ;;
    # Half-configured; then the next run's dpkg step runs the postinst again
    # (dpkg --configure -a): killed there too.
    amdgpu-dkms) echo "exec:/var/lib/dpkg/info/amdgpu-dkms.postinst"; echo "exec:/var/lib/dpkg/info/amdgpu-dkms.postinst" ;;
    rocm) echo "before-rename:/opt/rocm-$ROCM/bin/rocminfo" ;;     # half-installed, rocm-core in before it
    ldconf) echo "before-rename:$LD_CONF"; echo "after-rename:$LD_CONF" ;;  # the file in place, ldconfig not run
  esac
}

# A writable copy of ROOT at $WORK/NAME that costs next to nothing to make
# and to remove: an overlay on ROOT, which must not change while the copy
# is mounted (else, where overlayfs is missing, cp -a).
copy_root() {  # name
  mkdir -p "$WORK/$1" "$WORK/$1.upper" "$WORK/$1.work"
  if mount -t overlay "rocmdoc-it-$1" -o "lowerdir=$ROOT,upperdir=$WORK/$1.upper,workdir=$WORK/$1.work" "$WORK/$1" 2>/dev/null; then
    MOUNTED+=("$WORK/$1")
  else
    rmdir "$WORK/$1"
    cp -a "$ROOT" "$WORK/$1"
  fi
}
drop_copy() {  # name
  if [ "${#MOUNTED[@]}" -gt 0 ] && [ "${MOUNTED[-1]}" = "$WORK/$1" ]; then unmount_last; fi
  rm -rf --one-file-system "${WORK:?}/$1" "$WORK/$1.upper" "$WORK/$1.work"
}

# Files with their content, links, modes and owners; not the journal's
# times and boot ids, nor dpkg's copies of its previous state.
DIFFERENT_BY_RIGHT=' var/lib/rocmdoc/install.json| var/lib/dpkg/[a-z]*-old( |$)'
# What the package tools say about the root.
views() {
  in_root dpkg-query -W -f='${Package} ${Version} ${Status}\n'
  in_root update-alternatives --query rocm
  in_root ldconfig -p
  in_root id alex
}
# Same as the reference: the journal's steps, the files, what the package
# tools say; no temporaries, nothing dpkg left half done.
same_as_reference() {  # what
  journal_entries | awk '{ print $1 }' | diff "$WORK/reference.steps" - >"$WORK/steps.diff" ||
    fail "$1: the journal's steps differ from the reference's: $(cat "$WORK/steps.diff")"
  [ "$(reboot_request)" = "" ] || fail "$1: a reboot request is left in the journal"
  [ -z "$(temporaries)" ] || fail "$1: temporaries are left: $(temporaries)"
  in_root dpkg --audit >"$WORK/audit.out" 2>&1 && [ ! -s "$WORK/audit.out" ] || fail "$1: dpkg --audit: $(cat "$WORK/audit.out")"
  views | diff "$WORK/reference.views" - >"$WORK/views.diff" ||
    fail "$1: the package tools see another machine than the reference: $(head -n 10 "$WORK/views.diff")"
  fingerprint_root | grep -Ev "$DIFFERENT_BY_RIGHT" >"$WORK/now.sums"
  diff "$WORK/reference.sums" "$WORK/now.sums" >"$WORK/differs.diff" ||
    fail "$1: the root differs from the reference's: $(head -n 20 "$WORK/differs.diff")"
}

# 3. A full disk under the journal, in a copy of the timeline's root.
full_disk_under_the_journal() {
  local timeline=$ROOT args=("${ARGS[@]}")
  say "a full disk under the journal: /var/lib/rocmdoc on a full 1 MiB tmpfs, in a copy of the root"
  copy_root full
  ROOT=$WORK/full
  cp -a "$ROOT/var/lib/rocmdoc" "$WORK/rocmdoc-before"
  mount -t tmpfs -o size=1m,mode=0755 rocmdoc-it-full "$ROOT/var/lib/rocmdoc"
  MOUNTED+=("$ROOT/var/lib/rocmdoc")
  cp -a "$WORK/rocmdoc-before/." "$ROOT/var/lib/rocmdoc/"
  cp "$ROOT$JOURNAL" "$WORK/journal-before-full.json"
  dd if=/dev/zero of="$ROOT/var/lib/rocmdoc/filler" bs=4k 2>/dev/null || true  # until the tmpfs is full
  fault_run full "" "${INSTALL[@]}" "${ARGS[@]}"
  expect_exit 4 "$RC" full
  grep -qF "Failed at step ldconf: the journal $JOURNAL could not be written ($JOURNAL: write: No space left on device): ldconf is done but not recorded." "$WORK/full.out" ||
    fail "the full disk's message does not say what failed: $(tail -n 5 "$WORK/full.out")"
  cmp -s "$WORK/journal-before-full.json" "$ROOT$JOURNAL" || fail "the journal changed on the full disk"
  [ -z "$(temporaries)" ] || fail "the full disk left temporaries: $(temporaries)"
  rm "$ROOT/var/lib/rocmdoc/filler"
  install_to_end full-freed
  # Back on the root's own disk, for the comparison.
  cp -a "$ROOT/var/lib/rocmdoc" "$WORK/rocmdoc-after"
  unmount_last
  rm -rf "${ROOT:?}/var/lib/rocmdoc"
  cp -a "$WORK/rocmdoc-after" "$ROOT/var/lib/rocmdoc"
  same_as_reference "after the full disk"
  ROOT=$timeline
  ARGS=("${args[@]}")
  drop_copy full
}

# 4. A read-only /etc/apt, in a copy of the timeline's root.
read_only_etc_apt() {
  local timeline=$ROOT args=("${ARGS[@]}")
  say "a read-only /etc/apt (a read-only bind mount), in a copy of the root"
  copy_root readonly
  ROOT=$WORK/readonly
  mount --bind "$ROOT/etc/apt" "$ROOT/etc/apt"
  MOUNTED+=("$ROOT/etc/apt")
  mount -o remount,bind,ro "$ROOT/etc/apt"
  cp "$ROOT$JOURNAL" "$WORK/journal-before-ro.json"
  fault_run readonly "" "${INSTALL[@]}" "${ARGS[@]}"
  expect_exit 4 "$RC" readonly
  grep -qF "Failed at step amdgpu-list: writing $AMDGPU_LIST failed: $AMDGPU_LIST: cannot create a temporary file beside it: Read-only file system" "$WORK/readonly.out" ||
    fail "the read-only /etc/apt's message does not name the file: $(tail -n 5 "$WORK/readonly.out")"
  [ -e "$ROOT$AMDGPU_LIST" ] && fail "$AMDGPU_LIST exists on a read-only /etc/apt"
  cmp -s "$WORK/journal-before-ro.json" "$ROOT$JOURNAL" || fail "the journal changed at the read-only /etc/apt"
  [ -z "$(temporaries)" ] || fail "the read-only /etc/apt left temporaries: $(temporaries)"
  unmount_last
  install_to_end readonly-writable
  same_as_reference "after the read-only /etc/apt"
  ROOT=$timeline
  ARGS=("${args[@]}")
  drop_copy readonly
}

# ---------------------------------------------------------------- 1. the reference
say "reference: a copy of the root installed without faults"
copy_root reference
TIMELINE=$ROOT
ROOT=$WORK/reference
install_to_end reference
journal_entries | awk '{ print $1 }' >"$WORK/reference.steps"
views >"$WORK/reference.views"
fingerprint_root | grep -Ev "$DIFFERENT_BY_RIGHT" >"$WORK/reference.sums"
# apt's name for AMD's ROCm index, as the reference stored it.
ROCM_INDEX=$(basename "$(echo "$ROOT/var/lib/apt/lists/"*"_rocm_apt_${ROCM}_dists_${CODENAME}_InRelease")")
[ -e "$ROOT/var/lib/apt/lists/$ROCM_INDEX" ] || fail "no index of AMD's ROCm repository in the reference's apt lists"
ROOT=$TIMELINE
ARGS=(--auto --yes)
drop_copy reference

# ---------------------------------------------------------------- 2. power cuts (3 and 4 on the way)
say "power cuts at every step boundary and in the middle of every step that changes the machine"
for step in $STEPS; do
  for point in $(middle_points "$step"); do cut "$step-middle" "$point" -; done
  if [ "$step" = reboot ]; then
    # The reboot step's change is the request in the journal.
    cut reboot-before-request "before-rename:$JOURNAL" -
    [ "$(reboot_request)" = "" ] || fail "the reboot request is recorded although its write was cut"
    cut reboot-after-request "after-rename:$JOURNAL" -
    [ "$(reboot_request)" = "$(cat "$ROOT/proc/sys/kernel/random/boot_id")" ] || fail "the reboot request is not recorded"
    fault_run reboot-not-yet "" "${INSTALL[@]}" "${ARGS[@]}"
    expect_exit 5 "$RC" reboot-not-yet
    grep -q "has not happened yet" "$WORK/reboot-not-yet.out" || fail "without a reboot, the run does not say it is still due"
    fake_reboot
  elif [ "$step" != leftover-repos ] && changes_machine "$step" && [ "$(state_of "$step")" != "done" ]; then
    # Its change made, not recorded (leftover-repos then leaves the plan: the
    # leftover is gone, so its boundary after is the one that is cut).
    cut "$step-before-record" "before-rename:$JOURNAL" -
  fi
  cut "$step-recorded" "after-rename:$JOURNAL" "$step"
  # Scenarios 4 and 3 start from this timeline, before the step that meets
  # the fault, and run to the end in a copy.
  case $step in
    probe-repos) read_only_etc_apt ;;
    rocm) full_disk_under_the_journal ;;
  esac
done
say "power cuts: the last run"
install_to_end last
same_as_reference "after the power cuts"
say "power cuts: $KILLS kills, then the reference's state"

say "passed: every power cut resumed to the reference's state; a read-only /etc/apt and a full disk stopped cleanly and resumed"
