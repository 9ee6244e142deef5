# Sourced by scripts: sets MPIEXEC_FLAGS for Open MPI on this kind of machine (few cores, maybe root).
# Usage: . scripts/mpiexec_flags.sh RANKS
# Open MPI 4 names itself "mpiexec (OpenRTE) 4.1.4" and Open MPI 5 "mpiexec (Open MPI) 5.0.x", so ask
# ompi_info, which only Open MPI has, and fall back to either name in the version line.
MPIEXEC_FLAGS=()
if command -v ompi_info >/dev/null 2>&1 || mpiexec --version 2>/dev/null | grep -qE "Open MPI|OpenRTE"; then
  # Quiet: a failing run shows cartex's own one-line error, not Open MPI's banner after it.
  MPIEXEC_FLAGS+=(-q)
  [ "${1:-1}" -gt "$(nproc)" ] && MPIEXEC_FLAGS+=(--oversubscribe)
  [ "$(id -u)" -eq 0 ] && MPIEXEC_FLAGS+=(--allow-run-as-root)
fi
