#pragma once
// The global grid: how many cells, how long, which dimensions wrap around.
//
// Dimension order everywhere in cartex is x, y, z (index 0, 1, 2). A 2D run has dim == 2 and is
// stored as a 3D grid with n[2] == 1 and no halo in z, so every kernel is written once.
//
// Cell positions (used for initial conditions and exact solutions):
//   periodic dimension d:      x_i = i * h,        h = length / n         (i = 0 .. n-1)
//   non-periodic dimension d:  x_i = (i + 1) * h,  h = length / (n + 1)   (boundary at x = 0, L)
// so a Dirichlet ghost cell one step outside the domain sits exactly on the boundary.
#include <array>

namespace cartex::core {

// Sizes, lengths and periodicity of the global grid (see header comment for positions).
struct GlobalGrid {
  int dim = 3;                               // 2 or 3
  std::array<long, 3> n{1, 1, 1};            // cells per dimension (n[2] == 1 in 2D)
  std::array<double, 3> length{1.0, 1.0, 1.0};
  std::array<bool, 3> periodic{true, true, true};

  // Grid spacing h in dimension d (see header comment).
  double spacing(int d) const { return periodic[d] ? length[d] / n[d] : length[d] / (n[d] + 1); }
  // Position of global cell index i in dimension d.
  double position(int d, long i) const { return periodic[d] ? i * spacing(d) : (i + 1) * spacing(d); }
  // Total number of cells.
  long cells() const { return n[0] * n[1] * n[2]; }
};

}  // namespace cartex::core
