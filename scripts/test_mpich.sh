#!/usr/bin/env bash
# The MPICH configuration of CI (scripts/test.sh --full): installs MPICH 4 and its parallel HDF5 next to
# Open MPI (scripts/setup.sh --mpi mpich), builds cartex (Release) into build-mpich/ with MPICH's
# compiler wrappers, its mpiexec (Hydra) and its HDF5 named explicitly (the machine's default MPI stays
# Open MPI), runs the tests whose outcome the MPI library can change, chosen by label, and then checks
# that heat3d gives the Open MPI build's checksums (build/, built first by scripts/test.sh) for every
# backend on 1, 2 and 4 ranks (tests/apps/mpi_checksums.py).
#
# Chosen by label, tests and build targets (cartex_tests_<label>; docs/testing.md, "Configurations"):
# the layers that call MPI (cart, graph, ranks, halo,
# halobench, io, entry, apps, examples, downstream, profiling, scripts, multinode.unavailable) on 1-2
# ranks. Left out: core, kernels, docs and style (no MPI behaviour in them); the 3-8 rank variants and
# the longest drivers, heat3d.backends_bitwise, heat3d.auto_bitwise, the boundary matrices
# boundary.insulated, boundary.mixed_bitwise, boundary.cosine_exact and advect3d.bitwise (up to 8 ranks; MPICH's ch4:ucx busy-polls,
# so ranks beyond the cores run 10-40x slower than under Open MPI; mpi_checksums.py runs every backend
# on 4 ranks instead); the multinode tests (the testbed runs Open MPI only).
# Usage: scripts/test_mpich.sh [ctest options...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh" --mpi mpich
multiarch=$(gcc -print-multiarch)
build=$root/build-mpich
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
echo "== cartex on MPICH ($(mpichversion | sed -n 's/^MPICH Version: *//p' | tr -d '\t')): $build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DMPI_C_COMPILER=mpicc.mpich -DMPI_CXX_COMPILER=mpicxx.mpich -DMPIEXEC_EXECUTABLE="$(command -v mpiexec.mpich)" \
  -DHDF5_ROOT="/usr/lib/$multiarch/hdf5/mpich" "${launcher[@]}" >/dev/null
labels=(cart graph ranks halo halobench io entry apps examples downstream profiling scripts)
cmake --build "$build" --parallel "$(nproc)" --target "${labels[@]/#/cartex_tests_}"
(cd "$build" && ctest --output-on-failure --no-tests=error --parallel "$(nproc)" -L "^($(IFS='|'; echo "${labels[*]}"))\$" \
  -E '\.np[3-8]$|^heat3d\.(backends|auto)_bitwise$|^boundary\.(insulated|mixed_bitwise|cosine_exact)$|^advect3d\.bitwise$' "$@")
(cd "$build" && ctest --output-on-failure --no-tests=error -R '^multinode\.unavailable$')

echo "== heat3d on MPICH against Open MPI: same checksums"
"$root/scripts/build.sh" heat3d
python3 "$root/tests/apps/mpi_checksums.py" --reference "$root/build" --build "$build"
