#pragma once
// MPI_Init and MPI_Finalize of a cartex main (heat3d, wave3d, advect3d, the benchmarks), checked.
// They run outside run_main, where nothing can be thrown yet (no one would report it on every
// rank), so a failure is one line on stderr and the main's exit code instead.

namespace cartex::entry {

// MPI_Init, then MPI_ERRORS_RETURN on MPI_COMM_WORLD (a failing MPI call returns its code, which
// check_mpi turns into a cartex::core::Error). On failure prints "PROGRAM: CALL failed: MPI's text"
// to stderr and returns false: the main then returns 1 without calling finalize_mpi.
bool init_mpi(int* argc, char*** argv, const char* program);

// MPI_Finalize. Returns `code`, or 1 (with one line on stderr) when MPI_Finalize failed and `code` was 0.
int finalize_mpi(int code, const char* program);

}  // namespace cartex::entry
