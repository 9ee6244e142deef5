#!/usr/bin/env bash
# Installs what is missing, builds cartex (Release) and runs every test with ctest but the labels
# `long`, `slow` and `slurm` (the test preset `everyday` leaves them out), so that the everyday run
# stays under 10 minutes on 2 cores.
# Usage: scripts/test.sh [ctest options...]     e.g. scripts/test.sh -R halo
#        scripts/test.sh --full                 what CI runs: every configuration of CMakePresets.json's
#                                               list (scripts/ci.sh --all: the whole Release suite, OpenMP
#                                               threads, ASan + UBSan as C++20, fuzzing, MPICH, the CUDA
#                                               compile and link), docs/testing.md "Configurations"
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ "${1:-}" = "--full" ]; then
  [ $# -eq 1 ] || { echo "test.sh: --full takes no other argument" >&2; exit 2; }
  exec "$root/scripts/ci.sh" --all
fi
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
(cd "$root" && ctest --preset everyday --parallel "$(nproc)" "$@")
