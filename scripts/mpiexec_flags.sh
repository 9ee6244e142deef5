# Sourced by scripts: sets MPIEXEC_FLAGS for Open MPI on this kind of machine (few cores, maybe root).
# Usage: . scripts/mpiexec_flags.sh RANKS
MPIEXEC_FLAGS=()
if mpiexec --version 2>/dev/null | grep -q "Open MPI"; then
  # Quiet: a failing run shows cartex's own one-line error, not Open MPI's banner after it.
  MPIEXEC_FLAGS+=(-q)
  [ "${1:-1}" -gt "$(nproc)" ] && MPIEXEC_FLAGS+=(--oversubscribe)
  [ "$(id -u)" -eq 0 ] && MPIEXEC_FLAGS+=(--allow-run-as-root)
fi
