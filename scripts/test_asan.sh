#!/usr/bin/env bash
# The sanitized configuration of CI: builds the `asan` preset (AddressSanitizer + UBSan, build-asan/)
# and runs the tests below with leaks checked in cartex's code (Open MPI's and hwloc's own allocations
# are suppressed: tests/sanitizers/lsan.supp). Any sanitizer report fails the test that caused it.
# Usage: scripts/test_asan.sh [ctest options...]
#
# Covered (every library, 1-4 ranks, within the CI budget of about 15 minutes on 2 cores): core, cart
# (schedule, collectives, reduce, errors, C and C++ API, non-blocking plans), halo (exchange, counts,
# depth, start/finish, progress during compute, overlap split, pack list),
# graph (4 ranks), ranks, kernels (incl. temporal blocking), io (checkpoint at 2-3 ranks, restart, bad
# restarts, field output), halobench, the heat3d driver's input errors, backend/allreduce choices,
# exact solution and dry run, every main's error path (entry.errors), and the two packaging tests
# (downstream find_package and examples/custom_update, which get the sanitizer link flags from the
# cartex targets).
# Left out: the 5-8 rank variants (same code paths as 1-4, several times the run time under ASan) and
# the long heat3d matrices (bitwise over backends and rank counts, placement, allreduce), which repeat
# the halo and ranks code the tests above already run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
(cd "$root" && cmake --preset asan "${launcher[@]}" >/dev/null && cmake --build build-asan -j "$(nproc)")

# Every report also goes to a file under build-asan/sanitizer-reports (log_path), so a report fails this
# script even where a test driver does not look at a program's exit code or stderr.
reports=$root/build-asan/sanitizer-reports
rm -rf "$reports" && mkdir -p "$reports"
# Open MPI unloads its components at MPI_Finalize: their never-freed allocations would then be
# reported from an "<unknown module>" that no suppression can name, so keep them loaded; and unwind
# malloc stacks fully, so a leak made through libc (vasprintf) still shows whose call made it.
export OMPI_MCA_mca_base_component_disable_dlclose=1
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0:print_stacktrace=1:fast_unwind_on_malloc=0:log_path=$reports/asan
export LSAN_OPTIONS=suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$reports/ubsan
covered='^(core_test|cart_schedule_test|kernels_|ranks_renaming_test|halo_counts_test\.np1|halo_depth_test|app_comm_choices_test)'
covered+='|^(cart_(collectives|reduce|errors|c_api|cpp_api)_test|halo_test|halo_start_finish_test|halo_progress_test|halo_overlap_split_test|halo_pack_list_test|halobench_(stats|verify)_test|io_checkpoint_test)\.np[1-4]$'
covered+='|^(graph_collectives_test|ranks_allreduce_test)\.np4$'
covered+='|^heat3d\.(bad_inputs|sine_exact|dry_run|wave)$|^io\.(fields_xdmf|restart_bitwise|bad_restart|bad_keys)$'
covered+='|^(downstream\.find_package|examples\.custom_update|entry\.errors\.setup|entry\.errors\.run)$'
# LeakSanitizer's stop-the-world tracer itself sometimes dies at a process's exit ("Tracer caught
# signal 11", then "LeakSanitizer has encountered a fatal error"; google/sanitizers#1353): a crash of
# the sanitizer runtime, seen on one CI machine only, never reproduced here, and no finding about the
# program. A report that holds nothing but that crash reruns the tests that failed, once with leaks
# checked again and, if the tracer dies again, once with leaks unchecked (ASan and UBSan still on);
# the script then names those tests. Any other report, or a test that still fails, fails the script.
tracer_crash_only() {
  grep -q 'LeakSanitizer has encountered a fatal error' "$1" &&
    ! grep -v -e '^Tracer caught signal' -e 'LeakSanitizer has encountered a fatal error' -e '==HINT: ' "$1" | grep -q .
}
run_covered() {
  rm -rf "$reports" && mkdir -p "$reports"
  (cd "$root/build-asan" && ctest --output-on-failure --no-tests=error --parallel "$(nproc)" "$@")
}
print_reports() {
  for f in "$reports"/*; do echo "== sanitizer report $f"; cat "$f"; done
  echo "test_asan.sh: $(ls "$reports" | wc -l) sanitizer report(s)"
}
only_tracer_crashes() {
  compgen -G "$reports/*" >/dev/null || return 1
  for f in "$reports"/*; do tracer_crash_only "$f" || return 1; done
}

status=0
run_covered -R "$covered" "$@" || status=$?
if only_tracer_crashes && [[ $status -ne 0 ]]; then
  print_reports
  failed=$(cut -d: -f2 "$root/build-asan/Testing/Temporary/LastTestsFailed.log" | tr '\n' ' ')
  echo "test_asan.sh: LeakSanitizer's tracer crashed (not a leak report) in: $failed; rerunning them"
  status=0
  run_covered --rerun-failed || status=$?
  if only_tracer_crashes && [[ $status -ne 0 ]]; then
    print_reports
    failed=$(cut -d: -f2 "$root/build-asan/Testing/Temporary/LastTestsFailed.log" | tr '\n' ' ')
    status=0
    ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0} run_covered --rerun-failed || status=$?
    echo "test_asan.sh: LEAKS NOT CHECKED in: $failed (LeakSanitizer's tracer crashed twice; ASan and UBSan checked them)"
  fi
fi
if compgen -G "$reports/*" >/dev/null; then
  print_reports
  exit 1
fi
exit "$status"
