#!/usr/bin/env bash
# The CUDA configuration of CI: compiles and links cartex for a CUDA Kokkos on a machine without a GPU,
# from Debian's packages only.
#   1. scripts/setup.sh --cuda: Debian's CUDA 11.8 toolkit (non-free) and g++-11, its host compiler.
#   2. scripts/kokkos.sh cuda: Kokkos 3.4.01 (Debian's trilinos source) with CUDA + Serial for
#      ${CARTEX_KOKKOS_ARCH:-VOLTA70}, cached in ~/.cache/cartex; its nvcc_wrapper is cartex's compiler.
#   3. cartex (Release, build-cuda/): the libraries, every app and benchmark, installed into
#      build-cuda/install; then examples/custom_update built against that installation with
#      find_package(cartex), as a user's project would be.
#   4. Checks that the binaries hold device code for cartex's own kernels (cuobjdump lists the CUDA
#      kernels compiled for the architecture; a build that fell back to host code has none).
# Not built here: the tests (about as many translation units again, and none can run without a GPU;
# scripts/test_device.sh builds and runs the whole suite on a machine with one).
# Usage: scripts/build_cuda.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh" --cuda
kokkos=$("$root/scripts/kokkos.sh" cuda)
build=$root/build-cuda
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# nvcc_wrapper passes -ccbin to nvcc: CUDA 11.8 accepts GCC up to 11 as host compiler. The translation
# units without Kokkos (comm/cart, comm/graph) get nvcc's default architecture, deprecated in 11.8.
cuda_cxx=(-DCMAKE_CXX_COMPILER="$kokkos/bin/nvcc_wrapper" -DCMAKE_CXX_FLAGS="-ccbin g++-11 -Wno-deprecated-gpu-targets")
log=$build/build.log
mkdir -p "$build"
# A host function called from a kernel is only a warning to nvcc (#20011-#20015, "... is not allowed"),
# but that kernel cannot run on the device: such a warning fails the build here.
no_host_calls() {
  if grep -E 'warning #2001[0-9]-D|from a __host__ __device__ function .* is not allowed' "$log"; then
    echo "build_cuda.sh: device code calls host functions (above)"; exit 1
  fi
}

echo "== cartex on Kokkos with CUDA ($kokkos, $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/CUDA \1/p')): $build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$kokkos" "${cuda_cxx[@]}" \
  -DCARTEX_BUILD_TESTS=OFF -DCMAKE_INSTALL_PREFIX="$build/install" "${launcher[@]}" >/dev/null
cmake --build "$build" --parallel "$(nproc)" 2>&1 | tee "$log"
no_host_calls
cmake --install "$build" >/dev/null

echo "== examples/custom_update against the installed cartex (find_package)"
cmake -S "$root/examples/custom_update" -B "$build/custom_update" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$build/install" "${cuda_cxx[@]}" "${launcher[@]}" >/dev/null
cmake --build "$build/custom_update" --parallel "$(nproc)" 2>&1 | tee -a "$log"
no_host_calls

echo "== device code in the binaries"
status=0
for exe in "$build/bin/heat3d" "$build/custom_update/my_heat"; do
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
