#!/usr/bin/env bash
# Why rocmdoc looks GPU names up in pci.ids itself rather than through
# libpci: libpci's pci_lookup_name() loads the whole of pci.ids into its
# hash on the first lookup. This times one libpci lookup (a 20-line C
# program built here against the system's libpci) against a whole
# `rocmdoc check --json` of this machine, in the same run.
#
#   bench/pci-names-vs-libpci.sh [path/to/rocmdoc]
#
# Needs: hyperfine, gcc, libpci-dev (apt-get install hyperfine gcc libpci-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
rocmdoc=${1:-build/rocmdoc}
out=bench/out
mkdir -p "$out"
command -v hyperfine >/dev/null || { echo "hyperfine is missing: apt-get install hyperfine" >&2; exit 2; }
[ -x "$rocmdoc" ] || { echo "$rocmdoc is not built: cmake --build build --target rocmdoc" >&2; exit 2; }

cat > "$out/libpci-lookup.c" <<'C'
#include <pci/pci.h>
#include <stdio.h>
/* One device name, as lspci finds it: hwdb first where udev has one, then pci.ids. */
int main(void) {
  struct pci_access* a = pci_alloc();
  char buf[256];
  pci_init(a);
  const char* n = pci_lookup_name(a, buf, sizeof buf, PCI_LOOKUP_DEVICE, 0x1002, 0x744c);
  puts(n ? n : "(none)");
  pci_cleanup(a);
  return 0;
}
C
gcc -O2 "$out/libpci-lookup.c" -o "$out/libpci-lookup" $(pkg-config --cflags --libs libpci)

hyperfine --shell=none -i --warmup 5 --runs "${RUNS:-100}" --export-json "$out/pci-names-vs-libpci.json" \
  --command-name "rocmdoc check" "$rocmdoc check --json" \
  --command-name "libpci one lookup" "$out/libpci-lookup"
python3 - "$out/pci-names-vs-libpci.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
a, b = r["rocmdoc check"], r["libpci one lookup"]
print(f"rocmdoc check (whole run): median {a['median']*1e3:.2f} ms")
print(f"libpci, one name lookup:   median {b['median']*1e3:.2f} ms")
print(f"one libpci lookup costs {b['median']/a['median']:.2f}x a whole check")
PY
