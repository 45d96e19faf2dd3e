#!/usr/bin/env bash
# Throughput of `rocmdoc explain` on a large generated log against ripgrep
# searching the same patterns, in the same run, with hyperfine.
#
#   bench/explain-vs-rg.sh [path/to/rocmdoc]      (SIZE_MB=1024 RUNS=5 by default)
#
# Needs: hyperfine, ripgrep, python3 (apt-get install hyperfine ripgrep python3).
# The log is training-style noise with the corpus inputs of tests/explain/corpus/
# spread through it, so both tools find real errors. rocmdoc does more per
# match (captures, ranking, facts), rg only counts matching lines: the ratio
# is the price of explaining over plain searching.
set -euo pipefail
cd "$(dirname "$0")/.."
rocmdoc=${1:-build/rocmdoc}
size_mb=${SIZE_MB:-1024}
out=bench/out
mkdir -p "$out"

for tool in hyperfine rg python3; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install hyperfine ripgrep python3" >&2; exit 2; }
done
[ -x "$rocmdoc" ] || { echo "$rocmdoc is not built: cmake --build build" >&2; exit 2; }

log="$out/explain-bench-${size_mb}m.log"
if [ ! -s "$log" ]; then
  python3 - "$log" "$size_mb" <<'PY'
import glob, random, sys
path, size = sys.argv[1], int(sys.argv[2]) << 20
random.seed(1)
corpus = [open(f, "rb").read() for f in sorted(glob.glob("tests/explain/corpus/*.log"))]
noise = b"".join(b"2026-11-30 10:%02d:%02d INFO train.py:212 step %d loss=%.4f lr=3.0e-04 tok/s=%d\n"
                 % (i // 60 % 60, i % 60, i, random.random(), random.randint(4000, 6000)) for i in range(20000))
with open(path, "wb") as f:
    written = 0
    while written < size:
        f.write(noise); written += len(noise)
        doc = random.choice(corpus)
        f.write(doc); written += len(doc)
PY
fi
# rg joins the patterns into one regex, where capture names would clash:
# plain groups match the same text. (?-u:...) turns Unicode classes off, as
# rocmdoc matches bytes (Latin-1): with Unicode \b and \s rg 13 falls back to
# a slow engine on these patterns and takes minutes, which would flatter us.
# (?-u:) refuses a literal non-ASCII character, so each one becomes its
# UTF-8 bytes (\xC3\xB6 for ö), the bytes rocmdoc's Latin-1 pattern matches.
"$rocmdoc" rules patterns | python3 -c '
import re, sys
for line in sys.stdin.read().splitlines():
    line = re.sub(r"\(\?P<[a-z_]+>", "(", line)
    line = "".join(c if ord(c) < 128 else "".join("\\x%02X" % b for b in c.encode()) for c in line)
    print("(?-u:" + line + ")")
' > "$out/patterns.txt"
echo "log: $log ($(du -m "$log" | cut -f1) MiB), $(wc -l < "$out/patterns.txt") patterns"
# hyperfine -i ignores exit codes (rg exits 1 on no match): a pattern rg
# cannot parse (exit 2) must stop the bench, not time an instant failure.
rc=0; rg --no-config -c -f "$out/patterns.txt" /dev/null >/dev/null || rc=$?
[ "$rc" -le 1 ] || { echo "rg cannot read $out/patterns.txt (exit $rc): the ratio would be meaningless" >&2; exit 2; }

hyperfine --shell=none -i --warmup 1 --runs "${RUNS:-5}" --export-json "$out/explain-vs-rg.json" \
  --command-name "rocmdoc explain" "$rocmdoc explain --no-probe --json -f $log" \
  --command-name "rg" "rg --no-config -c -f $out/patterns.txt $log"

python3 - "$out/explain-vs-rg.json" "$log" <<'PY'
import json, os, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
mib = os.path.getsize(sys.argv[2]) / 2**20
a, b = r["rocmdoc explain"], r["rg"]
print(f"rocmdoc explain: {a['mean']:7.3f} s  ({mib / a['mean']:7.1f} MiB/s)")
print(f"rg:              {b['mean']:7.3f} s  ({mib / b['mean']:7.1f} MiB/s)")
print(f"ratio: rocmdoc explain takes {a['mean'] / b['mean']:.2f}x the time of rg")
PY
