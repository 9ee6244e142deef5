#!/usr/bin/env bash
# The threaded configuration, as CI runs it (scripts/test.sh --full): builds cartex (Release) into
# build-openmp/ against Kokkos 3.4.01 with the OpenMP backend (built once into ~/.cache/cartex by
# scripts/kokkos.sh openmp), then runs the test suite with 2 OpenMP threads per rank, unbound
# (OMP_NUM_THREADS=2 OMP_PROC_BIND=false), so every parallel loop runs on more than one thread.
# Up to 8 ranks x 2 threads share 2 cores, so idle threads sleep instead of spinning
# (OMP_WAIT_POLICY=passive): spinning at every Kokkos barrier made halo_test on 2 ranks 12x slower.
# Chosen by label, tests and build targets (cartex_tests_<label>; docs/testing.md, "Configurations"): the layers that run Kokkos code (core, kernels,
# halo, halobench, io, entry, apps, examples, downstream, profiling), up to 4 ranks. Left out: cart,
# graph and ranks (MPI only, no Kokkos: threads cannot change them), docs, style, scripts and multinode
# (they run the Release build or check no build), the label "inputs" (inputs, checkpoints and resources
# refused before any Kokkos loop runs) and the 5-8 rank variants (the code paths of 2-4 ranks).
# Usage: scripts/test_openmp.sh [ctest options...]     e.g. scripts/test_openmp.sh -R halo
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kokkos=$("$root/scripts/kokkos.sh" openmp)
build=$root/build-openmp
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
echo "== cartex on Kokkos with OpenMP ($kokkos), 2 threads per rank: $build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$kokkos" "${launcher[@]}" >/dev/null
labels=(core kernels physics halo halobench io entry apps examples downstream profiling)
cmake --build "$build" --parallel "$(nproc)" --target "${labels[@]/#/cartex_tests_}"
export OMP_NUM_THREADS=2 OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
(cd "$build" && ctest --output-on-failure --no-tests=error --parallel "$(nproc)" -L "^($(IFS='|'; echo "${labels[*]}"))\$" \
  -LE '^inputs$' -E '\.np[5-8]$' "$@")
