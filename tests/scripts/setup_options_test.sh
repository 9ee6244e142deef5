#!/usr/bin/env bash
# scripts/setup.sh refuses an unknown option or MPI with one line and exit 2, before it installs anything.
# Usage: setup_options_test.sh REPO_ROOT
set -u
root=$1
fail=0
expect() {  # expect ARGS... -- LINE: setup.sh ARGS exits 2 and prints exactly LINE on stderr
  local args=() line
  while [ "$1" != -- ]; do args+=("$1"); shift; done
  line=$2
  local err rc
  err=$("$root/scripts/setup.sh" "${args[@]}" 2>&1 >/dev/null); rc=$?
  if [ $rc -eq 2 ] && [ "$err" = "$line" ]; then echo "ok: ${args[*]}"; else
    echo "FAIL: setup.sh ${args[*]}: exit $rc, stderr '$err', expected exit 2 and '$line'"; fail=1; fi
}
expect --mpi intel -- "setup.sh: --mpi takes mpich or openmpi, got 'intel'"
expect --mpi -- "setup.sh: --mpi takes mpich or openmpi, got ''"
expect --frobnicate -- "setup.sh: unknown option '--frobnicate' (usage: setup.sh [--mpi mpich] [--cuda] [--fuzz] [--smpi] [--slurm] [--download-only])"
expect --cuda --mpi -- "setup.sh: --mpi takes mpich or openmpi, got ''"
exit $fail
