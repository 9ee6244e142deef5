#!/usr/bin/env bash
# Builds Kokkos 3.4.01 from Debian's own source package, once per variant, into a cache outside the
# clone, for the configurations of CI that need a Kokkos other than Debian's Serial one.
# Usage: scripts/kokkos.sh VARIANT     prints the Kokkos install prefix (for -DKokkos_ROOT) on stdout
#   openmp   OpenMP + Serial, g++ (scripts/test_openmp.sh: more than one thread per rank)
#   cuda     CUDA + Serial for ${CARTEX_KOKKOS_ARCH:-VOLTA70} (a Kokkos_ARCH_ name), nvcc from Debian's
#            nvidia-cuda-toolkit 11.8 with g++-11 as host compiler (scripts/setup.sh --cuda installs both;
#            scripts/build_cuda.sh). Kokkos' nvcc_wrapper is installed in PREFIX/bin: cartex builds with it.
#
# What it does, step by step (progress goes to stderr):
#   1. Nothing, if the cache (${XDG_CACHE_HOME:-~/.cache}/cartex/kokkos-3.4.01-VARIANT) is complete.
#   2. Downloads the source package `trilinos` (the version of the installed libtrilinos-kokkos-dev;
#      it contains Kokkos 3.4.01 in packages/kokkos) with `apt-get source --download-only`, through a
#      private apt configuration (scripts/apt_private.sh: deb-src lines made from this machine's Debian
#      sources, its own lists, state and cache directories; the machine's apt state is not touched).
#   3. Extracts only packages/kokkos from the source archive (a tar wildcard; about 4 s).
#   4. Configures, builds and installs Kokkos (Release, C++17, tests off; 2-3 minutes on 2 cores for
#      openmp, about 5 for cuda) and marks the cache complete. The archives and build tree are deleted.
#      Debian's patches to trilinos change only Kokkos' unit tests, which this build does not compile.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
variant=${1:-}
arch=${CARTEX_KOKKOS_ARCH:-VOLTA70}
case "$variant" in
  openmp) options=(-DKokkos_ENABLE_OPENMP=ON) ;;
  cuda)
    for tool in nvcc g++-11; do
      command -v $tool >/dev/null || { echo "kokkos.sh: cuda needs $tool (scripts/setup.sh --cuda installs it)" >&2; exit 1; }
    done
    # nvcc_wrapper compiles with nvcc and hands host code to `-ccbin`: CUDA 11.8 supports GCC <= 11.
    options=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON "-DKokkos_ARCH_$arch=ON"
             -DCMAKE_CXX_FLAGS="-ccbin g++-11") ;;
  *) echo "kokkos.sh: VARIANT is openmp or cuda, got '$variant'" >&2; exit 2 ;;
esac

version=3.4.01
cache=${XDG_CACHE_HOME:-$HOME/.cache}/cartex
name=kokkos-$version-$variant
[ "$variant" = cuda ] && name=$name-${arch,,}
prefix=$cache/$name
stamp=$prefix/cartex-kokkos-complete
if [ -f "$stamp" ]; then echo "$prefix"; exit 0; fi

say() { echo "kokkos.sh: $*" >&2; }
work=$cache/$name-work
rm -rf "$work" "$prefix"
mkdir -p "$work"
. "$root/scripts/apt_private.sh"
apt_private "$work/apt" deb-src main
: >"$work/apt/status"
apt=(apt-get "${APT_PRIVATE[@]}" -o Dir::State="$work/apt" -o Dir::State::status="$work/apt/status")
trilinos=$(dpkg-query -W -f='${Version}' libtrilinos-kokkos-dev 2>/dev/null || true)
say "downloading the Debian source package trilinos${trilinos:+ $trilinos} (private apt lists in $work/apt)"
"${apt[@]}" -qq update >&2
(cd "$work" && "${apt[@]}" -qq source --download-only "trilinos${trilinos:+=$trilinos}" >&2)

say "extracting packages/kokkos"
orig=$(ls "$work"/trilinos_*.orig.tar.*)
mkdir -p "$work/src"
tar -xf "$orig" -C "$work/src" --strip-components=1 --wildcards '*/packages/kokkos/*'
kokkos_src=$work/src/packages/kokkos
grep -q "Kokkos_VERSION_MAJOR 3" "$kokkos_src/CMakeLists.txt" 2>/dev/null \
  || grep -q "KOKKOS_VERSION_MAJOR 3" "$kokkos_src/CMakeLists.txt" \
  || { say "$orig does not hold Kokkos 3.x in packages/kokkos"; exit 1; }
[ "$variant" = cuda ] && options+=(-DCMAKE_CXX_COMPILER="$kokkos_src/bin/nvcc_wrapper")

say "building Kokkos $version ($variant + Serial) into $prefix"
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S "$kokkos_src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DKokkos_ENABLE_SERIAL=ON "${options[@]}" \
  -DKokkos_ENABLE_TESTS=OFF -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON "${launcher[@]}" >&2
cmake --build "$work/build" --parallel "$(nproc)" >&2
cmake --install "$work/build" >&2
echo "Kokkos $version $variant+Serial${options:+ (${options[*]})} from Debian trilinos ${trilinos:-source}" >"$stamp"
rm -rf "$work"
say "done"
echo "$prefix"
