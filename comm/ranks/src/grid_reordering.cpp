// Node sub-blocks of the process grid (the Cartesian extension of NESUS'14's renaming) and the
// owned reordered communicator.
#include "cartex/ranks/grid_reordering.hpp"

#include <functional>
#include <numeric>
#include <stdexcept>

#include "grid_index.hpp"
#include "mpi_check.hpp"

namespace cartex::ranks {
namespace {

// Rank of every cell when node k holds block k (row-major over the node grid) and its ranks fill
// the block row-major.
std::vector<int> block_assignment(const std::vector<int>& dims, const std::vector<int>& block, const NodeLayout& layout) {
  const std::size_t d = dims.size();
  std::vector<int> node_grid(d);
  for (std::size_t i = 0; i < d; ++i) node_grid[i] = dims[i] / block[i];
  const int cells = detail::volume(dims);
  std::vector<int> rank_of(static_cast<std::size_t>(cells));
  std::vector<int> outer(d), inner(d);
  for (int g = 0; g < cells; ++g) {
    const std::vector<int> c = detail::coords(g, dims);
    for (std::size_t i = 0; i < d; ++i) outer[i] = c[i] / block[i], inner[i] = c[i] % block[i];
    const int node = detail::index(outer, node_grid), slot = detail::index(inner, block);
    rank_of[static_cast<std::size_t>(g)] = layout.ranks_on(node)[static_cast<std::size_t>(slot)];
  }
  return rank_of;
}

// Every block shape b with b[i] dividing dims[i] and product q.
std::vector<std::vector<int>> block_shapes(const std::vector<int>& dims, int q) {
  std::vector<std::vector<int>> shapes;
  std::vector<int> b(dims.size());
  std::function<void(std::size_t, int)> choose = [&](std::size_t i, int rest) {
    if (i == dims.size()) {
      if (rest == 1) shapes.push_back(b);
      return;
    }
    for (int x = 1; x <= dims[i]; ++x)
      if (dims[i] % x == 0 && rest % x == 0) b[i] = x, choose(i + 1, rest / x);
  };
  choose(0, q);
  return shapes;
}

bool fewer(const Traffic& a, const Traffic& b) {
  if (a.inter_node_bytes != b.inter_node_bytes) return a.inter_node_bytes < b.inter_node_bytes;
  return a.inter_node_messages < b.inter_node_messages;
}

}  // namespace

GridAssignment identity_assignment(const std::vector<int>& dims) {
  GridAssignment a;
  a.rank_of_cell.resize(static_cast<std::size_t>(detail::volume(dims)));
  std::iota(a.rank_of_cell.begin(), a.rank_of_cell.end(), 0);
  return a;
}

GridAssignment node_block_assignment(const std::vector<int>& dims, const std::vector<int>& periods,
                                     const std::vector<HaloNeighbor>& neighbors, const NodeLayout& layout) {
  if (detail::volume(dims) != layout.size()) throw std::invalid_argument("cartex::ranks: grid and layout sizes differ");
  GridAssignment best = identity_assignment(dims);
  const int q = layout.ranks_per_node();
  if (q == 0) return best;
  Traffic best_traffic = halo_traffic(dims, periods, neighbors, layout, best);
  for (const auto& shape : block_shapes(dims, q)) {
    GridAssignment a{shape, block_assignment(dims, shape, layout)};
    const Traffic t = halo_traffic(dims, periods, neighbors, layout, a);
    if (fewer(t, best_traffic)) best = std::move(a), best_traffic = t;
  }
  return best;
}

ReorderedComm::ReorderedComm(MPI_Comm comm, const GridAssignment& assignment) {
  const int me = core::comm_rank(comm);
  int cell = -1;
  for (std::size_t g = 0; g < assignment.rank_of_cell.size(); ++g)
    if (assignment.rank_of_cell[g] == me) cell = static_cast<int>(g);
  if (cell < 0) throw std::invalid_argument("cartex::ranks: this rank holds no grid position");
  check_mpi(MPI_Comm_split(comm, 0, cell, &comm_), "MPI_Comm_split");
}

ReorderedComm::~ReorderedComm() {
  int finalized = 0;
  check_mpi_nothrow(MPI_Finalized(&finalized), "MPI_Finalized");
  if (comm_ != MPI_COMM_NULL && !finalized) check_mpi_nothrow(MPI_Comm_free(&comm_), "MPI_Comm_free");
}

}  // namespace cartex::ranks
