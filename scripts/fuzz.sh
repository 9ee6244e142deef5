#!/usr/bin/env bash
# Fuzzes the input layer: builds tests/fuzz/config_fuzzer with clang (libFuzzer + ASan + UBSan, in
# build-fuzz/) and runs it for SECONDS (default 60) from the seed corpus tests/fuzz/corpus plus inputs/.
# Fails on a crash, a sanitizer report, a timeout (10 s per input), more than 2 GB of memory, or an
# input error that is not one located line (the target aborts). Findings go to build-fuzz/findings/.
# Usage: scripts/fuzz.sh [SECONDS]        (CI: 60 s; a long run: scripts/fuzz.sh 3600)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-60}
"$root/scripts/setup.sh"
# clang and its libFuzzer runtime: needed only here, so not in scripts/setup.sh's everyday list.
need=()
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
build=$root/build-fuzz
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCARTEX_SANITIZE=address,undefined,fuzzer-no-link -DCARTEX_NATIVE_ARCH=OFF \
  -DCARTEX_BUILD_TESTS=OFF -DCARTEX_BUILD_APPS=OFF -DCARTEX_BUILD_FUZZERS=ON "${launcher[@]}" >/dev/null
cmake --build "$build" --target config_fuzzer -j "$(nproc)"

# The working corpus grows as libFuzzer finds new paths; the committed seeds and inputs/ start it.
mkdir -p "$build/corpus" "$build/findings"
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
cd "$build/findings"
"$build/bin/config_fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  "$build/corpus" "$root/tests/fuzz/corpus" "$root/inputs"
