#!/usr/bin/env bash
# Runs every libFuzzer target (tests/fuzz/) for MINUTES each, one after
# another, nice'd: the machine has few cores and others use them.
#
#   bench/fuzz.sh MINUTES [TARGET...]   (CPU minutes per target; default: every target)
#   ROCMDOC_FUZZ_NICE (19), ROCMDOC_FUZZ_SLICE (120 s), ROCMDOC_FUZZ_TIMEOUT (60 wall s per input)
#
# Needs clang and its libFuzzer runtime (Debian 12: apt-get install clang
# libclang-rt-14-dev, or clang-14's own lib/clang/14/lib/linux). Builds
# build-fuzz/ with -DROCMDOC_FUZZ=ON the first time. New inputs go to
# bench/out/fuzz/TARGET/corpus (the seeds in tests/fuzz/corpus/ stay as they
# are); a crash is written to bench/out/fuzz/TARGET/ as crash-*: copy it to
# tests/fuzz/regressions/TARGET/ with the fix, and the suite replays it.
# Prints, per target, the CPU time it used, its executions and crashes.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:?usage: bench/fuzz.sh MINUTES [TARGET...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(rules condition facts explain machine)
command -v clang++ >/dev/null || { echo "clang++ is missing: apt-get install clang" >&2; exit 2; }

build=build-fuzz
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -DROCMDOC_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
for t in "${targets[@]}"; do nice -n 10 cmake --build "$build" -j1 --target "fuzz_$t" >/dev/null; done

out=bench/out/fuzz
mkdir -p "$out"
# MINUTES is CPU time, not wall time: on a loaded machine a nice'd fuzzer
# gets a fraction of a core, and libFuzzer's -max_total_time counts wall
# seconds. So each target runs in slices (the corpus carries over) until the
# slices' user+system time reaches the budget.
budget=$((minutes * 60))
slice=${ROCMDOC_FUZZ_SLICE:-120}
printf '%-10s %10s %12s %8s\n' target cpu_s executions crashes
for t in "${targets[@]}"; do
  mkdir -p "$out/$t/corpus"
  log="$out/$t/fuzz.log"
  : >"$log"
  cpu=0 execs=0 idle=0
  while [ "$cpu" -lt "$budget" ]; do
    # -rss_limit_mb: a loader that expands an input past this is a finding.
    # Leak checks off: the targets keep the loaded knowledge in statics.
    # -timeout counts wall seconds, and a nice'd fuzzer on a busy machine
    # gets a fraction of a core: 20 s reported a condition input that runs
    # in 0.23 s alone. A real hang never ends, so 60 s still catches it;
    # replay any timeout-* alone before calling it a finding.
    /usr/bin/time -f '%U %S' -o "$out/$t/time" \
      env ASAN_OPTIONS=detect_leaks=0 nice -n "${ROCMDOC_FUZZ_NICE:-19}" "$build/fuzz_$t" -max_total_time="$slice" \
        -rss_limit_mb=2048 -timeout="${ROCMDOC_FUZZ_TIMEOUT:-60}" -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$out/$t/" "$out/$t/corpus" "tests/fuzz/corpus/$t" >>"$log" 2>&1 || true
    used=$(awk '{printf "%.0f", $1 + $2}' "$out/$t/time")
    cpu=$((cpu + used))
    n=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo 0)
    execs=$((execs + ${n:-0}))
    # A crash ends libFuzzer's run: stop this target and report it.
    if find "$out/$t" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | grep -q .; then break; fi
    # A fuzzer that gets no CPU at all five times running (or dies at once)
    # must not spin here for ever.
    if [ "$used" -gt 0 ]; then idle=0; else idle=$((idle + 1)); [ "$idle" -lt 5 ] || break; fi
  done
  crashes=$(find "$out/$t" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  printf '%-10s %10s %12s %8s\n' "$t" "$cpu" "$execs" "$crashes"
done
