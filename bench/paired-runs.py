#!/usr/bin/env python3
"""Before/after timing that survives a drifting machine: runs the commands in
alternating order, N rounds, and reports each command's median and the
median of the paired differences against the first command.

    bench/paired-runs.py 300 'OLD/rocmdoc check --json' 'build/rocmdoc check --json'

On a shared VM the speed of the whole machine drifts by 20-30% within
minutes; hyperfine runs one command's runs, then the other's, so a drift
between them reads as a difference. Pairs taken back to back see the same
machine. The times include starting the process from Python (~0.3 ms here),
the same for every command.
"""
import os
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rounds = int(sys.argv[1])
    commands = sys.argv[2:]
    argvs = [c.split() for c in commands]
    times = [[] for _ in argvs]
    with open(os.devnull, "w") as devnull:
        for r in range(rounds):
            order = range(len(argvs)) if r % 2 == 0 else reversed(range(len(argvs)))
            for k in order:
                start = time.perf_counter()
                subprocess.run(argvs[k], stdout=devnull, stderr=devnull)
                times[k].append(time.perf_counter() - start)
    for command, t in zip(commands, times):
        print(f"{command:60s} median {statistics.median(t) * 1000:7.2f} ms  mean {statistics.mean(t) * 1000:7.2f} ms")
    for k in range(1, len(argvs)):
        d = [b - a for a, b in zip(times[0], times[k])]
        faster = sum(x < 0 for x in d)
        print(f"{commands[k]} vs {commands[0]}: median difference {statistics.median(d) * 1000:+.3f} ms, "
              f"faster in {faster}/{rounds} pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
