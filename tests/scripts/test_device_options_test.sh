#!/usr/bin/env bash
# scripts/test_device.sh before it builds anything: bad arguments are one line and exit 2; no GPU, a GPU
# without a Kokkos_ARCH_ name and a Kokkos without CUDA are one line and exit 1; a GPU's compute
# capability becomes the Kokkos_ARCH_ it builds for. nvcc and nvidia-smi are stubs on PATH (no GPU here).
# Usage: test_device_options_test.sh REPO_ROOT
set -u
root=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/kokkos-host/include" "$work/kokkos-cuda/include" "$work/kokkos-cuda/bin"
printf '#!/bin/sh\n[ "$1" = --version ] && echo "Cuda compilation tools, release 12.4, V12.4.131" && exit 0\nexit 0\n' >"$work/bin/nvcc"
echo '#define KOKKOS_ENABLE_SERIAL' >"$work/kokkos-host/include/KokkosCore_config.h"
printf '#define KOKKOS_ENABLE_CUDA\n#define KOKKOS_VERSION 40601\n' >"$work/kokkos-cuda/include/KokkosCore_config.h"
chmod +x "$work/bin/nvcc"
gpu() {  # gpu LINE: nvidia-smi lists one GPU as LINE (name, compute capability, driver), or none
  printf '#!/bin/sh\necho "%s"\n' "$1" >"$work/bin/nvidia-smi" && chmod +x "$work/bin/nvidia-smi"
}
fail=0
expect() {  # expect RC LINE -- ARGS...: test_device.sh ARGS exits RC and its last stderr line is LINE
  local rc_want=$1 line=$2; shift 3
  local err rc
  err=$(PATH=$work/bin:$PATH "$root/scripts/test_device.sh" --build-dir "$work/build" "$@" 2>&1 >/dev/null); rc=$?
  if [ $rc -eq "$rc_want" ] && [ "$(tail -1 <<<"$err")" = "$line" ]; then echo "ok: $*"; else
    echo "FAIL: test_device.sh $*: exit $rc, stderr '$err', expected exit $rc_want and '$line'"; fail=1; fi
}
usage="usage: test_device.sh --kokkos PREFIX | --kokkos-source DIR_OR_TARBALL [--arch ARCH] [--build-dir DIR] [ctest options...]"
gpu "Tesla V100-SXM2-16GB, 7.0, 550.54.15"
expect 2 "test_device.sh: give one of --kokkos and --kokkos-source ($usage)" --
expect 2 "test_device.sh: give one of --kokkos and --kokkos-source ($usage)" -- --kokkos "$work/kokkos-cuda" --kokkos-source "$work"
expect 2 "test_device.sh: --arch needs a Kokkos_ARCH_ name ($usage)" -- --kokkos "$work/kokkos-cuda" --arch
expect 2 "test_device.sh: --kokkos $work/nowhere: no include/KokkosCore_config.h there" -- --kokkos "$work/nowhere"
expect 2 "test_device.sh: --kokkos-source $work/none.tar.gz: no such file or directory" -- --kokkos-source "$work/none.tar.gz"
expect 1 "test_device.sh: $work/kokkos-host is a Kokkos without CUDA" -- --kokkos "$work/kokkos-host"
grep -q "GPU: Tesla V100-SXM2-16GB, 7.0, 550.54.15 -> Kokkos_ARCH_VOLTA70" "$work/build/test_device.log" \
  && echo "ok: compute capability 7.0 is VOLTA70" || { echo "FAIL: no VOLTA70 line in test_device.log"; fail=1; }
gpu "NVIDIA H100 80GB HBM3, 9.0, 560.35.03"
expect 1 "test_device.sh: $work/kokkos-host is a Kokkos without CUDA" -- --kokkos "$work/kokkos-host"
grep -q "> Kokkos_ARCH_HOPPER90$" "$work/build/test_device.log" \
  && echo "ok: compute capability 9.0 is HOPPER90" || { echo "FAIL: no HOPPER90 line in test_device.log"; fail=1; }
expect 1 "test_device.sh: $work/kokkos-cuda has no bin/nvcc_wrapper" -- --kokkos "$work/kokkos-cuda" --arch AMPERE80
grep -q "> Kokkos_ARCH_AMPERE80$" "$work/build/test_device.log" \
  && echo "ok: --arch overrides the GPU's" || { echo "FAIL: --arch AMPERE80 not in test_device.log"; fail=1; }
gpu "Tesla M60, 5.2, 470.1"
expect 1 "test_device.sh: compute capability 5.2 has no Kokkos_ARCH_ name here: pass --arch" -- --kokkos "$work/kokkos-cuda"
gpu ""
expect 1 "test_device.sh: no NVIDIA GPU found (nvidia-smi lists none)" -- --kokkos "$work/kokkos-cuda"
exit $fail
