#!/usr/bin/env bash
# Leaks are checked under the asan configuration's options (scripts/sanitizer_env.sh):
#  - at exit, with a dlopen'd library's dynamic TLS block 16 bytes into a page, where GCC 12's
#    LeakSanitizer tracer crashed: no report when the only pointer to a heap block is kept in that
#    block, one leak report (77 bytes) when a block is lost;
#  - in an MPI program on 2 ranks, before MPI_Finalize (cartex/core/leak_check.h): nothing of MPI's
#    own reported, one 55-byte leak per rank when the program loses a block.
# Usage: leak_check_test.sh DTLS_PROBE DTLS_BLOCK_LIBRARY MPI_LEAK_PROBE REPO_ROOT MPIEXEC [FLAGS...]
set -u
probe=$1 library=$2 mpi_probe=$3 root=$4
shift 4
mpiexec=("$@")
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
. "$root/scripts/sanitizer_env.sh" "$reports"
fail=0
check() {  # check WANT_EXIT WANT_REPORT COMMAND...: WANT_REPORT is a text the reports must hold, or "none"
  local want_exit=$1 want_report=$2 out rc
  shift 2
  rm -f "$reports"/*
  out=$("$@" 2>&1)
  rc=$?
  local got_reports; got_reports=$(cat "$reports"/* 2>/dev/null)
  if [ $rc -ne "$want_exit" ] || { [ "$want_report" = none ] && [ -n "$got_reports" ]; } ||
     { [ "$want_report" != none ] && ! grep -qF "$want_report" <<<"$got_reports"; }; then
    echo "FAIL: ${*##*/}: exit $rc (want $want_exit), report wanted: $want_report"
    echo "$out"; echo "$got_reports" | grep -v '^    #'
    fail=1
  else
    echo "ok: ${*##*/}: exit $rc, report: $want_report"
  fi
}
check 0 none "$probe" "$library"
check 1 'Direct leak of 77 byte(s) in 1 object(s)' "$probe" "$library" leak
check 0 none "${mpiexec[@]}" -n 2 "$mpi_probe"
check 1 'Direct leak of 55 byte(s) in 1 object(s)' "${mpiexec[@]}" -n 2 "$mpi_probe" leak
exit $fail
