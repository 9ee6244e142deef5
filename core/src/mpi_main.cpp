#include "cartex/core/mpi_main.hpp"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cartex/core/error.hpp"

namespace cartex::core {

int run_collectively(MPI_Comm comm, const std::function<void()>& setup, const std::function<int()>& run) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);

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
  int first = code != kExitOk ? rank : size;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first < size) {
    MPI_Bcast(&code, 1, MPI_INT, first, comm);
    if (rank == first) std::fprintf(stderr, "%s\n", message.c_str());
    return code;
  }

  try {
    return run();
  } catch (const std::exception& e) {
    const int fail = dynamic_cast<const InputError*>(&e) ? kExitInputError : kExitFailure;
    std::fprintf(stderr, "rank %d: error: %s\n", rank, e.what());
    std::fflush(stderr);
    MPI_Abort(comm, fail);
    return fail;
  }
}

}  // namespace cartex::core
