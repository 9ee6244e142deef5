#!/usr/bin/env bash
# Installs what is missing, builds cartex (Release) and runs every test with ctest but the label
# `long` (seven matrices of 30-140 s each: heat3d.backends_bitwise, io.corrupt.{heat,wave}_structure,
# input.mutations, boundary.{insulated,mixed_bitwise}, advect3d.bitwise), so that the everyday run stays under 10 minutes on 2 cores.
# Usage: scripts/test.sh [--full] [ctest options...]     e.g. scripts/test.sh -R halo
#   --full   the label `long` too, then also the threaded configuration (cartex on a Kokkos with OpenMP, 2 threads per rank:
#            scripts/test_openmp.sh), the sanitized one (ASan + UBSan: scripts/test_asan.sh), 60 s of
#            fuzzing the input layer (scripts/fuzz.sh), the MPICH one (scripts/test_mpich.sh) and the
#            CUDA compile and link (scripts/build_cuda.sh), as CI does; each of them builds and runs
#            what it can change (docs/testing.md, "Configurations")
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
full=0
if [ "${1:-}" = "--full" ]; then full=1; shift; fi
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
everyday=(-LE '^long$')
if [ $full = 1 ]; then everyday=(); fi
(cd "$root/build" && ctest --output-on-failure --no-tests=error --parallel "$(nproc)" "${everyday[@]}" "$@")
if [ $full = 1 ]; then
  "$root/scripts/test_openmp.sh"
  "$root/scripts/test_asan.sh"
  "$root/scripts/fuzz.sh" 60
  "$root/scripts/test_mpich.sh"
  "$root/scripts/build_cuda.sh"
fi
