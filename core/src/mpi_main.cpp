#include "cartex/core/mpi_main.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "cartex/core/agreement.hpp"
#include "cartex/core/error.hpp"
#include "cartex/core/mpi_check.hpp"
#include "launcher_output.hpp"

namespace cartex::core {

void abort_job(MPI_Comm comm, const std::string& line, int code) {
  if (!line.empty()) std::fprintf(stderr, "%s\n", line.c_str());
  wait_until_output_read(2.0);
  MPI_Abort(comm, code);
  std::_Exit(code);  // MPI_Abort does not return; if it did, the job still ends with the code
}

namespace {

[[noreturn]] void abort_with_error(MPI_Comm comm, int rank, const char* what, int code) {
  abort_job(comm, "rank " + std::to_string(rank) + ": error: " + what, code);
}

}  // namespace

int run_collectively(MPI_Comm comm, const std::function<void()>& setup, const std::function<int()>& run) {
  int rank = -1;
  try {
    rank = comm_rank(comm);
  } catch (const std::exception& e) {
    abort_with_error(comm, rank, e.what(), kExitFailure);
  }

  // Setup communicates nothing a failing rank could leave waiting (its own collectives agree first,
  // agreement.hpp), so every rank gets here: agree on the lowest failing rank's error, print it once.
  try {
    agree(comm, setup);
  } catch (const InputError& e) {
    if (rank == 0) std::fprintf(stderr, "%s\n", e.what());
    return kExitInputError;
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "error: %s\n", e.what());
    return kExitFailure;
  }

  try {
    return run();
  } catch (const std::exception& e) {
    abort_with_error(comm, rank, e.what(), dynamic_cast<const InputError*>(&e) ? kExitInputError : kExitFailure);
  }
}

}  // namespace cartex::core
