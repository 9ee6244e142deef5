#include "mpi_check.hpp"

namespace cartex::halo {

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
