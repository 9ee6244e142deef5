#!/usr/bin/env bash
# Runs CI configurations by name (CMakePresets.json: a configure preset each, with a "cartex/ci" entry;
# the list CI runs is the root "cartex/ci" entry). The packages come first, so that python3 is there
# for scripts/ci.py, which does the rest and times each stage.
# Usage: scripts/ci.sh NAME... | --all | --list | --report TIMES      e.g. scripts/ci.sh openmp asan
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
exec python3 "$root/scripts/ci.py" "$@"
