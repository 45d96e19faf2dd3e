#!/usr/bin/env python3
"""How often `rocmdoc explain` names the confirmed cause of a real case.

    bench/explain-accuracy.py [path/to/rocmdoc] [-v] [--rules DIR] [--from N]

Reads tests/explain/real/cases.yaml (real threads, each with its verbatim
paste and the cause the thread confirmed), runs `rocmdoc explain --no-probe
--json -f CASE` on each, and prints top-1 and top-3 accuracy for the
development part and the validation part side by side. The validation part
is what no signature or keyword was written from: it is the figure that
says how the catalogue generalises. A case is split by its source (all
cases of one repository or forum go to the same part), so a thread's
wording cannot leak from one part into the other.

A case counts as found at rank k when its cause, or an id of the same
`same_problem` class (one problem under a check rule's and an explain
cause's id), is among the first k causes explain ranks; when explain
finds no cause, among the problems it says the text resembles
(`resembles`, docs/explain.md), which is what the user is shown then.
A cause explain shows as ruled out (verdict "refuted") is not ranked.
"no cause found" counts the cases with no cause (a resemblance or none).
"not in catalogue" counts the cases whose confirmed cause is a problem the
catalogue does not have yet (`new:ID`): no ranking can find those, so
100 % minus it is the most top-1 could be. "nothing recognised" counts
the cases in which explain found nothing at all to show (no cause, no
symptom, no resemblance), the part of "no cause found" that only new
messages or words could reach; the rest of it showed a symptom or a
resemblance but no cause.

-v lists the development cases missed at top-3, to work from. It never
lists a validation case: their names and causes are what nobody may write
the catalogue from. --rules DIR judges a rules tree being worked on with
the built binary (`rocmdoc explain --rules DIR`). --from N counts only the
cases whose file number is N or more (cases added in one batch, measured
before anyone changes the catalogue for them).
Needs: python3-yaml (Debian's package).
"""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "tests", "explain", "real")


def ranked_causes(rocmdoc, path, rules=None):
    argv = [rocmdoc, "explain", "--no-probe", "--json", "-f", path]
    if rules:  # a rules tree being worked on, judged by the built binary
        argv[2:2] = ["--rules", rules]
    run = subprocess.run(argv,
                         capture_output=True, text=True, timeout=60)
    if run.returncode not in (0, 1):
        raise SystemExit(f"{path}: rocmdoc explain exited {run.returncode}: {run.stderr.strip()}")
    report = json.loads(run.stdout)
    # What the user is shown, in order: the causes, or when none was found
    # the problems the text's words resemble (a guess, said to be one); and
    # whether any cause was found; and whether anything was shown at all.
    # A cause the facts or the text rule out is listed last in JSON, with
    # verdict "refuted"; the user sees it under "Ruled out", never as a
    # candidate, so it is not ranked here.
    causes = [c["id"] for c in report.get("causes", []) if c.get("verdict") != "refuted"]
    return (causes or [c["id"] for c in report.get("resembles", [])], bool(causes),
            bool(causes or report.get("symptoms") or report.get("resembles")))


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    rules = None
    if "--rules" in args:
        i = args.index("--rules")
        if i + 1 >= len(args):
            raise SystemExit("--rules needs a directory")
        rules = args[i + 1]
        del args[i:i + 2]
    first = 0
    if "--from" in args:
        i = args.index("--from")
        if i + 1 >= len(args) or not args[i + 1].isdigit():
            raise SystemExit("--from needs a case number")
        first = int(args[i + 1])
        del args[i:i + 2]
    rocmdoc = args[0] if args else os.path.join(ROOT, "build", "rocmdoc")
    if not os.access(rocmdoc, os.X_OK):
        raise SystemExit(f"{rocmdoc} is not built: cmake --build build --target rocmdoc")
    with open(os.path.join(CASES, "cases.yaml")) as f:
        doc = yaml.safe_load(f)
    cases = doc["cases"]
    if first:
        cases = [c for c in cases if int(c["file"].split("/")[-1].split("-")[0]) >= first]
    same = {}
    for ids in doc.get("same_problem") or []:
        for i in ids:
            same[i] = set(ids)
    # cases, top1, top3, nothing found, cause not in the catalogue,
    # nothing recognised
    parts = {"development": [0] * 6, "validation": [0] * 6}
    misses = []
    # Each case is one process; two at a time halves the wall time on the
    # two-core CI machine without changing any result.
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(
            lambda case: ranked_causes(rocmdoc, os.path.join(CASES, case["file"]), rules), cases))
    for case, (ranked, found, recognised) in zip(cases, results):
        part = parts[case["split"]]
        wanted = same.get(case["cause"], {case["cause"]})
        part[0] += 1
        part[1] += bool(ranked[:1]) and ranked[0] in wanted
        part[2] += any(c in wanted for c in ranked[:3])
        part[3] += not found
        part[4] += str(case["cause"]).startswith("new:")
        part[5] += not recognised
        if not any(c in wanted for c in ranked[:3]) and case["split"] == "development":
            misses.append((case["split"], case["file"], case["cause"], ranked[:3]))
    print(f"{'part':<12} {'cases':>5} {'top-1':>7} {'top-3':>7} {'no cause found':>15}"
          f" {'not in catalogue':>17} {'nothing recognised':>19}")
    for name, (n, t1, t3, none, new, blank) in parts.items():
        if n:
            print(f"{name:<12} {n:>5} {100 * t1 / n:>6.1f}% {100 * t3 / n:>6.1f}%"
                  f" {100 * none / n:>14.1f}% {100 * new / n:>16.1f}% {100 * blank / n:>18.1f}%")
    if verbose:
        for split, file, cause, got in misses:
            print(f"miss [{split}] {file}: want {cause}, got {', '.join(got) or 'nothing'}")


if __name__ == "__main__":
    main()
