#include "cart_comm.hpp"

#include <fmt/format.h>

#include <vector>

#include "cartex/core/error.hpp"
#include "mpi_check.hpp"

namespace cartex::halo {

void check_cart(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  CX_Error_string(text, &len);
  throw Error(fmt::format("{} failed: {}", call, std::string(text, static_cast<size_t>(len))));
}

CartComm::CartComm(const HaloGeometry& geo, const HaloPattern& p, MPI_Comm comm, const char* algorithm,
                   const char* execution) {
  const GlobalGrid& g = geo.decomposition().grid();
  const int d = g.dim;
  std::vector<int> dims(d), periods(d), offsets;
  for (int k = 0; k < d; ++k) {
    dims[k] = geo.decomposition().procs().dims[k];
    periods[k] = g.periodic[k] ? 1 : 0;
  }
  for (const auto& b : p.blocks)
    for (int k = 0; k < d; ++k) offsets.push_back(b.offset[k]);
  MPI_Info info;
  check_mpi(MPI_Info_create(&info), "MPI_Info_create");
  check_mpi(MPI_Info_set(info, "cx_algorithm", algorithm), "MPI_Info_set");
  check_mpi(MPI_Info_set(info, "cx_execution", execution), "MPI_Info_set");
  const int rc = CX_Cart_neighborhood_create(comm, d, dims.data(), periods.data(), static_cast<int>(p.blocks.size()),
                                             offsets.data(), MPI_UNWEIGHTED, info, 0, &comm_);
  check_mpi(MPI_Info_free(&info), "MPI_Info_free");
  check_cart(rc, "CX_Cart_neighborhood_create");
}

CartComm::~CartComm() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

}  // namespace cartex::halo
