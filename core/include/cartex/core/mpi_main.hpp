#pragma once
// Turns errors into one readable line and a non-zero exit code on every rank, without a hang.
#include <mpi.h>

#include <functional>
#include <string>

namespace cartex::core {

// Exit codes of cartex programs.
enum ExitCode : int { kExitOk = 0, kExitFailure = 1, kExitInputError = 2 };

// Runs `setup` on every rank (reading and checking input: deterministic, no communication that a
// failing rank could leave hanging), agrees on its outcome over `comm` and, if any rank failed,
// prints the lowest failing rank's message once on stderr and returns its exit code (2 for
// InputError, 1 otherwise) on every rank. Otherwise runs `run`; an exception there cannot be agreed
// on (other ranks may wait in a collective), so it is printed with the rank and ends the job with
// MPI_Abort, after the launcher has read the line (a launcher handling the abort first would lose it).
int run_collectively(MPI_Comm comm, const std::function<void()>& setup, const std::function<int()>& run);

// Prints `line` on stderr (unless empty), waits until the launcher has read this rank's output (at most
// 2 s: mpiexec forwards it from a pipe, and one that handles the abort first loses the last lines), then
// ends the job with MPI_Abort(comm, code).
[[noreturn]] void abort_job(MPI_Comm comm, const std::string& line, int code);

}  // namespace cartex::core
