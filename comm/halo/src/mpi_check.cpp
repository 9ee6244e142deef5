#include "mpi_check.hpp"

#include <fmt/format.h>

#include <string>

#include "cartex/core/error.hpp"

namespace cartex::halo {

void check_mpi(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);  // best effort: only for the message
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw core::Error(fmt::format("{} failed on rank {}: {}", call, rank, std::string(text, static_cast<size_t>(len))));
}

bool test_all(std::vector<MPI_Request>& requests, size_t n) {
  int flag = 1;
  // Open MPI refuses a null request array even for a count of 0.
  if (n > 0) check_mpi(MPI_Testall(static_cast<int>(n), requests.data(), &flag, MPI_STATUSES_IGNORE), "MPI_Testall");
  return flag != 0;
}

void wait_all(std::vector<MPI_Request>& requests, size_t n) {
  if (n > 0) check_mpi(MPI_Waitall(static_cast<int>(n), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

}  // namespace cartex::halo
