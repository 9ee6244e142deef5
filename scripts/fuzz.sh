#!/usr/bin/env bash
# Fuzzes the input layer: builds tests/fuzz/config_fuzzer with the fuzz preset (clang, libFuzzer + ASan +
# UBSan, build-fuzz/; scripts/setup.sh --fuzz installs clang) and runs it for SECONDS (default 60) from
# the seed corpus tests/fuzz/corpus plus inputs/. Fails on a crash, a sanitizer report, a timeout (10 s
# per input), more than 2 GB of memory, or an input error that is not one located line (the target
# aborts). Findings go to build-fuzz/findings/. CI runs it as the fuzz configuration's check
# (scripts/ci.sh fuzz: 60 s); a long run: scripts/fuzz.sh 3600.
# Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-60}
"$root/scripts/setup.sh" --fuzz
build=$root/build-fuzz
(cd "$root" && cmake --preset fuzz >/dev/null && cmake --build --preset fuzz --parallel "$(nproc)")

# The working corpus grows as libFuzzer finds new paths; the committed seeds and inputs/ start it.
mkdir -p "$build/corpus" "$build/findings"
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
cd "$build/findings"
"$build/bin/config_fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  "$build/corpus" "$root/tests/fuzz/corpus" "$root/inputs"
