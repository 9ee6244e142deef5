#include "cartex/core/mpi_main.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

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
  int rank = -1, size = 1;
  try {
    rank = comm_rank(comm);
    size = comm_size(comm);
  } catch (const std::exception& e) {
    abort_with_error(comm, rank, e.what(), kExitFailure);
  }

  int code = kExitOk;
  std::string message;
  try {
    setup();
  } catch (const InputError& e) {
    code = kExitInputError;
    message = e.what();
  } catch (const std::exception& e) {
    code = kExitFailure;
    message = std::string("error: ") + e.what();
  }
  // Setup communicates nothing a failing rank could leave waiting, so every rank gets here: agree on
  // the lowest failing rank and its exit code.
  int first = code != kExitOk ? rank : size;
  try {
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
    if (first < size) check_mpi(MPI_Bcast(&code, 1, MPI_INT, first, comm), "MPI_Bcast");
  } catch (const std::exception& e) {
    abort_with_error(comm, rank, e.what(), kExitFailure);
  }
  if (first < size) {
    if (rank == first) std::fprintf(stderr, "%s\n", message.c_str());
    return code;
  }

  try {
    return run();
  } catch (const std::exception& e) {
    abort_with_error(comm, rank, e.what(), dynamic_cast<const InputError*>(&e) ? kExitInputError : kExitFailure);
  }
}

}  // namespace cartex::core
