#!/usr/bin/env bash
# Installs the Debian packages cartex builds and runs with. Idempotent: quiet and quick when
# everything is already there; runs `apt-get update` once before installing anything missing.
# Usage: scripts/setup.sh [--mpi mpich] [--cuda] [--fuzz] [--smpi] [--slurm] [--download-only]
#   --mpi mpich   also MPICH and its parallel HDF5, next to Open MPI (the default MPI stays Open MPI;
#                 an MPICH build names it: the mpich preset, docs/testing.md)
#   --cuda        also Debian's CUDA 11.8 toolkit (nvidia-cuda-toolkit, in Debian's non-free component,
#                 reached through a private apt sources list: scripts/apt_private.sh; the machine's own
#                 sources are not edited) and g++-11, the newest GCC that CUDA 11.8 accepts as host
#                 compiler (the cuda configuration, scripts/ci.sh cuda; about 1.6 GB to download)
#   --fuzz        also clang and its libFuzzer runtime (the fuzz configuration, scripts/fuzz.sh)
#   --smpi        also SimGrid 3.32 (libsimgrid-dev: smpicxx, smpirun and the platform loader), for the
#                 simulated runs at scale (scripts/simulate.sh, the smpi configuration, docs/scale.md)
#   --slurm       also Slurm 22.05 (slurmctld, slurmd, slurm-client) and munge: the Slurm testbed
#                 (scripts/slurm_cluster.sh, tests/slurm; the release configuration). The testbed
#                 starts daemons of its own (its own key, socket and slurm.conf), whatever the
#                 packages' services do
#   --download-only  fetch what is missing into apt's caches and install nothing: scripts/ci.py runs
#                 this in the background while the first configuration builds, so that a fresh
#                 machine downloads the later configurations' packages (the CUDA toolkit above all)
#                 while it compiles; the install later takes them from the cache
set -euo pipefail

usage="usage: setup.sh [--mpi mpich] [--cuda] [--fuzz] [--smpi] [--slurm] [--download-only]"
extra=()
non_free=()
download=()
doing=installing
while [ $# -gt 0 ]; do
  case "$1" in
    --mpi)
      case "${2:-}" in
        mpich) extra+=(mpich libmpich-dev libhdf5-mpich-dev) ;;
        openmpi) ;;
        *) echo "setup.sh: --mpi takes mpich or openmpi, got '${2:-}'" >&2; exit 2 ;;
      esac
      shift 2 ;;
    --cuda) extra+=(g++-11); non_free=(nvidia-cuda-toolkit); shift ;;
    --fuzz) extra+=(clang libclang-rt-14-dev); shift ;;
    --smpi) extra+=(libsimgrid-dev); shift ;;
    --slurm) extra+=(slurmctld slurmd slurm-client munge); shift ;;
    --download-only) download=(--download-only); doing=downloading; shift ;;
    *) echo "setup.sh: unknown option '$1' ($usage)" >&2; exit 2 ;;
  esac
done

packages=(
  build-essential cmake ninja-build pkg-config python3 openssh-client
  libopenmpi-dev openmpi-bin
  libhdf5-openmpi-dev
  libyaml-cpp-dev
  libtrilinos-kokkos-dev
  libgtest-dev googletest
  libcli11-dev libfmt-dev
  python3-numpy python3-matplotlib python3-h5py
  "${extra[@]}"
)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'; }
missing=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
missing_non_free=()
for p in "${non_free[@]}"; do installed "$p" || missing_non_free+=("$p"); done
[ ${#missing[@]} -eq 0 ] && [ ${#missing_non_free[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "setup.sh: missing packages (${missing[*]}) and not root; install them as root" >&2
    exit 1
  fi
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup.sh: $doing ${missing[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${download[@]}" "${missing[@]}" >/dev/null
fi
if [ ${#missing_non_free[@]} -gt 0 ]; then
  # The machine's sources plus Debian's contrib and non-free components, in a private apt configuration
  # whose lists live in the user's cache; packages are installed into the machine as usual.
  echo "setup.sh: $doing ${missing_non_free[*]} from Debian's non-free component"
  . "$(dirname "${BASH_SOURCE[0]}")/apt_private.sh"
  apt_dir=${XDG_CACHE_HOME:-$HOME/.cache}/cartex/apt-non-free
  apt_private "$apt_dir" deb "main contrib non-free"
  $SUDO apt-get "${APT_PRIVATE[@]}" update -qq
  $SUDO apt-get "${APT_PRIVATE[@]}" install -y -qq --no-install-recommends "${download[@]}" "${missing_non_free[@]}" >/dev/null
  [ ${#download[@]} -gt 0 ] || rm -rf "$apt_dir/archives"/*.deb
fi
