#!/usr/bin/env python3
"""How often `rocmdoc explain` routes a plain-word description to its cause.

    bench/words-phrasings.py [path/to/rocmdoc] [--rules DIR] [--file F] [-v] [--check] [-j N]

Reads tests/explain/words/phrasings.yaml (descriptions with no error string,
"rocminfo only works with sudo", each with the problem or symptom it should
reach), or the list --file names in the same format (the held-out
tests/explain/words/heldout.yaml), runs `rocmdoc explain --no-probe --json TEXT` on each and prints how
many are found at rank 1, within the first 3, and how many get no cause.

An expected problem is found at rank k when it, or one of its aliases, is
among the first k causes (when no cause is found: among the problems the
text resembles, which is what the user is shown then, as in
bench/explain-accuracy.py). An expected symptom is found at rank k when
explain shows it ("The text shows: ...") and one of the first k causes is a
problem that symptom lists: the ranking is the symptom's, not one a stronger
signal of another cause took over. An entry with `expect: none` is a
sentence that mentions a GPU or ROCm in passing, or denies a problem
("Secure Boot is on and everything works"); it passes when explain finds no
cause, and one that gets a cause is counted apart, as a false route.

-v lists the misses and the routed `none` entries, with the first three
causes. --check exits 1 when found-at-1 or found-at-3 falls below the file's
`floor`, or when a `none` entry is routed: run it after changing a `words-*`
signature. --rules DIR judges a rules tree being worked on with the built
binary. -j runs N explains at once (2 by default).
Needs: python3-yaml (Debian's package).
"""
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHRASINGS = os.path.join(ROOT, "tests", "explain", "words", "phrasings.yaml")


def load_rules_yaml(path):
    # yaml-cpp accepts the escape \' in a double-quoted scalar; PyYAML does
    # not, and reads it as a plain quote once it is written as one.
    with open(path) as f:
        return yaml.safe_load(f.read().replace("\\'", "'")) or {}


def catalogue(rules):
    """Symptom ids with the problems each lists, and every problem's aliases."""
    symptoms, aliases = {}, {}
    for path in sorted(glob.glob(os.path.join(rules, "catalogue", "*.yaml"))):
        doc = load_rules_yaml(path)
        for p in doc.get("problems") or []:
            aliases[p["id"]] = set(p.get("aliases") or [])
        for s in doc.get("symptoms") or []:
            symptoms[s["id"]] = list(s.get("problems") or [])
    names = {}  # any id or alias -> the problem id
    for pid, al in aliases.items():
        names[pid] = pid
        for a in al:
            names[a] = pid
    return {s: {names.get(p, p) for p in ps} for s, ps in symptoms.items()}, names


def explain(rocmdoc, rules, text):
    argv = [rocmdoc, "explain", "--no-probe", "--json", text]
    if rules:
        argv[2:2] = ["--rules", rules]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    if run.returncode not in (0, 1):
        raise SystemExit(f"{text!r}: rocmdoc explain exited {run.returncode}: {run.stderr.strip()}")
    return json.loads(run.stdout)


def rank(report, expect, symptoms, names):
    """1-based rank at which `expect` is found, or None."""
    causes = [names.get(c["id"], c["id"]) for c in report.get("causes", [])]
    if expect in symptoms:
        if expect not in {s["id"] for s in report.get("symptoms", [])}:
            return None
        for i, c in enumerate(causes):
            if c in symptoms[expect]:
                return i + 1
        return None
    shown = causes or [names.get(c["id"], c["id"]) for c in report.get("resembles", [])]
    want = names.get(expect, expect)
    return shown.index(want) + 1 if want in shown else None


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    check = "--check" in args
    args = [a for a in args if a not in ("-v", "--check")]
    rules, jobs = None, 2
    path = PHRASINGS
    for opt in ("--rules", "-j", "--file"):
        if opt in args:
            i = args.index(opt)
            if i + 1 >= len(args):
                raise SystemExit(f"{opt} needs a value")
            if opt == "--rules":
                rules = args[i + 1]
            elif opt == "--file":
                path = args[i + 1]
            else:
                jobs = int(args[i + 1])
            del args[i:i + 2]
    rocmdoc = args[0] if args else os.path.join(ROOT, "build", "rocmdoc")
    if not os.access(rocmdoc, os.X_OK):
        raise SystemExit(f"{rocmdoc} is not built: cmake --build build --target rocmdoc")
    with open(path) as f:
        doc = yaml.safe_load(f)
    entries = doc["phrasings"]
    symptoms, names = catalogue(rules or os.path.join(ROOT, "rules"))
    for e in entries:
        if e["expect"] != "none" and e["expect"] not in symptoms and e["expect"] not in names:
            raise SystemExit(f"{e['text']!r}: expects {e['expect']}, which is no problem or symptom")

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        reports = list(pool.map(lambda e: explain(rocmdoc, rules, e["text"]), entries))

    routed = [(e, r) for e, r in zip(entries, reports) if e["expect"] != "none"]
    quiet = [(e, r) for e, r in zip(entries, reports) if e["expect"] == "none"]
    at1 = at3 = nothing = 0
    misses, noisy = [], []
    for e, r in routed:
        k = rank(r, e["expect"], symptoms, names)
        at1 += k == 1
        at3 += k is not None and k <= 3
        nothing += not r.get("causes")
        if k != 1:
            misses.append((e, r, k))
    for e, r in quiet:
        if r.get("causes"):
            noisy.append((e, r, None))

    n = len(routed)
    pct = lambda x: f"{100.0 * x / n:.1f}%" if n else "-"
    print(f"phrasings: {n} to route, {len(quiet)} to leave alone")
    print(f"found at 1: {at1}/{n} ({pct(at1)})   found at 3: {at3}/{n} ({pct(at3)})   "
          f"no cause: {nothing}/{n} ({pct(nothing)})")
    print(f"false routes (expect none, got a cause): {len(noisy)}/{len(quiet)}")
    if verbose:
        for title, rows in (("not at 1", misses), ("false routes (expect none)", noisy)):
            if rows:
                print(f"\n{title}:")
            for e, r, k in rows:
                top = [c["id"] for c in r.get("causes", [])[:3]]
                shown = [s["id"] for s in r.get("symptoms", [])]
                where = f"at {k}" if k else "missed"
                print(f"  [{where}] {e['text']!r} -> expect {e['expect']}; symptoms {shown}; top {top}")

    if check:
        floor = doc.get("floor") or {}
        failed = []
        if at1 < floor.get("top1", 0):
            failed.append(f"found at 1 {at1} < floor {floor['top1']}")
        if at3 < floor.get("top3", 0):
            failed.append(f"found at 3 {at3} < floor {floor['top3']}")
        if noisy:
            failed.append(f"{len(noisy)} false route(s): an `expect: none` entry got a cause")
        if failed:
            print("FAILED: " + "; ".join(failed))
            return 1
        print("ok: at or above the floor, no false route")
    return 0


if __name__ == "__main__":
    sys.exit(main())
