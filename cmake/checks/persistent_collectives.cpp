// Configure-time check (cmake/CartexMpiFeatures.cmake): the MPI-4 persistent neighbourhood collective
// the halo's mpi_neighbor_alltoallw_init backend calls is declared (compiling is the check).
#include <mpi.h>

int main() {
  MPI_Request request;
  return MPI_Neighbor_alltoallw_init(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                     MPI_COMM_NULL, MPI_INFO_NULL, &request);
}
