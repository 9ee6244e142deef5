#!/usr/bin/env bash
# The simulated campaign of docs/scale.md: cartbench on the Hydra-like and Titan-like platforms, one
# simulation per neighbourhood (all ops and block sizes), every block checked, one checked run per cell
# as its sample (--reps 0). Output: benchmarks/smpi/PLATFORM-PROCS-dDnN.{csv,log} (each log ends with the
# host's wall time and peak memory). Usage: benchmarks/smpi/run.sh PLATFORM PROCS "D:N ..." [OPS] [M]
# e.g. benchmarks/smpi/run.sh hydra 1152 "2:3 3:3 4:3 5:3"
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
platform=$1 procs=$2 cases=$3 ops=${4:-alltoall,allgather,alltoallv} m=${5:-1,10,100}
for dn in $cases; do
  d=${dn%%:*} n=${dn##*:}
  out=$root/benchmarks/smpi/$platform-$procs-d${d}n${n}
  "$root/scripts/simulate.sh" --no-build --log "$out.log" "$platform" "$procs" cartbench --d "$d" --n "$n" --m "$m" \
    --op "$ops" --impl direct,combining,auto --reps 0 --warmup 1 --check --csv "$out.csv" --label "$platform-$procs" \
    >/dev/null || echo "run.sh: $platform $procs d$d n$n failed (see $out.log)" >&2
done
