#!/bin/bash
# The Ansible integration test (docs/fleet.md, Ansible): Debian's
# ansible-core against localhost with connection: local.
#
#   ansible_integration.sh ROCMDOC_BINARY SOURCE_DIR
#
#   1. packaging/ansible/rocmdoc.fact in a temporary facts.d (setup's
#      fact_path), pointed at a recorded machine (ROCMDOC, ROCMDOC_ROOT):
#      `ansible -m setup` shows ansible_local.rocmdoc, the same object
#      `rocmdoc facts --format ansible` prints, with the machine's finding
#      and GPU;
#   2. packaging/ansible/collect-reports.yml with rocmdoc --root on that
#      machine: the fetched reports/localhost.json is byte for byte what
#      `rocmdoc check --json` prints there (but for when the facts were
#      collected).
# ROCMDOC_ANSIBLE_KEEP=1 keeps the work directory.
# Without ansible-core it prints one line saying why and exits 77 (skipped).
set -euo pipefail

BINARY=${1:?usage: ansible_integration.sh ROCMDOC_BINARY SOURCE_DIR}
SOURCE=${2:?usage: ansible_integration.sh ROCMDOC_BINARY SOURCE_DIR}
START=$SECONDS
MACHINE=$SOURCE/tests/machines/desktop-amdgpu-not-loaded/root

skip() { echo "SKIP: the Ansible test cannot run here: $*"; exit 77; }
for tool in ansible ansible-playbook python3; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (package ansible-core)"
done

WORK=$(mktemp -d /tmp/rocmdoc-ansible.XXXXXX)
trap '[ "${ROCMDOC_ANSIBLE_KEEP:-}" = 1 ] && echo "kept $WORK" || rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Ansible's own state in the work directory: no ~/.ansible, no config of the
# host's, no colours, the interpreter named (no discovery warning).
mkdir -p "$WORK/home" "$WORK/tmp" "$WORK/facts.d"
cat >"$WORK/ansible.cfg" <<CFG
[defaults]
local_tmp = $WORK/tmp
remote_tmp = $WORK/tmp
interpreter_python = /usr/bin/python3
nocolor = true
retry_files_enabled = false
CFG
export ANSIBLE_CONFIG=$WORK/ansible.cfg HOME=$WORK/home
export ROCMDOC=$BINARY ROCMDOC_ROOT=$MACHINE

# 1. The local fact.
cp "$SOURCE/packaging/ansible/rocmdoc.fact" "$WORK/facts.d/"
"$BINARY" facts --format ansible --root "$MACHINE" >"$WORK/direct.json" || fail "rocmdoc facts --format ansible failed"
# --tree: each host's result as JSON in a file (ansible-core's tree callback).
ansible localhost -i localhost, -c local -m ansible.builtin.setup -a "fact_path=$WORK/facts.d filter=ansible_local" \
  --tree "$WORK/tree" >"$WORK/setup.out" 2>&1 || { cat "$WORK/setup.out"; fail "ansible -m setup failed"; }
python3 - "$WORK/tree/localhost" "$WORK/direct.json" <<'PY' || fail "ansible_local.rocmdoc is not what rocmdoc printed"
import json, sys
run = json.load(open(sys.argv[1]))
facts = run["ansible_facts"]
fact = facts["ansible_local"]["rocmdoc"]
direct = json.load(open(sys.argv[2]))
assert fact == direct, (fact, direct)
assert fact["summary"]["healthy"] is False, fact["summary"]
ids = {(f["id"], f["severity"]) for f in fact["findings"]}
assert ("amdgpu-blacklisted", "error") in ids, ids
assert [g["gfx"] for g in fact["gpus"]] == ["gfx1030"], fact["gpus"]
print("ok: ansible_local.rocmdoc:", json.dumps(fact["summary"]), "gpus", json.dumps(fact["gpus"]))
PY

# 2. The playbook that collects the reports.
status=0
"$BINARY" check --json --root "$MACHINE" >"$WORK/expected.json" || status=$?
[ "$status" = 1 ] || fail "check --json on the broken machine exited $status, not 1"
ansible-playbook -i localhost, -c local "$SOURCE/packaging/ansible/collect-reports.yml" \
  -e "rocmdoc=$BINARY" -e "{\"rocmdoc_args\": [\"--root\", \"$MACHINE\"]}" \
  -e "reports_dir=$WORK/reports" -e "rocmdoc_report=$WORK/host-report.json" >"$WORK/playbook.out" 2>&1 \
  || { cat "$WORK/playbook.out"; fail "the playbook failed"; }
[ -f "$WORK/reports/localhost.json" ] || { cat "$WORK/playbook.out"; fail "no reports/localhost.json"; }
# The same bytes but for when the facts were collected.
when='s/"collected_at": "[^"]*"/"collected_at": "-"/'
sed "$when" "$WORK/expected.json" >"$WORK/expected.cmp"
sed "$when" "$WORK/reports/localhost.json" >"$WORK/fetched.cmp"
grep -q '"collected_at": "-"' "$WORK/fetched.cmp" || fail "the fetched report has no collected_at"
cmp "$WORK/expected.cmp" "$WORK/fetched.cmp" || fail "the fetched report differs from rocmdoc check --json"
echo "ok: fetched reports/localhost.json ($(wc -c <"$WORK/reports/localhost.json") bytes, as check --json printed it)"
echo "PASS in $((SECONDS - START))s"
