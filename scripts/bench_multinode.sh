#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Halo exchanges across nodes, measured (docs/performance.md, "Across nodes"): halobench on the
# network-namespace testbed (scripts/netns_cluster.sh, needs root) at 2 nodes x 1 rank, so every
# message crosses TCP and each rank has a core of its own; 27pt and 7pt, blocks 4^3..32^3, k = 1, 2;
# then cartbench's ping-pong alpha/beta over TCP and its d3n3f-1 alltoall (compare with cartbench --model);
# then graphbench's neighbor allgather (HiPC'17): timed at 2 nodes x 1 rank, where every graph has one
# neighbor, and at 2 nodes x 4 ranks for the combining pattern's stages only (8 ranks on the machine's
# 2 cores over TCP: the times printed there are scheduler-bound, not a measurement of the network).
# Writes one CSV per run and k to OUT_DIR. Run it on a quiet machine (here: through /work/wt/bench).
# The part "fields" (not in the default) times N = 1, 2, 4, 8 fields exchanged together against one by
# one (halobench --fields, issue 37) at latency-bound blocks over TCP.
# CARTEX_BENCH_PARTS picks the parts (default "halo cart graph"), to keep one locked call short.
# Usage: scripts/bench_multinode.sh [ROUNDS (default 2)] [OUT_DIR (default bench-multinode)] [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=${1:-2}
out=$(mkdir -p "${2:-bench-multinode}" && cd "${2:-bench-multinode}" && pwd)
build=${3:-$root/build}
export CARTEX_TESTBED_PREFIX=ctxbn  # a cluster of its own, removed at the end
testbed=$root/scripts/netns_cluster.sh
trap '"$testbed" down' EXIT
"$testbed" up 2
. "$root/scripts/mpiexec_flags.sh" 8 "$build"
export MPIEXEC  # the testbed's flags are those of this mpiexec
read -r -a flags <<<"$("$testbed" flags 1)"
read -r -a flags4 <<<"$("$testbed" flags 4)"
parts=" ${CARTEX_BENCH_PARTS:-halo cart graph} "
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(uname -r); load $(cut -d' ' -f1 /proc/loadavg)"
for round in $(seq "$rounds"); do
  for k in 1 2; do
    [[ $parts == *" halo "* ]] || continue
    csv=$out/halobench_run${round}_k$k.csv
    echo "== round $round, k = $k -> $csv (load $(cut -d' ' -f1 /proc/loadavg))"
    "$testbed" run "$MPIEXEC" -n 2 "${MPIEXEC_FLAGS[@]}" --bind-to none "${flags[@]}" "$build/bin/halobench" \
      --stencil 27pt,7pt --block 4,8,16,32 --k "$k" --warmup 20 --reps 100 --series 10 \
      --csv "$csv" --label "2x1 tcp run$round k$k"
  done
  if [[ $parts == *" fields "* ]]; then
    csv=$out/halobench_fields_run${round}.csv
    echo "== round $round, N fields together vs one by one over TCP -> $csv (load $(cut -d' ' -f1 /proc/loadavg))"
    "$testbed" run "$MPIEXEC" -n 2 "${MPIEXEC_FLAGS[@]}" --bind-to none "${flags[@]}" "$build/bin/halobench" \
      --stencil 27pt,7pt --block 8,16 --fields 1,2,4,8 --warmup 20 --reps 50 --series 5 \
      --csv "$csv" --label "2x1 tcp fields run$round"
  fi
  if [[ $parts == *" cart "* ]]; then
    echo "== round $round, cartbench over TCP (load $(cut -d' ' -f1 /proc/loadavg))"
    "$testbed" run "$MPIEXEC" -n 2 "${MPIEXEC_FLAGS[@]}" --bind-to none "${flags[@]}" "$build/bin/cartbench" --pingpong
    "$testbed" run "$MPIEXEC" -n 2 "${MPIEXEC_FLAGS[@]}" --bind-to none "${flags[@]}" "$build/bin/cartbench" \
      --d 3 --n 3 --f -1 --m 1,10,100 --op alltoall --impl mpi_neighbor,direct,combining,combining_packed \
      --reps 50 --series 5 --warmup 20
  fi
  if [[ $parts == *" graph "* ]]; then
    echo "== round $round, graphbench over TCP, 2 nodes x 1 rank (load $(cut -d' ' -f1 /proc/loadavg))"
    "$testbed" run "$MPIEXEC" -n 2 "${MPIEXEC_FLAGS[@]}" --bind-to none "${flags[@]}" "$build/bin/graphbench" \
      --latency --density 1.0 --moore 2:1,3:1 --sizes 4,4096 --reps 50 --series 5 --warmup 10
    echo "== round $round, graphbench 2 nodes x 4 ranks: stages only, times scheduler-bound"
    "$testbed" run "$MPIEXEC" -n 8 "${MPIEXEC_FLAGS[@]}" --bind-to none "${flags4[@]}" \
      "$build/bin/graphbench" --latency --density 0.3,0.6 --moore 2:1,2:2,3:1 --sizes 4 --reps 5 --series 2 --warmup 2
  fi
done
