#!/usr/bin/env bash
# Times `rocmdoc check` against PyTorch's environment report
# (`python3 -m torch.utils.collect_env`, from Debian's python3-torch) on this
# machine, in the same run, with hyperfine, and prints the ratio.
#
#   bench/check-vs-collect-env.sh [path/to/rocmdoc]
#
# Needs: hyperfine and python3-torch (apt-get install hyperfine python3-torch).
# Both commands read the same machine; rocmdoc reads files, collect_env
# imports torch and runs tools, which is what the ratio shows.
set -euo pipefail
cd "$(dirname "$0")/.."
rocmdoc=${1:-build/rocmdoc}
python=/usr/bin/python3
out=bench/out
mkdir -p "$out"

command -v hyperfine >/dev/null || { echo "hyperfine is missing: apt-get install hyperfine" >&2; exit 2; }
[ -x "$rocmdoc" ] || { echo "$rocmdoc is not built: cmake --build build" >&2; exit 2; }
"$python" -c 'import torch' 2>/dev/null || { echo "python3-torch is missing: apt-get install python3-torch" >&2; exit 2; }

# -i: check exits 1 when it finds problems; that is a result, not a failure.
hyperfine --shell=none -i --warmup 2 --runs "${RUNS:-15}" --export-json "$out/check-vs-collect-env.json" \
  --command-name "rocmdoc check" "$rocmdoc check --json" \
  --command-name "torch collect_env" "$python -m torch.utils.collect_env"

"$python" - "$out/check-vs-collect-env.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
a, b = r["rocmdoc check"], r["torch collect_env"]
print(f"rocmdoc check:     mean {a['mean']*1000:9.2f} ms  (± {a['stddev']*1000:.2f})")
print(f"torch collect_env: mean {b['mean']*1000:9.2f} ms  (± {b['stddev']*1000:.2f})")
print(f"ratio: collect_env takes {b['mean']/a['mean']:.0f}x as long as rocmdoc check")
# Medians too: on a small VM a few slow runs (a vCPU woken late) move the mean.
print(f"       (medians: {a['median']*1000:.2f} ms and {b['median']*1000:.2f} ms, {b['median']/a['median']:.0f}x)")
PY
