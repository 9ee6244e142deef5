#!/usr/bin/env bash
# The sanitized configuration of CI: builds the `asan` preset (AddressSanitizer + UBSan, build-asan/)
# and runs the tests below with leaks checked in cartex's code (Open MPI's and hwloc's own allocations
# are suppressed: tests/sanitizers/lsan.supp). Any sanitizer report fails the test that caused it.
# Usage: scripts/test_asan.sh [ctest options...]
#
# Covered (every library, 1-4 ranks, within a CI share of about 10 minutes on 2 cores): core, cart
# (schedule, collectives, reduce, errors, C and C++ API, non-blocking plans), halo (exchange, counts,
# depth, start/finish, progress during compute, overlap split, pack list), graph (4 ranks), ranks,
# kernels (incl. temporal blocking), physics (the equation registry), io (checkpoint at 2-3 ranks, restart, bad restarts, field
# output), halobench, backend/allreduce choices, dry run, every main's error path
# (entry.errors), the two packaging tests (downstream find_package and examples/custom_update, which
# get the sanitizer link flags from the cartex targets), and the leak check itself under these options
# (scripts.asan_leak_check). Built: only the targets of these tests' folders (cartex_tests_<folder>).
# Left out: the 5-8 rank variants (same code paths as 1-4, several times the run time under ASan), the
# long heat3d matrices (bitwise over backends and rank counts, placement, allreduce), which repeat
# the halo and ranks code the tests above already run, heat3d.bad_inputs (3 min here: its refusals go
# through the config loader that scripts/fuzz.sh runs under ASan + UBSan, and every main's error path
# is in entry.errors.*), heat3d.sine_exact (1 min: the heat driver's loop, which heat3d.dry_run,
# io.restart_bitwise and examples.custom_update run here too) and heat3d.wave (3 min: a matrix of 40
# wave3d runs; the wave kernels run in kernels_*, wave3d's leapfrog start and checkpoints in io.bad_restart).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# The folders of the tests below (cartex_tests_<folder>: their own targets and the apps).
folders=(core cart graph ranks kernels physics halo halobench io apps entry downstream examples scripts)
(cd "$root" && cmake --preset asan "${launcher[@]}" >/dev/null &&
  cmake --build build-asan -j "$(nproc)" --target "${folders[@]/#/cartex_tests_}")

reports=$root/build-asan/sanitizer-reports
rm -rf "$reports" && mkdir -p "$reports"
. "$root/scripts/sanitizer_env.sh" "$reports"
covered='^(core_test|cart_schedule_test|kernels_|physics_test|ranks_renaming_test|halo_counts_test\.np1|halo_depth_test|app_comm_choices_test)'
covered+='|^(cart_(collectives|reduce|errors|c_api|cpp_api)_test|halo_test|halo_start_finish_test|halo_progress_test|halo_overlap_split_test|halo_pack_list_test|halobench_(stats|verify)_test|io_checkpoint_test)\.np[1-4]$'
covered+='|^(graph_collectives_test|ranks_allreduce_test)\.np4$'
covered+='|^heat3d\.dry_run$|^io\.(fields_xdmf|restart_bitwise|bad_restart|bad_keys)$'
covered+='|^(downstream\.find_package|examples\.custom_update|entry\.errors\.setup|entry\.errors\.run|scripts\.asan_leak_check)$'
# Any report fails the script, LeakSanitizer's own "Tracer caught signal" too: every test has its leaks
# checked (scripts/sanitizer_env.sh says why the tracer crashed on one machine and how that is avoided).
status=0
(cd "$root/build-asan" && ctest --output-on-failure --no-tests=error --parallel "$(nproc)" -R "$covered" "$@") || status=$?
if compgen -G "$reports/*" >/dev/null; then
  for f in "$reports"/*; do echo "== sanitizer report $f"; cat "$f"; done
  echo "test_asan.sh: $(ls "$reports" | wc -l) sanitizer report(s)"
  exit 1
fi
exit "$status"
