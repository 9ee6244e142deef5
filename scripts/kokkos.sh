#!/usr/bin/env bash
# Builds a Kokkos for the configurations that need one other than Debian's Serial 3.4.01, once per
# variant and source, into a prefix outside the clone; the one place cartex's scripts build Kokkos.
# Usage: scripts/kokkos.sh VARIANT [--source DIR_OR_TARBALL] [--arch ARCH] [--host CXX] [--prefix DIR]
#   prints the Kokkos install prefix (for -DKokkos_ROOT, or CARTEX_KOKKOS_ROOT of the presets) on stdout
#   VARIANT  openmp   OpenMP + Serial, g++ (the openmp configuration: more than one thread per rank)
#            cuda     CUDA + Serial for ARCH, compiled by the source's nvcc_wrapper with CXX as host
#                     compiler (the cuda configuration; scripts/test_device.sh). nvcc_wrapper is installed
#                     in PREFIX/bin: cartex builds with it.
#   --source  a Kokkos source tree or release tarball (scripts/test_device.sh --kokkos-source); default:
#             Kokkos 3.4.01 from Debian's own trilinos source package
#   --arch    a Kokkos_ARCH_ name for cuda (default VOLTA70, or $CARTEX_KOKKOS_ARCH)
#   --host    nvcc's host compiler for cuda (default g++-11, the newest GCC that Debian's CUDA 11.8 takes)
#   --prefix  where to install (default ${XDG_CACHE_HOME:-~/.cache}/cartex/kokkos-3.4.01-VARIANT[-arch]
#             for Debian's source)
#
# What it does, step by step (progress goes to stderr):
#   1. Nothing, if PREFIX holds a complete build of the same source, variant, arch and host compiler.
#   2. Debian's source: downloads the source package `trilinos` (the version of the installed
#      libtrilinos-kokkos-dev; Kokkos 3.4.01 is its packages/kokkos) with `apt-get source --download-only`,
#      through a private apt configuration (scripts/apt_private.sh: deb-src lines made from this
#      machine's Debian sources, its own lists, state and cache; the machine's apt state is not touched),
#      and extracts only packages/kokkos (a tar wildcard; about 4 s). Debian's patches to trilinos change
#      only Kokkos' unit tests, which this build does not compile. A tarball is extracted whole.
#   3. Configures, builds and installs Kokkos (Release, C++17, tests off; 2-3 minutes on 2 cores for
#      openmp, about 5 for cuda), marks the prefix complete and deletes the sources and build tree.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage="usage: kokkos.sh openmp|cuda [--source DIR_OR_TARBALL] [--arch ARCH] [--host CXX] [--prefix DIR]"
variant=${1:-}
case "$variant" in openmp|cuda) shift ;; *) echo "kokkos.sh: VARIANT is openmp or cuda, got '$variant' ($usage)" >&2; exit 2 ;; esac
source_arg= arch=${CARTEX_KOKKOS_ARCH:-VOLTA70} host=g++-11 prefix=
while [ $# -gt 0 ]; do
  case "$1" in
    --source|--arch|--host|--prefix)
      [ -n "${2:-}" ] || { echo "kokkos.sh: $1 needs a value ($usage)" >&2; exit 2; }
      case "$1" in --source) source_arg=$(realpath "$2") ;; --arch) arch=$2 ;; --host) host=$2 ;;
                   --prefix) prefix=$(realpath -m "$2") ;; esac
      shift 2 ;;
    *) echo "kokkos.sh: unknown option '$1' ($usage)" >&2; exit 2 ;;
  esac
done
case "$variant" in
  openmp) options=(-DKokkos_ENABLE_OPENMP=ON) what="openmp" ;;
  cuda)
    for tool in nvcc "$host"; do
      command -v "$tool" >/dev/null || { echo "kokkos.sh: cuda needs $tool (scripts/setup.sh --cuda installs nvcc and g++-11)" >&2; exit 1; }
    done
    options=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON "-DKokkos_ARCH_$arch=ON" -DCMAKE_CXX_FLAGS="-ccbin $host")
    what="cuda $arch $host" ;;
esac

version=3.4.01
cache=${XDG_CACHE_HOME:-$HOME/.cache}/cartex
if [ -z "$prefix" ]; then
  [ -z "$source_arg" ] || { echo "kokkos.sh: --source needs --prefix ($usage)" >&2; exit 2; }
  name=kokkos-$version-$variant
  [ "$variant" = cuda ] && name=$name-${arch,,}
  prefix=$cache/$name
fi
stamp=$prefix/cartex-kokkos-complete
want="${source_arg:-debian trilinos} $what"
if [ -f "$stamp" ] && [ "$(head -1 "$stamp")" = "$want" ]; then echo "$prefix"; exit 0; fi

say() { echo "kokkos.sh: $*" >&2; }
work=$prefix-work
rm -rf "$work" "$prefix"
mkdir -p "$work/src"
if [ -z "$source_arg" ]; then
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
  tar -xf "$orig" -C "$work/src" --strip-components=1 --wildcards '*/packages/kokkos/*'
  kokkos_src=$work/src/packages/kokkos
  grep -q "Kokkos_VERSION_MAJOR 3" "$kokkos_src/CMakeLists.txt" 2>/dev/null \
    || grep -q "KOKKOS_VERSION_MAJOR 3" "$kokkos_src/CMakeLists.txt" \
    || { say "$orig does not hold Kokkos 3.x in packages/kokkos"; exit 1; }
elif [ -f "$source_arg" ]; then
  tar -xf "$source_arg" -C "$work/src" --strip-components=1
  kokkos_src=$work/src
else
  kokkos_src=$source_arg
fi
[ -f "$kokkos_src/CMakeLists.txt" ] && [ -x "$kokkos_src/bin/nvcc_wrapper" ] \
  || { say "${source_arg:-the trilinos source} is not a Kokkos source (no CMakeLists.txt and bin/nvcc_wrapper)"; exit 1; }
version=$(sed -n 's/^set(Kokkos_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\))/\2/Ip' "$kokkos_src/CMakeLists.txt" | paste -sd.)
[ "$variant" = cuda ] && options+=(-DCMAKE_CXX_COMPILER="$kokkos_src/bin/nvcc_wrapper")

say "building Kokkos $version ($what + Serial) into $prefix"
cmake -S "$kokkos_src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DKokkos_ENABLE_SERIAL=ON "${options[@]}" \
  -DKokkos_ENABLE_TESTS=OFF -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON >&2
cmake --build "$work/build" --parallel "$(nproc)" >&2
cmake --install "$work/build" >&2
printf '%s\nKokkos %s %s + Serial (%s)\n' "$want" "$version" "$what" "${options[*]}" >"$stamp"
rm -rf "$work"
say "done"
echo "$prefix"
