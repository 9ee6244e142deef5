#pragma once
// A stencil is plain data: relative offsets and weights. kernels/ applies it, comm/halo derives the
// halo and the process neighborhood from it; nobody writes a neighbor list by hand.
//
// Weights include the grid spacing: L(u)_p = sum_q weight[q] * u[p + offset[q]] approximates the
// Laplacian on the given grid. Builtins:
//   5pt  (2D)  (u_W + u_E - 2u)/hx^2 + (u_S + u_N - 2u)/hy^2
//   9pt  (2D)  1/(6h^2) * [ 4 on faces, 1 on corners, -20 at the centre ]      (needs hx == hy)
//   7pt  (3D)  sum over d of (u_-d + u_+d - 2u)/h_d^2
//   27pt (3D)  1/(30h^2) * [ 14 on faces, 3 on edges, 1 on corners, -128 at the centre ] (isotropic h)
#include <array>
#include <string>
#include <vector>

#include "cartex/core/grid.hpp"

namespace cartex {

// One relative offset (dx, dy, dz); dz == 0 in 2D.
using Offset = std::array<int, 3>;

// Per-side halo widths needed by a stencil: lo[d] cells below, hi[d] cells above, in dimension d.
struct HaloWidths {
  std::array<int, 3> lo{0, 0, 0};
  std::array<int, 3> hi{0, 0, 0};
  friend bool operator==(const HaloWidths& a, const HaloWidths& b) { return a.lo == b.lo && a.hi == b.hi; }
};

// Offsets and weights of a linear stencil operator on a particular grid.
struct Stencil {
  std::string name;
  int dim = 3;
  std::vector<Offset> offsets;
  std::vector<double> weights;

  int size() const { return static_cast<int>(offsets.size()); }
  // Halo widths: the largest reach of any offset on each side of each dimension.
  HaloWidths reach() const;
  // True if some offset has non-zero components in two or more dimensions (edges/corners needed).
  bool has_diagonals() const;
  // True if flipping the sign of any single coordinate maps the stencil onto itself with equal weights.
  bool is_mirror_symmetric() const;
  // The symbol sum_q w_q prod_d cos(k_d o_qd h_d): the eigenvalue of a mirror-symmetric stencil for
  // the mode prod_d sin(k_d x_d) (h is folded into k here: theta_d = k_d * h_d).
  double symbol(const std::array<double, 3>& theta) const;
  // The largest -symbol(theta) over theta in [0, pi]^dim (sampled, including every corner).
  double spectral_radius() const;
};

// Names of the builtin stencils for a dimension ("5pt", "9pt" in 2D; "7pt", "27pt" in 3D).
std::vector<std::string> builtin_stencil_names(int dim);

// Builds a builtin stencil for `grid`; throws std::invalid_argument with the reason when the name is
// unknown for the grid's dimension or the stencil needs equal spacing and the grid does not have it.
Stencil make_builtin_stencil(const std::string& name, const GlobalGrid& grid);

}  // namespace cartex
