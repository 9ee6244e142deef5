#!/usr/bin/env bash
# scripts/kokkos.sh refuses a bad variant, an unknown option, an option without its value and --source
# without --prefix with one line and exit 2, before it downloads or builds anything.
# Usage: kokkos_options_test.sh REPO_ROOT
set -u
root=$1
fail=0
usage="usage: kokkos.sh openmp|cuda [--source DIR_OR_TARBALL] [--arch ARCH] [--host CXX] [--prefix DIR]"
expect() {  # expect ARGS... -- LINE: kokkos.sh ARGS exits 2 and prints exactly LINE on stderr
  local args=() line err rc
  while [ "$1" != -- ]; do args+=("$1"); shift; done
  line=$2
  err=$(XDG_CACHE_HOME=$(mktemp -d) "$root/scripts/kokkos.sh" "${args[@]}" 2>&1 >/dev/null); rc=$?
  if [ $rc -eq 2 ] && [ "$err" = "$line" ]; then echo "ok: ${args[*]}"; else
    echo "FAIL: kokkos.sh ${args[*]}: exit $rc, stderr '$err', expected exit 2 and '$line'"; fail=1; fi
}
expect sycl -- "kokkos.sh: VARIANT is openmp or cuda, got 'sycl' ($usage)"
expect openmp --frobnicate -- "kokkos.sh: unknown option '--frobnicate' ($usage)"
expect openmp --prefix -- "kokkos.sh: --prefix needs a value ($usage)"
expect openmp --source "$root" -- "kokkos.sh: --source needs --prefix ($usage)"
exit $fail
