# Sourced by scripts: sets MPIEXEC_FLAGS for Open MPI on this kind of machine (few cores, maybe root).
# Usage: . scripts/mpiexec_flags.sh RANKS
# Open MPI 4 names itself "mpiexec (OpenRTE) 4.1.4" and Open MPI 5 "mpiexec (Open MPI) 5.0.x", so ask
# ompi_info, which only Open MPI has, and fall back to either name in the version line.
# Written with `if`, not `cond && ...`: the callers run under `set -e`, where a false last condition
# would end them.
MPIEXEC_FLAGS=()
if command -v ompi_info >/dev/null 2>&1 || mpiexec --version 2>/dev/null | grep -qE "Open MPI|OpenRTE"; then
  # Quiet: a failing run shows cartex's own one-line error, not Open MPI's banner after it.
  MPIEXEC_FLAGS+=(-q)
  if [ "${1:-1}" -gt "$(nproc)" ]; then MPIEXEC_FLAGS+=(--oversubscribe); fi
  if [ "$(id -u)" -eq 0 ]; then MPIEXEC_FLAGS+=(--allow-run-as-root); fi
fi
