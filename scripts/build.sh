#!/usr/bin/env bash
# Configures and builds cartex (Release) into build/ with the "release" CMake preset.
# Usage: scripts/build.sh [TARGET...]   every target (tests included) when none is named
#   (run scripts/setup.sh first on a fresh machine)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
if [ ! -f build/CMakeCache.txt ]; then
  cmake --preset release >/dev/null
fi
targets=()
if [ $# -gt 0 ]; then targets=(--target "$@"); fi
cmake --build --preset release --parallel "$(nproc)" "${targets[@]}"
