#!/usr/bin/env bash
# Installs the Debian packages cartex builds and runs with. Idempotent: quiet and quick when
# everything is already there; runs `apt-get update` once before installing anything missing.
# Usage: scripts/setup.sh [--mpi mpich]
#   --mpi mpich   also MPICH and its parallel HDF5, next to Open MPI (the default MPI stays Open MPI;
#                 an MPICH build names it: scripts/test_mpich.sh, docs/testing.md)
set -euo pipefail

extra=()
case "${1:-}" in
  "") ;;
  --mpi)
    case "${2:-}" in
      mpich) extra=(mpich libmpich-dev libhdf5-mpich-dev) ;;
      openmpi) ;;
      *) echo "setup.sh: --mpi takes mpich or openmpi, got '${2:-}'" >&2; exit 2 ;;
    esac ;;
  *) echo "setup.sh: unknown option '$1' (usage: setup.sh [--mpi mpich])" >&2; exit 2 ;;
esac

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

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "setup.sh: missing packages (${missing[*]}) and not root; install them as root" >&2
    exit 1
  fi
else
  SUDO=
fi
echo "setup.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
