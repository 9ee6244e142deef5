#!/usr/bin/env bash
# The whole test suite on an NVIDIA GPU, unattended: for a machine with a CUDA toolkit, the packages
# of scripts/setup.sh and no network.
# Usage: scripts/test_device.sh --kokkos PREFIX | --kokkos-source DIR_OR_TARBALL  [--arch ARCH]
#                               [--build-dir DIR] [ctest options...]
#   --kokkos PREFIX          a Kokkos install with the CUDA backend (its bin/nvcc_wrapper compiles cartex)
#   --kokkos-source SOURCE   a Kokkos source tree, or a release tarball (.tar.gz/.tgz/.tar.xz): built
#                            once for the GPU found (CUDA + Serial, Release) into DIR-kokkos/install
#                            by scripts/kokkos.sh
#   --arch ARCH              a Kokkos_ARCH_ name (AMPERE80, HOPPER90, ...) instead of the one the GPU
#                            reports (nvidia-smi's compute capability)
#   --build-dir DIR          cartex's build directory (default: build-device/ in the clone)
# Steps: find the GPU (nvidia-smi; none: one line and exit 1), choose the host compiler nvcc accepts
# ($CUDAHOSTCXX, then g++, then g++-14 ... g++-9: the first one that compiles a CUDA file), build or
# take Kokkos, build cartex with every test in DIR (the device preset of CMakePresets.json), run its
# test preset (the arguments left over go to ctest). What ran is in DIR/test_device.log (GPU, driver, CUDA, Kokkos, compiler, results).
# scripts/bench_device.sh then measures the GPU with the same build.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build-device
usage="usage: test_device.sh --kokkos PREFIX | --kokkos-source DIR_OR_TARBALL [--arch ARCH] [--build-dir DIR] [ctest options...]"
die() { echo "test_device.sh: $*" >&2; exit "${code:-1}"; }

kokkos= source_arg= arch=
while [ $# -gt 0 ]; do
  case "$1" in
    --kokkos) [ -n "${2:-}" ] || code=2 die "--kokkos needs a PREFIX ($usage)"; kokkos=$2; shift 2 ;;
    --kokkos-source) [ -n "${2:-}" ] || code=2 die "--kokkos-source needs a DIR or TARBALL ($usage)"; source_arg=$2; shift 2 ;;
    --arch) [ -n "${2:-}" ] || code=2 die "--arch needs a Kokkos_ARCH_ name ($usage)"; arch=$2; shift 2 ;;
    --build-dir) [ -n "${2:-}" ] || code=2 die "--build-dir needs a DIR ($usage)"; build=$(realpath -m "$2"); shift 2 ;;
    *) break ;;
  esac
done
if [ -z "$kokkos$source_arg" ] || { [ -n "$kokkos" ] && [ -n "$source_arg" ]; }; then
  code=2 die "give one of --kokkos and --kokkos-source ($usage)"
fi
[ -z "$kokkos" ] || [ -f "$kokkos/include/KokkosCore_config.h" ] || code=2 die "--kokkos $kokkos: no include/KokkosCore_config.h there"
[ -z "$source_arg" ] || [ -e "$source_arg" ] || code=2 die "--kokkos-source $source_arg: no such file or directory"
kdir=$build-kokkos

command -v nvcc >/dev/null || die "no nvcc on PATH (a CUDA toolkit is needed)"
command -v nvidia-smi >/dev/null || die "no NVIDIA GPU found (nvidia-smi is not installed)"
gpu=$(nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader 2>/dev/null | head -1 || true)
[ -n "$gpu" ] || die "no NVIDIA GPU found (nvidia-smi lists none)"

# Kokkos_ARCH_ name of a compute capability (Kokkos 4.x names; 3.x has the same up to AMPERE86).
arch_of() {
  case "$1" in
    6.0) echo PASCAL60 ;; 6.1) echo PASCAL61 ;; 7.0) echo VOLTA70 ;; 7.2) echo VOLTA72 ;; 7.5) echo TURING75 ;;
    8.0) echo AMPERE80 ;; 8.6) echo AMPERE86 ;; 8.7) echo AMPERE87 ;; 8.9) echo ADA89 ;; 9.0) echo HOPPER90 ;;
    10.0) echo BLACKWELL100 ;; 12.0) echo BLACKWELL120 ;; *) return 1 ;;
  esac
}
capability=$(echo "$gpu" | cut -d, -f2 | tr -d ' ')
if [ -z "$arch" ]; then
  arch=$(arch_of "$capability") || die "compute capability $capability has no Kokkos_ARCH_ name here: pass --arch"
fi

mkdir -p "$build"
log=$build/test_device.log
: >"$log"
note() { echo "$*" | tee -a "$log"; }

# The first host compiler that nvcc accepts (each CUDA release supports GCC up to some version).
probe=$(mktemp -d)/host_probe.cu
printf '__global__ void k(double* p) { p[0] = 1; }\nint main() { return 0; }\n' >"$probe"
host=
for c in ${CUDAHOSTCXX:-} g++ g++-14 g++-13 g++-12 g++-11 g++-10 g++-9; do
  command -v "$c" >/dev/null || continue
  if nvcc -ccbin "$c" -std=c++17 -c "$probe" -o "${probe%.cu}.o" >/dev/null 2>&1; then host=$c; break; fi
done
[ -n "$host" ] || die "nvcc accepts none of the host compilers found (set CUDAHOSTCXX)"

note "GPU: $gpu -> Kokkos_ARCH_$arch"
note "CUDA: $(nvcc --version | sed -n 's/.*release \([0-9.]*\), \(V[0-9.]*\).*/\1 (\2)/p'), host compiler $host ($("$host" -dumpfullversion))"
note "CPU: $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), $(nproc) cores"

if [ -n "$source_arg" ]; then
  note "Kokkos: $source_arg for CUDA ($arch, host $host) into $kdir/install (scripts/kokkos.sh)"
  kokkos=$("$root/scripts/kokkos.sh" cuda --source "$source_arg" --arch "$arch" --host "$host" --prefix "$kdir/install" \
           2>>"$log") || die "Kokkos did not build ($log)"
fi
grep -q '^#define KOKKOS_ENABLE_CUDA' "$kokkos/include/KokkosCore_config.h" || die "$kokkos is a Kokkos without CUDA"
[ -x "$kokkos/bin/nvcc_wrapper" ] || die "$kokkos has no bin/nvcc_wrapper"
note "Kokkos: $kokkos ($(sed -n 's/^#define KOKKOS_VERSION \([0-9]*\)/\1/p' "$kokkos/include/KokkosCore_config.h"))"

"$root/scripts/setup.sh"
# The device preset (CMakePresets.json) reads these.
export CARTEX_DEVICE_BUILD=$build CARTEX_KOKKOS_ROOT=$kokkos CARTEX_CUDA_HOST_CXX=$host
(cd "$root" && cmake --preset device) >>"$log" 2>&1 || die "cartex did not configure ($log)"
if ! (cd "$root" && cmake --build --preset device --parallel "$(nproc)") >>"$log" 2>&1; then
  grep -E '^FAILED|error' "$log" | tail -20
  die "cartex did not build ($log)"
fi
note "cartex: built in $build; running the suite"
status=0
(cd "$root" && ctest --preset device "$@") 2>&1 | tee -a "$log" || status=1
note "test_device.sh: $( [ $status = 0 ] && echo passed || echo FAILED ) (log: $log)"
exit $status
