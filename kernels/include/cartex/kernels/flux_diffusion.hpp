#pragma once
// Heat with a coefficient that varies in space, u_t = div(alpha grad u), explicit Euler, in
// conservative flux form on the second-order star (5pt in 2D, 7pt in 3D):
//
//   u'(p) = u(p) + dt * sum_d [ a(p+e_d/2) (u(p+e_d) - u(p)) - a(p-e_d/2) (u(p) - u(p-e_d)) ] / h_d^2
//   a(p +- e_d/2) = (alpha(p) + alpha(p +- e_d)) / 2      the face value: the mean of its two cells
//
// Each face's flux leaves one cell and enters the other with the same bits, so the sum of u is kept
// to rounding on a periodic grid. Stability: with u' = (I + dt A) u, A is symmetric and a row's
// diagonal -sum_d (a_+ + a_-) / h_d^2 is at most max(alpha) * rho / 2 in size (rho = sum_d 4 / h_d^2,
// the 7pt star's spectral radius), its off-diagonals sum to the same, so by Gershgorin every
// eigenvalue lies in [-max(alpha) * rho, 0] and dt <= 2 / (max(alpha) * rho) is stable.
//
// A PointUpdate underneath (point_update.hpp): regions and deep-halo steps work as for any update;
// there is no blocked kernel (has_blocked_kernel() is false, temporal blocking steps one by one).
// alpha is a field of u's layout holding every view cell (coefficient_field.hpp).
#include <string>

#include "cartex/core/field.hpp"
#include "cartex/core/grid.hpp"
#include "cartex/kernels/point_update.hpp"
#include "cartex/kernels/update_operator.hpp"

namespace cartex::kernels {

// The point rule of the header's formula (public for PointUpdate; use FluxDiffusionUpdate).
struct FluxDiffusionRule {
  core::FieldView alpha;  // same layout as u, halo included
  double dt = 0;
  double inv_h2[3] = {0, 0, 0};  // 1 / h_d^2, 0 beyond the grid's dimension

  KOKKOS_INLINE_FUNCTION double operator()(const PointContext& c) const {
    const double* a = alpha.data();
    const double u = c(0, 0, 0), a0 = a[c.p];
    const long stride[3] = {1, c.sy, c.sz};
    double sum = 0;
    for (int d = 0; d < 3; ++d) {
      if (inv_h2[d] == 0) continue;
      const long s = stride[d];
      const double up = c.u[c.p + s], um = c.u[c.p - s];
      const double flux_hi = 0.5 * (a0 + a[c.p + s]) * (up - u);
      const double flux_lo = 0.5 * (a0 + a[c.p - s]) * (u - um);
      sum += (flux_hi - flux_lo) * inv_h2[d];
    }
    return u + dt * sum;
  }
};

class FluxDiffusionUpdate final : public FieldUpdate {
 public:
  // Throws cartex::core::Error if alpha's layout is not `layout` or the halo is narrower than 1 in
  // a dimension of the grid.
  FluxDiffusionUpdate(const core::Field& alpha, const core::FieldLayout& layout, const core::GlobalGrid& grid, double dt);

  void apply(const core::Field& in, core::Field& out) const override { impl_.apply(in, out); }
  void apply(const core::Field& in, core::Field& out, const CellRegion& cells) const override { impl_.apply(in, out, cells); }
  void apply_async(const Kokkos::DefaultExecutionSpace& exec, const core::Field& in, core::Field& out,
                   const CellRegion& cells) const override {
    impl_.apply_async(exec, in, out, cells);
  }
  std::string kernel_name() const override { return impl_.kernel_name(); }

 private:
  PointUpdate<FluxDiffusionRule> impl_;
};

}  // namespace cartex::kernels
