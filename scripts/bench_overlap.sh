#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Overlap measured (docs/performance.md, "Overlap"): heat3d with comm.overlap false and true, the two
# runs of one comparison back to back, on one node (2 ranks) and across two simulated nodes (the
# network-namespace testbed, scripts/netns_cluster.sh, 2 nodes x 1 rank: every halo byte crosses TCP
# and each rank has a core of its own; needs root). Prints per run: time/step, exchange share, the
# summary's temporal, overlap and overlap cost lines. Run it on a quiet machine.
# CARTEX_BENCH_PARTS picks the parts (default "node nodes").
# Usage: scripts/bench_overlap.sh [ROUNDS (default 2)] [BUILD_DIR (default build)]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=${1:-2}
build=${2:-$root/build}
parts=" ${CARTEX_BENCH_PARTS:-node nodes} "
input=$root/inputs/heat3d.yaml
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(uname -r); commit $(git -C "$root" rev-parse --short HEAD)"

# run LABEL LAUNCH... -- SETS...: one heat3d run, its summary lines that matter here.
run() {
  local label=$1
  shift
  local launch=()
  while [[ $1 != -- ]]; do launch+=("$1"); shift; done
  shift
  local sets=()
  for s in "$@"; do sets+=(--set "$s"); done
  local out
  out=$("${launch[@]}" "$build/bin/heat3d" "$input" --set run.progress_every=0 --set output.history=false "${sets[@]}" 2>&1)
  echo "-- $label (load $(cut -d' ' -f1 /proc/loadavg))"
  grep -E '^  (time/step|exchange share|temporal|overlap)' <<<"$out" | sed 's/^/   /'
}

. "$root/scripts/mpiexec_flags.sh" 2 "$build"
export MPIEXEC  # the testbed's flags are those of this mpiexec
node=("$MPIEXEC" -n 2 "${MPIEXEC_FLAGS[@]}" --bind-to none)
for round in $(seq "$rounds"); do
  if [[ $parts == *" node "* ]]; then
    for stencil in 7pt 27pt; do
      for backend in p2p cart_combining_packed; do
        for overlap in false true; do
          run "round $round, 1 node x 2 ranks, $stencil 256^3, k = 4, $backend, overlap $overlap" "${node[@]}" -- \
            grid.n=[256,256,256] run.steps=48 stencil=$stencil halo.steps_per_exchange=4 comm.backend=$backend comm.overlap=$overlap
        done
      done
    done
  fi
done

if [[ $parts == *" nodes "* ]]; then
  export CARTEX_TESTBED_PREFIX=ctxov  # a cluster of its own, removed at the end
  testbed=$root/scripts/netns_cluster.sh
  trap '"$testbed" down' EXIT
  "$testbed" up 2
  read -r -a flags <<<"$("$testbed" flags 1)"
  nodes=("$testbed" run "$MPIEXEC" -n 2 "${MPIEXEC_FLAGS[@]}" --bind-to none "${flags[@]}")
  for round in $(seq "$rounds"); do
    for backend in p2p cart_forwarding cart_combining_packed; do
      for overlap in false true; do
        run "round $round, 2 nodes x 1 rank, 27pt 64^3, k = 1, $backend, overlap $overlap" "${nodes[@]}" -- \
          grid.n=[64,64,64] run.steps=200 stencil=27pt comm.backend=$backend comm.overlap=$overlap
      done
    done
    for overlap in false true; do
      run "round $round, 2 nodes x 1 rank, 7pt 256^3, k = 4, p2p, overlap $overlap" "${nodes[@]}" -- \
        grid.n=[256,256,256] run.steps=48 stencil=7pt halo.steps_per_exchange=4 comm.backend=p2p comm.overlap=$overlap
    done
  done
fi
