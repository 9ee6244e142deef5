#!/usr/bin/env bash
# Installs what is missing, builds cartex (Release) and runs every test with ctest.
# Usage: scripts/test.sh [ctest options...]     e.g. scripts/test.sh -R halo
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
cd "$root/build"
exec ctest --output-on-failure --parallel "$(nproc)" "$@"
