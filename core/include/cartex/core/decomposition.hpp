#pragma once
// Block decomposition of a GlobalGrid over a Cartesian process grid.
//
// Ranks map to process coordinates as MPI_Cart_create(reorder = 0) does with dims (Px, Py, Pz):
// rank = (cx * Py + cy) * Pz + cz. Dimension d of size N over P processes gives process c the cells
// [c*q + min(c, r), ...) with q = N / P, r = N % P: the first r processes hold one cell more.
#include <array>
#include <vector>

#include "cartex/core/box.hpp"
#include "cartex/core/grid.hpp"

namespace cartex::core {

// The process grid: dims per dimension (dims[2] == 1 in 2D).
struct ProcessGrid {
  std::array<int, 3> dims{1, 1, 1};

  int size() const { return dims[0] * dims[1] * dims[2]; }
  std::array<int, 3> coords(int rank) const;
  int rank(const std::array<int, 3>& coords) const;

  // Fills the zero entries of `requested` (size grid.dim) for `nranks` processes and checks the
  // product; throws std::invalid_argument with the reason when it cannot. The most-split dimension
  // is put last (z in 3D, y in 2D), where halo planes are contiguous in memory.
  static ProcessGrid create(const GlobalGrid& grid, std::array<int, 3> requested, int nranks);
};

// Which cells each process owns, and who owns a given global cell.
class Decomposition {
 public:
  Decomposition(const GlobalGrid& grid, const ProcessGrid& procs);

  const GlobalGrid& grid() const { return grid_; }
  const ProcessGrid& procs() const { return procs_; }
  // The box of global cells owned by `rank`.
  Box box(int rank) const;
  // Process coordinate owning global index g (0 <= g < n) in dimension d.
  int owner_coord(int d, long g) const;
  // Rank owning global cell g (each component already inside the grid).
  int owner(const std::array<long, 3>& g) const;
  // Smallest local block extent in dimension d over all processes.
  long min_block(int d) const { return grid_.n[d] / procs_.dims[d]; }

 private:
  GlobalGrid grid_;
  ProcessGrid procs_;
};

}  // namespace cartex::core
