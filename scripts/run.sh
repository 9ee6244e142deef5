#!/usr/bin/env bash
# Installs what is missing, builds heat3d (Release; the tests are built by scripts/test.sh) and runs it.
# Usage: scripts/run.sh [INPUT.yaml] [RANKS] [heat3d options...]
#   defaults: inputs/heat3d.yaml on 2 ranks; e.g. scripts/run.sh inputs/heat3d-27pt.yaml 4 --set run.steps=50
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
input=${1:-$root/inputs/heat3d.yaml}
ranks=${2:-2}
shift $(( $# > 2 ? 2 : $# ))

"$root/scripts/setup.sh"
"$root/scripts/build.sh" heat3d
. "$root/scripts/mpiexec_flags.sh" "$ranks"
exec "$MPIEXEC" -n "$ranks" "${MPIEXEC_FLAGS[@]}" "$root/build/bin/heat3d" "$input" "$@"
