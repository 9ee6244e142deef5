#include "cartex/core/decomposition.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <stdexcept>

#include "cartex/core/error.hpp"
#include "cartex/core/mpi_check.hpp"

namespace cartex::core {

std::array<int, 3> ProcessGrid::coords(int rank) const {
  return {rank / (dims[1] * dims[2]), (rank / dims[2]) % dims[1], rank % dims[2]};
}

int ProcessGrid::rank(const std::array<int, 3>& c) const { return (c[0] * dims[1] + c[1]) * dims[2] + c[2]; }

ProcessGrid ProcessGrid::create(const GlobalGrid& grid, std::array<int, 3> requested, int nranks) {
  const int dim = grid.dim;
  if (dim == 2) requested[2] = 1;
  long fixed = 1;
  int free_dims = 0;
  for (int d = 0; d < dim; ++d) {
    if (requested[d] > 0)
      fixed *= requested[d];
    else
      ++free_dims;
  }
  if (free_dims == 0 && fixed != nranks)
    throw std::invalid_argument(fmt::format("[{}] needs exactly {} ranks, but the run has {}",
                                            fmt::join(requested.begin(), requested.begin() + dim, ", "), fixed, nranks));
  if (nranks % fixed != 0)
    throw std::invalid_argument(fmt::format("[{}] needs a multiple of {} ranks, but the run has {}",
                                            fmt::join(requested.begin(), requested.begin() + dim, ", "), fixed, nranks));
  // MPI_Dims_create fills the free entries in non-increasing order; hand the largest to the
  // dimension that is slowest in memory (z, then y, then x).
  std::vector<int> free(free_dims, 0);
  if (free_dims > 0) check_mpi(MPI_Dims_create(static_cast<int>(nranks / fixed), free_dims, free.data()), "MPI_Dims_create");
  ProcessGrid pg;
  for (int d = dim - 1, f = 0; d >= 0; --d) pg.dims[d] = requested[d] > 0 ? requested[d] : free[f++];
  for (int d = 0; d < dim; ++d)
    if (pg.dims[d] > grid.n[d])
      throw std::invalid_argument(fmt::format("{} processes in dimension {} exceed its {} cells (use fewer ranks or set processes.dims)",
                                   pg.dims[d], "xyz"[d], grid.n[d]));
  return pg;
}

Decomposition::Decomposition(const GlobalGrid& grid, const ProcessGrid& procs) : grid_(grid), procs_(procs) {
  for (int d = 0; d < 3; ++d)
    require(procs.dims[d] >= 1 && procs.dims[d] <= grid.n[d],
            fmt::format("Decomposition: {} processes for {} cells in dimension {}", procs.dims[d], grid.n[d], d));
}

Box Decomposition::box(int rank) const {
  auto c = procs_.coords(rank);
  Box b;
  for (int d = 0; d < 3; ++d) {
    const long q = grid_.n[d] / procs_.dims[d], r = grid_.n[d] % procs_.dims[d];
    b.lo[d] = c[d] * q + std::min<long>(c[d], r);
    b.n[d] = q + (c[d] < r ? 1 : 0);
  }
  return b;
}

int Decomposition::owner_coord(int d, long g) const {
  const long q = grid_.n[d] / procs_.dims[d], r = grid_.n[d] % procs_.dims[d];
  if (g < r * (q + 1)) return static_cast<int>(g / (q + 1));
  return static_cast<int>(r + (g - r * (q + 1)) / q);
}

int Decomposition::owner(const std::array<long, 3>& g) const {
  return procs_.rank({owner_coord(0, g[0]), owner_coord(1, g[1]), owner_coord(2, g[2])});
}

}  // namespace cartex::core
