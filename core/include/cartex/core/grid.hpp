#pragma once
// The global grid: how many cells, how long, which dimensions wrap around.
//
// Dimension order everywhere in cartex is x, y, z (index 0, 1, 2). A 2D run has dim == 2 and is
// stored as a 3D grid with n[2] == 1 and no halo in z, so every kernel is written once.
//
// Cell positions (used for initial conditions, exact solutions, the stencil's h and output):
//   periodic dimension d:      x_i = i * h,           h = length / n                     (i = 0 .. n-1)
//   non-periodic dimension d:  x_i = (i + o_lo) * h,  h = length / (n - 1 + o_lo + o_hi)  (walls at x = 0, L)
// where a face's offset o is its wall kind's (core/wall_kinds.hpp): 1 for a Dirichlet wall (the ghost
// cell one step outside sits exactly on the wall: x_i = (i + 1) h, h = L / (n + 1), the same bits as
// before Neumann walls existed) and 1/2 for a Neumann or Robin wall (the wall lies halfway between the
// last cell and its ghost, so the mirror of ghost m is cell m at the same distance inside;
// docs/boundaries.md):
//
//   Dirichlet:   ghost   |  0     1    ...        Neumann:   ghost  |  0     1    ...
//                  *     |  *     *                            *    |    *     *
//                 x=0    h    2h                            -h/2   x=0  h/2   3h/2
#include <array>

#include "cartex/core/wall_kinds.hpp"

namespace cartex::core {

// Sizes, lengths and periodicity of the global grid (see header comment for positions).
struct GlobalGrid {
  int dim = 3;                               // 2 or 3
  std::array<long, 3> n{1, 1, 1};            // cells per dimension (n[2] == 1 in 2D)
  std::array<double, 3> length{1.0, 1.0, 1.0};
  std::array<bool, 3> periodic{true, true, true};
  // [d][0 = low face, 1 = high face]: the faces' kinds (core::BoundaryFace has their values); non-periodic d only
  std::array<std::array<WallKind, 2>, 3> wall{{{WallKind::kDirichlet, WallKind::kDirichlet},
                                                {WallKind::kDirichlet, WallKind::kDirichlet},
                                                {WallKind::kDirichlet, WallKind::kDirichlet}}};

  // The face's offset o: its kind's row's, 1 (Dirichlet) or 1/2 (Neumann, Robin; see header comment).
  double wall_offset(int d, int side) const { return wall_kind_row(wall[d][side]).offset; }
  // Grid spacing h in dimension d (see header comment).
  double spacing(int d) const {
    return periodic[d] ? length[d] / n[d] : length[d] / (n[d] - 1 + wall_offset(d, 0) + wall_offset(d, 1));
  }
  // Position of global cell index i in dimension d (also of ghost cells: i < 0 or i >= n).
  double position(int d, long i) const { return periodic[d] ? i * spacing(d) : (i + wall_offset(d, 0)) * spacing(d); }
  // Total number of cells.
  long cells() const { return n[0] * n[1] * n[2]; }
};

}  // namespace cartex::core
