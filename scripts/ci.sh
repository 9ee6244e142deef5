#!/usr/bin/env bash
# Runs CI configurations by name (CMakePresets.json: a configure preset each, with a "cartex/ci" entry;
# the list CI runs is the root "cartex/ci" entry). The everyday packages come first, so that python3 is
# there for scripts/ci.py, which does the rest and times each stage (their minutes: the row "packages").
# Usage: scripts/ci.sh NAME... | --all | --list | --report TIMES      e.g. scripts/ci.sh openmp asan
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
t0=$(date +%s)
"$root/scripts/setup.sh"
if [ -n "${CARTEX_CI_TIMES:-}" ]; then printf 'packages\tset-up\t%s\n' "$(( $(date +%s) - t0 ))" >>"$CARTEX_CI_TIMES"; fi
exec python3 "$root/scripts/ci.py" "$@"
