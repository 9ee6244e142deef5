#!/usr/bin/env bash
# A differential campaign by hand (tests/campaign/campaign.py, docs/testing.md "Differential campaign"):
# random small problems run as a 1-rank reference and as variants on 1..R ranks, every backend, k, tiles,
# overlap, auto and restarts, against the apps of a build tree and the mpiexec it was configured with.
# Builds nothing: run scripts/build.sh first. Shrunk failures go to --keep DIR (default: a new temporary
# directory, printed); copy them into tests/campaign/cases/.
# Usage: scripts/campaign.sh [--build DIR] [--count N] [--seed S|commit] [--ranks R|LIST] [--jobs J]
#                            [--apps LIST] [other campaign.py options, e.g. --budget SECONDS --keep DIR --case I]
#   defaults: build/ of this clone, 100 cases, the seed of the commit, 1..8 ranks, 2 jobs, every app
#   e.g. scripts/campaign.sh --count 2000 --seed 1 --keep /tmp/campaign-kept
#        scripts/campaign.sh --apps grayscott3d --count 150 --seed 7    (cases of one app only)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build
if [ "${1:-}" = "--build" ]; then
  if [ $# -lt 2 ] || [ ! -d "$2" ]; then
    echo "campaign.sh: --build needs a build directory, got '${2:-}'" >&2
    exit 2
  fi
  build=$(cd "$2" && pwd)
  shift 2
fi
for app in heat3d wave3d advect3d grayscott3d; do
  if [ ! -x "$build/bin/$app" ]; then
    echo "campaign.sh: no $build/bin/$app: build it first (scripts/build.sh)" >&2
    exit 2
  fi
done
. "$root/scripts/mpiexec_flags.sh" 1 "$build"
export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}  # Open MPI's PML on one node, without probing the MTLs first
exec python3 "$root/tests/campaign/campaign.py" --heat3d "$build/bin/heat3d" --wave3d "$build/bin/wave3d" \
  --advect3d "$build/bin/advect3d" --grayscott3d "$build/bin/grayscott3d" --mpiexec "$MPIEXEC" "$@"
