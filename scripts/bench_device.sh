#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# heat3d on one NVIDIA GPU, measured (docs/performance.md, "Device"): 7pt and 27pt at 256^3 and 512^3,
# 1 rank and 2 ranks sharing the GPU, comm.overlap false and true (p2p, an exchange every step, no
# temporal blocking), each against the device's copy bandwidth: kernelbench's STREAM copy (b = a, a
# Kokkos kernel in the default execution space, i.e. on the GPU), measured with the same ranks in the
# same round. Every configuration runs once per round (default 2 rounds, taking turns within a round,
# so a change in load hits all of them); the table gives every round and the spread.
#
# Bandwidth model (the one of kernelbench's bound): a point update reads u and writes u' once, 16 B,
# the neighbours coming from cache; so the bandwidth-bound rate is copy GB/s / 16 B = G point updates
# per second, for 7pt and 27pt alike. "of bound" = heat3d's GLUP/s / that rate.
#
# Writes to the results directory: device.csv (one row per run, every figure with the machine),
# device.md (the table: rounds, spread) and logs/ (every run's full output). Prints the machine
# (CPU, GPU, Kokkos, CUDA) and the table.
# Fails with one line on stderr and exit 1 when the build is not a CUDA build or no NVIDIA GPU is found
# (exit 2: a bad option). --allow-host runs the same pipeline on a host build (CPU, small sizes): for
# testing the script (tests/scripts), its figures are not GPU figures.
#
# Usage: scripts/bench_device.sh [--rounds N] [--sizes N,N] [--steps N] [--stream-size N]
#                                [--results DIR] [--allow-host] [BUILD_DIR (default build-device)]
#   --rounds       runs of every configuration (default 2)
#   --sizes        cube edges (default 256,512; --allow-host: 32,64)
#   --steps        heat3d time steps per run (default 200; --allow-host: 20)
#   --stream-size  kernelbench's STREAM array length in doubles (default kernelbench's 2^25; --allow-host: 2^22)
#   --results      where the files go (default output/bench_device/<UTC date and time>)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
me=bench_device.sh
fail() { echo "$me: $*" >&2; exit 1; }
usage() { echo "$me: $* (usage: $me [--rounds N] [--sizes N,N] [--steps N] [--stream-size N] [--results DIR] [--allow-host] [BUILD_DIR])" >&2; exit 2; }

rounds=2 sizes= steps= stream= results= allow_host=false build=
positive() { [[ $2 =~ ^[1-9][0-9]*$ ]] || usage "$1 takes a positive integer, got '$2'"; }
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) positive "$1" "${2-}"; rounds=$2; shift 2 ;;
    --sizes) [[ ${2-} =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || usage "--sizes takes edges like 256,512, got '${2-}'"
             sizes=$2; shift 2 ;;
    --steps) positive "$1" "${2-}"; steps=$2; shift 2 ;;
    --stream-size) positive "$1" "${2-}"; stream=$2; shift 2 ;;
    --results) [ -n "${2-}" ] || usage "--results takes a directory"; results=$2; shift 2 ;;
    --allow-host) allow_host=true; shift ;;
    -*) usage "unknown option '$1'" ;;
    *) [ -z "$build" ] || usage "one build directory, got '$build' and '$1'"; build=$1; shift ;;
  esac
done
given=${build:-$root/build-device}
build=$(cd "$given" 2>/dev/null && pwd) || fail "no build directory $given"
if $allow_host; then
  sizes=${sizes:-32,64} steps=${steps:-20} stream=${stream:-4194304}
else
  sizes=${sizes:-256,512} steps=${steps:-200} stream=${stream:-33554432}
fi
for p in heat3d kernelbench; do
  [ -x "$build/bin/$p" ] || fail "$build has no bin/$p (build the targets heat3d and kernelbench there)"
done

# The Kokkos the build was configured with, and its backends (KokkosConfig*.cmake: set(Kokkos_DEVICES ...)).
kokkos_dir=$(sed -n 's/^Kokkos_DIR:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
devices=$( (cat "$kokkos_dir"/KokkosConfig*.cmake 2>/dev/null || true) \
  | sed -n 's/^ *[sS][eE][tT] *( *Kokkos_DEVICES *"\{0,1\}\([^")]*\).*/\1/p')
devices=${devices%%$'\n'*}
if ! $allow_host && [[ ";$devices;" != *";CUDA;"* ]]; then
  fail "$build is not a CUDA build: its Kokkos (${kokkos_dir:-not found in CMakeCache.txt}) has devices '${devices:-unknown}'"
fi

# The NVIDIA GPUs: nvidia-smi -L, or the driver's /proc entries where nvidia-smi is not installed.
gpu_names() {
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi -L 2>/dev/null | sed -n 's/^GPU [0-9]*: \(.*\) (UUID:.*/\1/p' || true
  else
    for f in /proc/driver/nvidia/gpus/*/information; do
      if [ -f "$f" ]; then sed -n 's/^Model: *//p' "$f"; fi
    done
  fi
}
gpus=$(gpu_names)
if $allow_host; then
  gpu="none (--allow-host: host build, CPU figures)"
  cuda="none (host build)"
else
  [ -n "$gpus" ] || fail "no NVIDIA GPU found (nvidia-smi -L lists none, or no nvidia-smi and no /proc/driver/nvidia/gpus)"
  # Both ranks of the 2-rank runs share one GPU: the first one, unless CUDA_VISIBLE_DEVICES says otherwise.
  export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0}
  index=${CUDA_VISIBLE_DEVICES%%,*}
  [[ $index =~ ^[0-9]+$ ]] || index=0
  gpu=$(sed -n "$((index + 1))p" <<<"$gpus")
  gpu=${gpu:-$(head -1 <<<"$gpus")}
  driver=$( (nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null || true) | head -1)
  nvcc=$(command -v nvcc || ls "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" 2>/dev/null || true)
  toolkit=$( ([ -n "$nvcc" ] && "$nvcc" --version || true) | sed -n 's/.*release \([0-9.]*\).*/\1/p')
  cuda="toolkit ${toolkit:-unknown (no nvcc found)}, driver ${driver:-unknown}"
fi
cpu="$(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)

results=${results:-$root/output/bench_device/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$results/logs"
results=$(cd "$results" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
csv=$results/device.csv
echo "round,stencil,n,ranks,overlap,steps,kernel,execution_space,glups,time_per_step_ms,copy_gbs,bound_glups," \
     "fraction_of_bound,exchange_share_pct,hidden_share_pct,cpu,gpu,kokkos,cuda,commit,date" | tr -d ' ' >"$csv"

# value LOG SED_EXPRESSION WHAT: the one value the expression prints from LOG, or fail naming the log.
value() {
  local v
  v=$(sed -n "$2" "$1")
  [ -n "$v" ] || fail "no $3 in $1"
  echo "${v%%$'\n'*}"
}

# copy_bandwidth RANKS LOG: kernelbench's STREAM copy in GB/s on RANKS ranks (aggregate).
copy_bandwidth() {
  . "$root/scripts/mpiexec_flags.sh" "$1" "$build"
  (cd "$work" && "$MPIEXEC" -n "$1" "${MPIEXEC_FLAGS[@]}" "$build/bin/kernelbench" --sizes 8 --stencils 7pt \
     --stream-size "$stream" --repeats 10) </dev/null >"$2" 2>&1 || fail "kernelbench on $1 rank(s) failed: $2"
  value "$2" 's/^STREAM copy *\([0-9.]*\) GB\/s.*/\1/p' "STREAM copy line"
}

kokkos=
echo "machine: CPU $cpu; GPU $gpu; CUDA $cuda; commit $commit; build $build"
for round in $(seq "$rounds"); do
  for ranks in 1 2; do
    copy=$(copy_bandwidth "$ranks" "$results/logs/kernelbench-r$round-np$ranks.txt")
    . "$root/scripts/mpiexec_flags.sh" "$ranks" "$build"
    for stencil in 7pt 27pt; do
      for n in ${sizes//,/ }; do
        for overlap in false true; do
          log=$results/logs/heat3d-r$round-$stencil-$n-np$ranks-overlap_$overlap.txt
          echo "-- round $round: heat3d $stencil ${n}^3, $ranks rank(s), overlap $overlap (load $(cut -d' ' -f1 /proc/loadavg))"
          (cd "$work" && "$MPIEXEC" -n "$ranks" "${MPIEXEC_FLAGS[@]}" "$build/bin/heat3d" "$root/inputs/heat3d.yaml" \
             --set "grid.n=[$n,$n,$n]" --set stencil=$stencil --set run.steps="$steps" --set run.progress_every=0 \
             --set output.history=false --set comm.backend=p2p --set comm.overlap=$overlap \
             --set halo.steps_per_exchange=1 --set halo.temporal_blocking=off) </dev/null >"$log" 2>&1 \
            || fail "heat3d failed: $log"
          # kokkos: "4.6.1, Cuda, 1 thread(s) per rank"
          k=$(value "$log" 's/^  kokkos *//p' "kokkos line")
          space=$(cut -d, -f2 <<<"$k" | tr -d ' ')
          kokkos=${kokkos:-$(cut -d, -f1 <<<"$k")}
          if ! $allow_host && [ "$space" != Cuda ]; then fail "heat3d ran on $space, not Cuda: $log"; fi
          kernel=$(value "$log" 's/^  grid .*(\(.*\) kernel).*/\1/p' "kernel in the grid line")
          mlups=$(value "$log" 's/^  MLUP\/s *\([0-9.]*\)$/\1/p' "MLUP/s line")
          ms=$(value "$log" 's/^  time\/step *\([0-9.e+-]*\) ms$/\1/p' "time/step line")
          share=$(value "$log" 's/^  exchange share .*avg \([0-9.]*\)%.*/\1/p' "exchange share line")
          hidden=
          if [ $overlap = true ]; then hidden=$(value "$log" 's/^  overlap *hidden \([0-9.]*\)%.*/\1/p' "overlap line"); fi
          read -r glups bound fraction <<<"$(awk -v m="$mlups" -v c="$copy" \
            'BEGIN { printf "%.6g %.6g %.6g", m / 1000, c / 16, (m / 1000) / (c / 16) }')"
          printf '%s,%s,%s,%s,%s,%s,"%s",%s,%s,%s,%s,%s,%s,%s,%s,"%s","%s","%s","%s",%s,%s\n' "$round" $stencil "$n" "$ranks" \
            $overlap "$steps" "$kernel" "$space" "$glups" "$ms" "$copy" "$bound" "$fraction" "$share" "$hidden" \
            "$cpu" "$gpu" "$kokkos" "$cuda" "$commit" "$(date -u +%FT%TZ)" >>"$csv"
        done
      done
    done
  done
done

python3 "$root/scripts/bench_device_table.py" "$csv" >"$results/device.md"
echo
cat "$results/device.md"
echo
echo "results: $csv, $results/device.md, logs in $results/logs"
