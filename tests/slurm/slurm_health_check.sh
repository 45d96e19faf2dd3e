#!/bin/bash
# The Slurm integration test of `rocmdoc check --health-check --drain`
# (docs/fleet.md, Slurm): a real one-node cluster from Debian's slurm-wlm and
# munge, on localhost, in a temporary directory.
#
#   slurm_health_check.sh ROCMDOC_BINARY SOURCE_DIR
#
# A private munge key and socket; slurmctld and slurmd on free ports with a
# slurm.conf written here (own state, spool and log directories). Its
# HealthCheckProgram is a wrapper that runs the built rocmdoc
# `check --health-check --drain --root DIR/machine`, where DIR/machine is a
# symlink to a recorded machine. Then:
#   1. machine -> a broken recording (amdgpu not loaded): the node goes DRAIN
#      with rocmdoc's reason;
#   2. machine -> a healthy recording: rocmdoc resumes it, the node is IDLE;
#   3. drained by hand with another reason: two more health checks later it
#      is still drained with that reason;
#   4. the broken recording again: the hand's drain and reason still stand.
# Every daemon started here is stopped on exit (trap); each wait is bounded,
# so the whole test ends within about 80 s even when it fails. It needs root
# and the packages; without them it prints one line saying why and exits 77
# (skipped).
# ROCMDOC_SLURM_KEEP=1 keeps the work directory for a post-mortem.
set -euo pipefail

BINARY=${1:?usage: slurm_health_check.sh ROCMDOC_BINARY SOURCE_DIR}
SOURCE=${2:?usage: slurm_health_check.sh ROCMDOC_BINARY SOURCE_DIR}
SKIP=77
START=$SECONDS
BROKEN=$SOURCE/tests/machines/desktop-amdgpu-not-loaded/root
HEALTHY=$SOURCE/tests/machines/ubuntu2404-rx7900xtx/root

skip() { echo "SKIP: the Slurm health-check test cannot run here: $*"; exit $SKIP; }
[ "$(id -u)" = 0 ] || skip "it needs root (slurmd runs the health check as root)"
for tool in slurmctld slurmd scontrol munged mungekey python3; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (packages slurm-wlm and munge)"
done

WORK=$(mktemp -d /tmp/rocmdoc-slurm.XXXXXX)
chmod 755 "$WORK"
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ "${ROCMDOC_SLURM_KEEP:-}" = 1 ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*"
  for log in slurmctld slurmd munged health; do
    [ -f "$WORK/log/$log.log" ] && { echo "--- $log.log (last 20 lines)"; tail -n 20 "$WORK/log/$log.log"; }
  done
  exit 1
}

mkdir -p "$WORK"/{munge,state,spool,log,etc}
chmod 700 "$WORK/munge"

# munge: its own key and socket, so nothing of a munge the host may run is used.
mungekey --create --keyfile="$WORK/munge/munge.key" >/dev/null 2>&1 \
  || dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$WORK/munge/munge.key"
SOCKET=$WORK/munge/munge.socket
munged --foreground --force --socket="$SOCKET" --key-file="$WORK/munge/munge.key" \
  --pid-file="$WORK/munge/munged.pid" --seed-file="$WORK/munge/munged.seed" \
  --log-file="$WORK/log/munged.log" >>"$WORK/log/munged.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$SOCKET" ] && break; sleep 0.1; done
[ -S "$SOCKET" ] || fail "munged did not open its socket"

read -r CTLD_PORT SLURMD_PORT < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])')

NODE=rocmdoc-test-node
HOST=$(hostname -s)
ln -s "$BROKEN" "$WORK/machine"
# The health check: the built rocmdoc on whatever DIR/machine points at. Each
# run appends its line to health.log, so the test can count runs.
cat >"$WORK/etc/health-check" <<WRAPPER
#!/bin/sh
export SLURM_CONF='$WORK/etc/slurm.conf' PATH=/usr/sbin:/usr/bin:/sbin:/bin
'$BINARY' check --health-check --drain --root '$WORK/machine' >>'$WORK/log/health.log' 2>&1
echo "exit \$?" >>'$WORK/log/health.log'
WRAPPER
chmod 755 "$WORK/etc/health-check"

cat >"$WORK/etc/slurm.conf" <<CONF
ClusterName=rocmdoc-test
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
AuthInfo=socket=$SOCKET
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/linear
ReturnToService=2
MailProg=/bin/true
HealthCheckProgram=$WORK/etc/health-check
HealthCheckInterval=2
HealthCheckNodeState=ANY
SlurmctldTimeout=10
SlurmdTimeout=30
NodeName=$NODE NodeHostname=$HOST NodeAddr=127.0.0.1 CPUs=1 RealMemory=100 State=UNKNOWN
PartitionName=test Nodes=$NODE Default=YES State=UP
CONF
export SLURM_CONF=$WORK/etc/slurm.conf

slurmctld -D -i -f "$SLURM_CONF" >>"$WORK/log/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -N "$NODE" -f "$SLURM_CONF" >>"$WORK/log/slurmd.out" 2>&1 &
PIDS+=($!)

state() { scontrol show node "$NODE" 2>/dev/null | sed -n 's/.* State=\([^ ]*\).*/\1/p'; }
reason() { scontrol show node "$NODE" 2>/dev/null | sed -n 's/^ *Reason=//p'; }
runs() { grep -c '^exit ' "$WORK/log/health.log" 2>/dev/null || true; }
wait_for() {  # wait_for SECONDS DESCRIPTION COMMAND...: until COMMAND succeeds
  local limit=$1 what=$2; shift 2
  local end=$((SECONDS + limit))
  until "$@"; do
    [ $SECONDS -lt $end ] || fail "$what: not within ${limit}s (state '$(state)', reason '$(reason)')"
    sleep 0.5
  done
}

drained_by_rocmdoc() { [[ $(state) == *DRAIN* && $(reason) == "rocmdoc: "* ]]; }
wait_for 30 "the node drained by rocmdoc on the broken machine" drained_by_rocmdoc
echo "ok: drained on the broken machine: $(reason)"
[[ $(reason) == "rocmdoc: amdgpu-blacklisted: "* ]] || fail "the reason does not name the finding: $(reason)"
grep -q '^rocmdoc: ERROR amdgpu-blacklisted: .*; drained node '"$NODE"'$' "$WORK/log/health.log" \
  || fail "no health-check line saying it drained the node"

ln -sfn "$HEALTHY" "$WORK/machine"
idle() { [[ $(state) == IDLE ]]; }
wait_for 15 "the node resumed on the healthy machine" idle
grep -q '^rocmdoc: healthy (0 errors, .*); resumed node '"$NODE"' (drained by rocmdoc)$' "$WORK/log/health.log" \
  || fail "no health-check line saying it resumed the node"
echo "ok: resumed on the healthy machine: state $(state)"

scontrol update NodeName="$NODE" State=DRAIN Reason="maintenance by hand"
before=$(runs)
two_more_runs() { [ "$(runs)" -ge $((before + 2)) ]; }
wait_for 15 "two more health checks" two_more_runs
[[ $(state) == *DRAIN* ]] || fail "the node drained by hand is no longer drained: $(state)"
[[ $(reason) == "maintenance by hand"* ]] || fail "the hand-drained node's reason changed: $(reason)"
echo "ok: a node drained by hand stays drained: $(reason)"

# An error on that node does not take it over either: the reason stays the hand's.
ln -sfn "$BROKEN" "$WORK/machine"
before=$(runs)
wait_for 15 "two more health checks on the broken machine" two_more_runs
[[ $(state) == *DRAIN* && $(reason) == "maintenance by hand"* ]] \
  || fail "an error took over the node drained by hand: state $(state), reason $(reason)"
tail -n 2 "$WORK/log/health.log" | grep -q '; node '"$NODE"' left as it is (IDLE+DRAIN, reason: maintenance by hand)$' \
  || fail "the health check did not say it left the node as it is"
echo "ok: an error leaves the node drained by hand as it is: $(reason)"
echo "PASS in $((SECONDS - START))s"
