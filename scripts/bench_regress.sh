#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Regression guard for the collectives (docs/performance.md, "Regression guard"): reruns the cartbench
# and halobench cases of benchmarks/ratios.csv and prints one line per case, whether its ratio to its
# baseline (measured within one run) moved beyond the noise: SLOWER, FASTER or SAME. Exit 1 if a case
# is slower, 2 if a benchmark failed or the file is malformed. A benchmark tool for a quiet machine,
# not a test.
# --update rewrites the reference ratios from this measurement instead (then commit the file).
# Usage: scripts/bench_regress.sh [--update] [RUNS (default 3)] [BUILD_DIR (default build)]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=compare
if [[ ${1:-} == --update ]]; then
  mode=update
  shift
fi
runs=${1:-3}
build=${2:-$root/build}
ref=$root/benchmarks/ratios.csv
# The timing method of docs/performance.md's measurements, for every case.
method=(--warmup 20 --reps 100 --series 10)

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
commit=$(git -C "$root" rev-parse --short HEAD)
cpu="$(lscpu | sed -n 's/^Model name: *//p') (family $(lscpu | sed -n 's/^CPU family: *//p') model $(lscpu | sed -n 's/^Model: *//p')), $(nproc) cores"
load=$(cut -d' ' -f1 /proc/loadavg)
echo "machine: $cpu; commit $commit; $runs runs; load $load"
# Ratios move with the load (dependent phases wait longer for a descheduled partner than one exchange).
if awk -v l="$load" -v n="$(nproc)" 'BEGIN { exit !(l > n / 2) }'; then
  echo "warning: load $load on $(nproc) cores before the runs; compare with a reference taken under the same load"
fi

groups=$(python3 "$root/scripts/bench_ratios.py" runs "$ref")
# Run r of every group before run r + 1 of any, so a change in load spreads over all groups.
for run in $(seq "$runs"); do
  # mpiexec reads from stdin: it gets /dev/null, so that the list of groups reaches `read`.
  while IFS=$'\t' read -r group bench ranks args; do
    read -r -a argv <<<"$args"
    . "$root/scripts/mpiexec_flags.sh" "$ranks" "$build"
    echo "run $run: $group ($ranks ranks, load $(cut -d' ' -f1 /proc/loadavg))"
    if ! "$MPIEXEC" -n "$ranks" "${MPIEXEC_FLAGS[@]}" --bind-to none "$build/bin/$bench" "${argv[@]}" "${method[@]}" \
        --csv "$out/${group}_$run.csv" --label "$group" </dev/null >"$out/log" 2>&1; then
      echo "bench_regress: $bench failed on $group:"
      cat "$out/log"
      exit 2
    fi
  done <<<"$groups"
done

if [[ $mode == update ]]; then
  python3 "$root/scripts/bench_ratios.py" update "$ref" "$commit $(date -u +%F), $cpu, load $load" "$out"/*.csv
else
  python3 "$root/scripts/bench_ratios.py" compare "$ref" "$out"/*.csv
fi
