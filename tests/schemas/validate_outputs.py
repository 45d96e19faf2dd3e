#!/usr/bin/env python3
"""Validates rocmdoc's JSON outputs against docs/schemas/*.schema.json.

For every fixture machine (tests/machines/*/root) it runs `facts`, `check
--json`, `explain --json` (a log that names a problem, and a symptom) and
`install --dry-run --json` with --root, and validates each document with
python3-jsonschema (draft 2020-12). Then, so that a pass means something, it
renames a key in each kind of document (and changes a type) and requires the
schema to reject every such mutation. The blocked plan (key-not-confirmed)
comes from a copy of rules/ whose Core SDK key gives no fingerprint.

usage: validate_outputs.py ROCMDOC SOURCE_DIR
Exit 0 when every document validates and every mutation is rejected, 1 otherwise.
"""
import copy
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

import jsonschema
from jsonschema import Draft202012Validator

SCHEMAS = {
    "facts": "facts.schema.json",
    "check": "check.schema.json",
    "explain": "explain.schema.json",
    "install": "install.schema.json",
}
EXPLAIN_LOG = "tests/explain/corpus/001-pytorch-cpu-wheel.log"


def load_schemas(schema_dir):
    by_name = {}
    for name, file in SCHEMAS.items():
        schema = json.loads((schema_dir / file).read_text())
        Draft202012Validator.check_schema(schema)
        by_name[name] = schema
    return by_name


def validator_for(schemas, name):
    """A validator that resolves the schemas' $refs to one another by $id,
    with the `referencing` library where this jsonschema has it (4.18 and
    later) and RefResolver on older ones (Debian 12 ships 4.10)."""
    schema = schemas[name]
    try:
        from referencing import Registry, Resource

        registry = Registry().with_resources(
            (s["$id"], Resource.from_contents(s)) for s in schemas.values())
        return Draft202012Validator(schema, registry=registry)
    except ImportError:
        store = {s["$id"]: s for s in schemas.values()}
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        return Draft202012Validator(schema, resolver=resolver)


def run(rocmdoc, args, stdin=None):
    r = subprocess.run([rocmdoc] + args, input=stdin, capture_output=True, timeout=120)
    if r.returncode not in (0, 1):
        raise RuntimeError(f"rocmdoc {' '.join(args)} exited {r.returncode}: {r.stderr.decode(errors='replace')}")
    return json.loads(r.stdout)


def outputs(rocmdoc, source):
    """(label, schema name, document) for every fixture and command."""
    log = (source / EXPLAIN_LOG).read_bytes()
    for root in sorted((source / "tests/machines").glob("*/root")):
        name = root.parent.name
        r = str(root)
        yield f"{name}: facts", "facts", run(rocmdoc, ["facts", "--root", r])
        yield f"{name}: check --json", "check", run(rocmdoc, ["check", "--json", "--root", r])
        yield f"{name}: explain --json (a log)", "explain", run(rocmdoc, ["explain", "--json", "--root", r], log)
        yield (f"{name}: explain --json (a symptom)", "explain",
               run(rocmdoc, ["explain", "--json", "--root", r, "torch.cuda.is_available() is False"]))
        # Where the machine does not show the symptom now, it says so (not_here).
        yield (f"{name}: explain --json (a symptom this machine does not show)", "explain",
               run(rocmdoc, ["explain", "--json", "--root", r, "amdgpu won't load after the update"]))
        yield f"{name}: install --dry-run --json", "install", run(
            rocmdoc, ["install", "--auto", "--dry-run", "--json", "--root", r])
    yield "explain --json --no-probe", "explain", run(rocmdoc, ["explain", "--json", "--no-probe"], log)
    # No message matches: the problems whose words it shares (resembles).
    yield ("explain --json --no-probe (other words)", "explain",
           run(rocmdoc, ["explain", "--json", "--no-probe", "rocBLAS cannot read TensileLibrary.dat for my card"]))
    # The optional parts: check's workloads, a plan with no driver and no
    # venv, and a plan that is shown but blocked.
    r = str(source / "tests/machines/ubuntu2404-rx7900xtx/root")
    yield "ubuntu2404-rx7900xtx: check --json --deep", "check", run(rocmdoc, ["check", "--json", "--deep", "--root", r])
    core_sdk = ["install", "--auto", "--dry-run", "--json", "--rocm", "10.0.0", "--no-driver", "--no-torch", "--root", r]
    yield "ubuntu2404-rx7900xtx: install --rocm 10.0.0 --no-driver --no-torch", "install", run(rocmdoc, core_sdk)
    # The distribution's own packages: a plan (with what it gives up) and a refusal.
    r2604 = str(source / "tests/machines/ubuntu2604-rx7900xtx/root")
    yield "ubuntu2604-rx7900xtx: install --from distro", "install", run(
        rocmdoc, ["install", "--from", "distro", "--dry-run", "--json", "--root", r2604])
    yield "fedora43-distro-rocm: install --from distro (refusal)", "install", run(
        rocmdoc, ["install", "--from", "distro", "--dry-run", "--json", "--root",
                  str(source / "tests/machines/fedora43-distro-rocm/root")])
    with tempfile.TemporaryDirectory() as tmp:
        yield "ubuntu2404-rx7900xtx: install --rocm 10.0.0 (blocked)", "install", run(
            rocmdoc, core_sdk + ["--rules", unpinned_rules(source, pathlib.Path(tmp))])


def unpinned_rules(source, tmp):
    """A copy of rules/ whose Core SDK key gives no fingerprint, so that its
    plan is blocked (key-not-confirmed): no shipped recipe is since that key
    was pinned. Root's alone, as the rules loader requires under root."""
    rules = tmp / "rules"
    shutil.copytree(source / "rules", rules)
    recipe = rules / "install/core-sdk.yaml"
    lines = []
    for line in recipe.read_text().splitlines(keepends=True):
        stripped = line.lstrip()
        indent = line[:len(line) - len(stripped)]
        if stripped.startswith("fingerprint: "):
            lines.append(f'{indent}fingerprint_unknown: "no source gives it (validate_outputs.py)"\n')
        elif not stripped.startswith("fingerprint_note: "):
            lines.append(line)
    unpinned = "".join(lines)
    if "fingerprint_unknown:" not in unpinned:
        raise RuntimeError(f"{recipe}: no key fingerprint to leave out")
    recipe.write_text(unpinned)
    for path in [rules, *rules.rglob("*")]:
        path.chmod(path.stat().st_mode & ~0o022)
    return str(rules)


def rename_first_key(doc, path):
    """The document with the key at `path` (keys, the last one renamed) renamed."""
    doc = copy.deepcopy(doc)
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1] + "_renamed"] = node.pop(path[-1])
    return doc


def set_value(doc, path, value):
    doc = copy.deepcopy(doc)
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


def first_with(docs, kind, predicate):
    for label, k, doc in docs:
        if k == kind and predicate(doc):
            return label, doc
    raise RuntimeError(f"no {kind} document to mutate")


def mutations(docs):
    """(what, schema name, mutated document): each must be rejected."""
    label, facts = first_with(docs, "facts", lambda d: isinstance(d.get("kernel"), dict))
    yield f"{label}: kernel renamed", "facts", rename_first_key(facts, ["kernel"])
    yield f"{label}: kernel.release renamed", "facts", rename_first_key(facts, ["kernel", "release"])
    yield f"{label}: kernel.release a number", "facts", set_value(facts, ["kernel", "release"], 6)
    label, facts = first_with(docs, "facts", lambda d: len(d.get("pci", {}).get("devices", [])) > 0)
    yield f"{label}: pci.devices[0].address renamed", "facts", rename_first_key(facts, ["pci", "devices", 0, "address"])
    label, check = first_with(docs, "check", lambda d: len(d["findings"]) > 0)
    yield f"{label}: findings renamed", "check", rename_first_key(check, ["findings"])
    yield f"{label}: findings[0].severity renamed", "check", rename_first_key(check, ["findings", 0, "severity"])
    yield f"{label}: findings[0].severity not a severity", "check", set_value(check, ["findings", 0, "severity"], "bad")
    yield f"{label}: summary.errors renamed", "check", rename_first_key(check, ["summary", "errors"])
    yield f"{label}: facts.distro renamed", "check", rename_first_key(check, ["facts", "distro"])
    label, explain = first_with(docs, "explain", lambda d: len(d["causes"]) > 0)
    yield f"{label}: causes[0].verdict renamed", "explain", rename_first_key(explain, ["causes", 0, "verdict"])
    yield f"{label}: input renamed", "explain", rename_first_key(explain, ["input"])
    label, plan = first_with(docs, "install", lambda d: d["kind"] == "plan")
    yield f"{label}: steps[0].state renamed", "install", rename_first_key(plan, ["steps", 0, "state"])
    yield f"{label}: plan.rocm renamed", "install", rename_first_key(plan, ["plan", "rocm"])
    label, check = first_with(docs, "check", lambda d: "workloads" in d)
    yield f"{label}: workloads.ran renamed", "check", rename_first_key(check, ["workloads", "ran"])
    label, plan = first_with(docs, "install", lambda d: "blocked" in d)
    yield f"{label}: blocked.instead renamed", "install", rename_first_key(plan, ["blocked", "instead"])
    label, refusal = first_with(docs, "install", lambda d: d["kind"] == "refusal")
    yield f"{label}: refusal.reason renamed", "install", rename_first_key(refusal, ["refusal", "reason"])


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    rocmdoc, source = sys.argv[1], pathlib.Path(sys.argv[2])
    schemas = load_schemas(source / "docs/schemas")
    validators = {name: validator_for(schemas, name) for name in schemas}
    docs = list(outputs(rocmdoc, source))
    failures = 0
    counts = {}
    for label, kind, doc in docs:
        errors = sorted(validators[kind].iter_errors(doc), key=lambda e: list(e.absolute_path))
        counts[kind] = counts.get(kind, 0) + 1
        for e in errors[:5]:
            failures += 1
            where = "/".join(str(p) for p in e.absolute_path)
            print(f"FAIL {label}: at /{where}: {e.message[:300]}")
    rejected = 0
    for what, kind, doc in mutations(docs):
        if validators[kind].is_valid(doc):
            failures += 1
            print(f"FAIL the {kind} schema accepts a mutated document: {what}")
        else:
            rejected += 1
    print(f"validated {sum(counts.values())} documents ({', '.join(f'{n} {k}' for k, n in sorted(counts.items()))}); "
          f"{rejected} mutated documents rejected; {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
