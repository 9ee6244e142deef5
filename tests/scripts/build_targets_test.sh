#!/usr/bin/env bash
# scripts/run.sh builds only the program it runs (heat3d); scripts/test.sh builds every target, the
# tests too, also in a tree that run.sh built first. Runs both in a copy of scripts/ where cmake,
# ctest and mpiexec are stubs that log their arguments and setup.sh does nothing.
# Usage: build_targets_test.sh REPO_ROOT
set -u
root=$1
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
mkdir -p "$fake/scripts" "$fake/bin"
cp "$root"/scripts/{run.sh,test.sh,build.sh,mpiexec_flags.sh,mpi_launcher.py} "$fake/scripts/"
printf '#!/bin/sh\n' >"$fake/scripts/setup.sh"
log=$fake/calls.log
printf '#!/bin/sh\necho "ci.sh $*" >>"%s"\n' "$log" >"$fake/scripts/ci.sh"
for tool in cmake ctest mpiexec; do
  # The configure step (cmake --preset) leaves the cache file that build.sh looks for.
  printf '#!/bin/sh\necho "%s $*" >>"%s"\n[ "$1" = --preset ] && mkdir -p build && touch build/CMakeCache.txt\nexit 0\n' \
    "$tool" "$log" >"$fake/bin/$tool"
done
# mpiexec answers --version as Open MPI's does (scripts/mpi_launcher.py tells the family by it).
printf '#!/bin/sh\n[ "$1" = --version ] && echo "mpiexec (OpenRTE) 4.1.4" && exit 0\n' >"$fake/bin/mpiexec.new"
tail -n +2 "$fake/bin/mpiexec" >>"$fake/bin/mpiexec.new" && mv "$fake/bin/mpiexec.new" "$fake/bin/mpiexec"
chmod +x "$fake"/bin/* "$fake"/scripts/*
fail=0
expect() {  # expect WHAT PATTERN: a logged call matches the extended regex PATTERN
  if grep -qE "$2" "$log"; then echo "ok: $1"; else echo "FAIL: $1: no call matches '$2'"; cat "$log"; fail=1; fi
}
PATH=$fake/bin:$PATH "$fake/scripts/run.sh" >/dev/null || { echo "FAIL: run.sh exited $?"; fail=1; }
expect "run.sh builds heat3d only" '^cmake --build --preset release --parallel [0-9]+ --target heat3d$'
expect "run.sh runs build/bin/heat3d" "^mpiexec .* $fake/build/bin/heat3d $fake/inputs/heat3d.yaml\$"
: >"$log"
PATH=$fake/bin:$PATH "$fake/scripts/test.sh" >/dev/null || { echo "FAIL: test.sh exited $?"; fail=1; }
expect "test.sh builds every target" '^cmake --build --preset release --parallel [0-9]+$'
expect "test.sh runs the everyday test preset (no label long)" '^ctest --preset everyday '
: >"$log"
PATH=$fake/bin:$PATH "$fake/scripts/test.sh" --full >/dev/null 2>&1
expect "test.sh --full runs every CI configuration" '^ci.sh --all$'
exit $fail
