#!/usr/bin/env bash
# Hybrid MPI + threads, measured (docs/performance.md): heat3d, 7pt, 256^3, 100 steps, as
#   1 rank x 2 threads, 2 ranks x 1 thread, 2 ranks x 2 threads (4 threads: oversubscribed on 2 cores)
# then kernelbench (7pt and 27pt, 256^3) in one process with 1 and with 2 threads, each against the
# STREAM copy bound it measures with the same threads;
# with one cartex build on a Kokkos with OpenMP (scripts/ci.sh openmp builds build-openmp/). The
# configurations take turns within each round, so a change in machine load hits all of them.
# Usage: scripts/bench_hybrid.sh [ROUNDS (default 2)] [BUILD_DIR (default build-openmp)]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=${1:-2}
build=${2:-$root/build-openmp}
. "$root/scripts/mpiexec_flags.sh" 2 "$build"
# Open MPI binds each of 2 ranks to one core by default, which would put a rank's threads on one core.
MPIEXEC_FLAGS+=(--bind-to none)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(uname -r)"
echo "command: $MPIEXEC -n RANKS ${MPIEXEC_FLAGS[*]} with OMP_NUM_THREADS=THREADS OMP_PROC_BIND=false" \
     "$build/bin/heat3d inputs/heat3d.yaml --set grid.n=[256,256,256] --set run.steps=100 ..."
printf '%-5s %-22s %-10s %-12s %-12s %s\n' round "ranks x threads" MLUP/s "time/step" "exch. avg" "load (1 min)"
for round in $(seq "$rounds"); do
  for config in "1 2" "2 1" "2 2"; do
    read -r ranks threads <<<"$config"
    load=$(cut -d' ' -f1 /proc/loadavg)
    out=$(cd "$work" && OMP_NUM_THREADS=$threads OMP_PROC_BIND=false "$MPIEXEC" -n "$ranks" "${MPIEXEC_FLAGS[@]}" \
          "$build/bin/heat3d" "$root/inputs/heat3d.yaml" --set "grid.n=[256,256,256]" --set run.steps=100 \
          --set run.progress_every=0 --set output.history=false 2>/dev/null)
    grep -q "^  kokkos .*, $threads thread(s) per rank$" <<<"$out" || { echo "$out"; echo "not $threads threads"; exit 1; }
    label="$ranks x $threads"
    [ $((ranks * threads)) -gt "$(nproc)" ] && label="$label (oversubscr.)"
    printf '%-5s %-22s %-10s %-12s %-12s %s\n' "$round" "$label" \
      "$(sed -n 's/^  MLUP\/s *//p' <<<"$out")" "$(sed -n 's/^  time\/step *//p' <<<"$out")" \
      "$(sed -n 's/^  exchange share.*avg \([0-9.]*%\).*/\1/p' <<<"$out")" "$load"
  done
done
for round in $(seq "$rounds"); do
  for threads in 1 2; do
    echo "== round $round: kernelbench, 1 process x $threads thread(s), load $(cut -d' ' -f1 /proc/loadavg)"
    OMP_NUM_THREADS=$threads OMP_PROC_BIND=false "$build/bin/kernelbench" --sizes 256 --stencils 7pt,27pt 2>/dev/null \
      | grep -E "^kernelbench:|STREAM copy|^bound|^ +(7pt|27pt) "
  done
done
