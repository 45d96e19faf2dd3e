#!/usr/bin/env python3
"""Which causes the development cases show behind each symptom.

    bench/symptom-order.py [path/to/rocmdoc]

With no facts, a symptom's list of problems is explain's ranking, so its
order should be "most common first" (rules/catalogue/symptoms.yaml). This
runs `rocmdoc explain --no-probe --json` on every development case of
tests/explain/real/cases.yaml, and for each symptom the text shows, counts
the case's confirmed cause. It prints, per symptom, the listed problems the
cases confirmed (with counts) and the causes it does not list.

A cause a symptom does not list is where the list may be short: a person
judges whether that problem really shows that way, and adds it.

It does not reorder the lists. Tried on 2026-12-02: sorting each list by
these counts (one to four cases a problem) raised development from 45/58 %
(top-1/top-3) to 46/64 % and lowered validation from 26.5/35.9 % to
23.1/32.5 %: counts this small fit the development cases, not the next ones.

Validation cases are never read: the order is written from development
only, and bench/explain-accuracy.py then measures it on validation.
Needs: python3-yaml.
"""
import collections
import json
import os
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "tests", "explain", "real")
SYMPTOMS = os.path.join(ROOT, "rules", "catalogue", "symptoms.yaml")


def main():
    args = sys.argv[1:]
    rocmdoc = args[0] if args else os.path.join(ROOT, "build", "rocmdoc")
    with open(os.path.join(CASES, "cases.yaml")) as f:
        doc = yaml.safe_load(f)
    same = {}
    for ids in doc.get("same_problem") or []:
        for i in ids:
            same[i] = set(ids)
    with open(SYMPTOMS) as f:
        listed = {s["id"]: s["problems"] for s in yaml.safe_load(f)["symptoms"]}
    seen = collections.defaultdict(collections.Counter)  # symptom -> cause -> cases
    for case in doc["cases"]:
        if case["split"] != "development":
            continue
        run = subprocess.run([rocmdoc, "explain", "--no-probe", "--json", "-f", os.path.join(CASES, case["file"])],
                             capture_output=True, text=True, timeout=60)
        if run.returncode not in (0, 1):
            raise SystemExit(f"{case['file']}: rocmdoc explain exited {run.returncode}: {run.stderr.strip()}")
        wanted = same.get(case["cause"], {case["cause"]})
        for symptom in json.loads(run.stdout).get("symptoms", []):
            sid = symptom["id"]
            hit = [p for p in listed.get(sid, []) if p in wanted]
            seen[sid][hit[0] if hit else case["cause"]] += 1
    for sid, problems in listed.items():
        counts = seen.get(sid, collections.Counter())
        inside = [(p, counts[p]) for p in problems if counts[p]]
        outside = [(c, n) for c, n in counts.most_common() if c not in problems]
        print(f"{sid}: {', '.join(f'{p} {n}' for p, n in sorted(inside, key=lambda x: -x[1])) or '-'}")
        if outside:
            print(f"  not listed: {', '.join(f'{c} {n}' for c, n in outside)}")


if __name__ == "__main__":
    main()
