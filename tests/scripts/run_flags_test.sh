#!/usr/bin/env bash
# The README's run command launches heat3d with the mpiexec and flags scripts/mpiexec_flags.sh picks for
# the build, sourced under `set -euo pipefail` as scripts/run.sh sources it. Checks that they start more
# ranks than cores as ONE job of that many ranks (the build's own mpiexec: another MPI's would start as
# many 1-rank jobs), as root (CI and many first users) and, when root, also as an unprivileged user (who
# must not get --allow-run-as-root and must still run).
# Usage: run_flags_test.sh HEAT3D REPO_ROOT BUILD_DIR
set -u
heat3d=$1 root=$2 build=$3
ranks=$(( $(nproc) + 2 ))
fail=0
launch() {  # launch [setpriv args...]: one short run in a fresh directory; checks the checksum line
  local dir; dir=$(mktemp -d); chmod 777 "$dir"
  local out
  out=$(cd "$dir" && "$@" bash -c 'set -euo pipefail; . "$0/scripts/mpiexec_flags.sh" "$1" "$4"
        echo "flags: $MPIEXEC ${MPIEXEC_FLAGS[*]}" >&2
        exec "$MPIEXEC" -n "$1" "${MPIEXEC_FLAGS[@]}" --bind-to none "$2" "$0/inputs/heat3d.yaml" \
             --set grid.n=[8,8,8] --set run.steps=2 --set output.dir="$3/out"' "$root" "$ranks" "$heat3d" "$dir" "$build" 2>&1)
  local rc=$?
  rm -rf "$dir"
  if [ $rc -ne 0 ] || ! grep -qE '^checksum: [0-9a-f]{16}$' <<<"$out" ||
     [ "$(grep -c '^checksum: ' <<<"$out")" -ne 1 ] || ! grep -qE "^  processes +$ranks ranks as " <<<"$out"; then
    echo "FAIL: ${*:-as $(id -un)}: $ranks ranks, exit $rc"; tail -n 6 <<<"$out"; fail=1
  else
    echo "ok: $(grep '^flags:' <<<"$out") ${*:+($*)}"
  fi
}
launch
if [ "$(id -u)" -eq 0 ]; then
  launch setpriv --reuid=nobody --regid=nogroup --clear-groups --reset-env
fi
exit $fail
