#!/usr/bin/env bash
# Times `rocmdoc fleet merge` on 10,000 reports (issue #16's budget: under
# 2 s on a 2-core machine), with hyperfine, and its peak memory.
#
#   bench/fleet-merge.sh [path/to/rocmdoc]
#
# The reports are `rocmdoc check --json` on each fixture machine
# (tests/machines/*/root), written again under node names node00001...:
# a fleet of the fixtures' shapes, each report the size a real one is.
# NODES=N changes the count; RUNS=N the runs.
# Needs: hyperfine (apt-get install hyperfine), python3.
set -euo pipefail
cd "$(dirname "$0")/.."
rocmdoc=${1:-build/rocmdoc}
nodes=${NODES:-10000}
out=bench/out
reports=$out/fleet-reports
mkdir -p "$out"

command -v hyperfine >/dev/null || { echo "hyperfine is missing: apt-get install hyperfine" >&2; exit 2; }
[ -x "$rocmdoc" ] || { echo "$rocmdoc is not built: cmake --build build --target rocmdoc" >&2; exit 2; }

rm -rf "$reports"
mkdir -p "$reports/templates"
for root in tests/machines/*/root; do
  name=$(basename "$(dirname "$root")")
  # check exits 1 when it finds problems: that is a report too.
  "$rocmdoc" check --json --root "$root" > "$reports/templates/$name.json" || [ $? -eq 1 ]
done
python3 - "$reports" "$nodes" <<'PY'
import json, os, sys
reports, nodes = sys.argv[1], int(sys.argv[2])
templates = []
for f in sorted(os.listdir(f"{reports}/templates")):
    j = json.load(open(f"{reports}/templates/{f}"))
    j["facts"]["host"]["hostname"] = "@@HOST@@"
    templates.append(json.dumps(j, indent=2))
for i in range(1, nodes + 1):
    name = f"node{i:05}"
    with open(f"{reports}/{name}.json", "w") as out:
        out.write(templates[i % len(templates)].replace('"@@HOST@@"', json.dumps(name)))
PY
rm -rf "$reports/templates"
size=$(du -sm "$reports" | cut -f1)
echo "$nodes reports, $size MB in $reports"

# -i: merge exits 1 when a node has an error; that is a result, not a failure.
hyperfine --shell=none -i --warmup 1 --runs "${RUNS:-10}" --export-json "$out/fleet-merge.json" \
  --command-name "fleet merge" "$rocmdoc fleet merge --json $reports"
/usr/bin/time -f "peak RSS: %M KB" "$rocmdoc" fleet merge "$reports" > "$out/fleet-merge.txt" || true
head -5 "$out/fleet-merge.txt" | cut -c1-160
python3 - "$out/fleet-merge.json" "$nodes" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f"fleet merge of {sys.argv[2]} reports: mean {r['mean']:.3f} s (± {r['stddev']:.3f}), median {r['median']:.3f} s")
# CPU time too: on a shared machine the wall time also counts the waits for a core.
print(f"  CPU: user {r['user']:.3f} s + system {r['system']:.3f} s; load average now {open('/proc/loadavg').read().split()[0]}")
PY
