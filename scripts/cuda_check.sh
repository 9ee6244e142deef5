#!/usr/bin/env bash
# The cuda configuration's check (scripts/ci.sh cuda, after its build preset compiled cartex's libraries
# and apps with nvcc_wrapper for a CUDA Kokkos, no GPU here):
#   1. no device kernel calls a host function: nvcc only warns (#20011-#20015, "... is not allowed"),
#      but such a kernel cannot run on a GPU; the build's log (BUILD/ci-build.log) and the example's are read;
#   2. cartex installs, and examples/custom_update builds against the installation with
#      find_package(cartex), as a user's project would;
#   3. heat3d and the example hold device code of cartex's own kernels (cuobjdump lists the CUDA
#      kernels compiled for the architecture; a build that fell back to host code has none).
# Usage: scripts/cuda_check.sh BUILD_DIR      (the cuda preset's, build-cuda/)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath "${1:?usage: cuda_check.sh BUILD_DIR}")
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
no_host_calls() {
  if grep -E 'warning #2001[0-9]-D|from a __host__ __device__ function .* is not allowed' "$@"; then
    echo "cuda_check.sh: device code calls host functions (above)"; exit 1
  fi
}
no_host_calls "$build/ci-build.log"

echo "== examples/custom_update against the installed cartex (find_package)"
cmake --install "$build" >/dev/null
example=$build/custom_update
cmake -S "$root/examples/custom_update" -B "$example" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$(cache CMAKE_INSTALL_PREFIX)" -DCMAKE_CXX_COMPILER="$(cache CMAKE_CXX_COMPILER)" \
  -DCMAKE_CXX_FLAGS="$(cache CMAKE_CXX_FLAGS)" >/dev/null
cmake --build "$example" --parallel "$(nproc)" 2>&1 | tee "$example/build.log"
no_host_calls "$example/build.log"

echo "== device code in the binaries"
status=0
for exe in "$build/bin/heat3d" "$example/my_heat"; do
  kernels=$( (cuobjdump --list-elf "$exe" 2>/dev/null || true) | wc -l)
  cartex=$( (cuobjdump --dump-elf-symbols "$exe" 2>/dev/null || true) | grep -c 'cartex' || true)
  if [ "$kernels" -gt 0 ] && [ "$cartex" -gt 0 ]; then
    echo "$(basename "$exe"): $kernels device ELF image(s), $cartex symbols of cartex's kernels"
  else
    echo "$(basename "$exe"): no device code of cartex's kernels (cuobjdump: $kernels ELF images, $cartex cartex symbols)"
    status=1
  fi
done
exit $status
