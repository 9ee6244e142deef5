# Sourced by scripts: sets MPIEXEC, the mpiexec of a cartex build, and MPIEXEC_FLAGS, the options a run
# of RANKS ranks needs on this machine as this user (quiet, more ranks than cores, root), from the one
# launcher description, scripts/mpi_launcher.py (Open MPI's and Hydra's spellings).
# Usage: . scripts/mpiexec_flags.sh RANKS [BUILD_DIR]     BUILD_DIR: default build/ of this clone
# MPIEXEC is the MPIEXEC_EXECUTABLE the build was configured with (an MPICH build runs under MPICH's
# mpiexec, not the first one on PATH), or `mpiexec` before the build exists.
# Written with `if`, not `cond && ...`: the callers run under `set -e`, where a false last condition
# would end them.
_cartex_scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
_cartex_cache=${2:-$_cartex_scripts/../build}/CMakeCache.txt
MPIEXEC=mpiexec
if [ -f "$_cartex_cache" ]; then
  MPIEXEC=$(sed -n 's/^MPIEXEC_EXECUTABLE:[A-Z]*=//p' "$_cartex_cache")
  if [ -z "$MPIEXEC" ]; then MPIEXEC=mpiexec; fi
fi
# An assignment, so that a failing mpi_launcher.py (an mpiexec of neither family) ends a `set -e` caller.
_cartex_flags=$(python3 "$_cartex_scripts/mpi_launcher.py" --mpiexec "$MPIEXEC" flags "${1:-1}")
MPIEXEC_FLAGS=()
if [ -n "$_cartex_flags" ]; then mapfile -t MPIEXEC_FLAGS <<<"$_cartex_flags"; fi
unset _cartex_scripts _cartex_cache _cartex_flags
