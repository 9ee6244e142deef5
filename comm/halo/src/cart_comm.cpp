#include "cart_comm.hpp"

#include <fmt/format.h>

#include <vector>

#include "cartex/core/error.hpp"

namespace cartex::halo {

cart::Neighborhood cart_neighborhood(const HaloGeometry& geo, const HaloPattern& p, MPI_Comm comm,
                                     cart::Algorithm algorithm, cart::Execution execution) {
  const core::GlobalGrid& g = geo.decomposition().grid();
  const int d = g.dim;
  std::vector<int> dims(d), periods(d), offsets;
  for (int k = 0; k < d; ++k) {
    dims[k] = geo.decomposition().procs().dims[k];
    periods[k] = g.periodic[k] ? 1 : 0;
  }
  for (const auto& b : p.blocks)
    for (int k = 0; k < d; ++k) offsets.push_back(b.offset[k]);
  cart::Options options;
  options.algorithm = algorithm;
  options.execution = execution;
  return cart_call("CX_Cart_neighborhood_create", [&] { return cart::Neighborhood(comm, dims, periods, offsets, options); });
}

void rethrow_cart_error(const char* call, const cart::Error& e) {
  int rank = -1;
  if (MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS) rank = -1;  // best effort: only for the message
  throw core::Error(fmt::format("{} failed on rank {}: {}", call, rank, e.what()));
}

}  // namespace cartex::halo
