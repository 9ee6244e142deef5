#pragma once
// Internal: the sine mode A sin(k_x x) sin(k_y y) sin(k_z z) on a rank's block is a product of one
// factor per dimension, so each factor is evaluated once per line of cells (n_x + n_y + n_z sines on
// the host) instead of once per cell and dimension. A dimension whose low wall's kind has the cosine (Neumann) has
// a cosine factor instead (sine_mode_cosines in initial.hpp). The kernels multiply them in the order the
// per-cell formula did, A * f_x * f_y * f_z, with the same sines: the same bits.
#include <Kokkos_Core.hpp>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "cartex/core/device_copy.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/grid.hpp"

namespace cartex::kernels::detail {

struct SineFactors {
  Kokkos::View<double*> x, y, z;  // factor d at local interior index i: sin(k_d * (x0_d + (lo_d + i) h_d)) (or cos)
  int dim = 3;

  SineFactors(const core::GlobalGrid& grid, const core::FieldLayout& layout, const std::array<double, 3>& k) : dim(grid.dim) {
    Kokkos::View<double*>* views[3] = {&x, &y, &z};
    for (int d = 0; d < 3; ++d) {
      std::vector<double> factor(layout.box.n[d]);
      const double x0 = grid.position(d, 0), h = grid.spacing(d);
      const bool cosine = d < grid.dim && !grid.periodic[d] && core::wall_kind_row(grid.wall[d][0]).sine_cosine;
      for (long i = 0; i < layout.box.n[d]; ++i) {
        const double phase = k[d] * (x0 + static_cast<double>(layout.box.lo[d] + i) * h);
        factor[i] = cosine ? std::cos(phase) : std::sin(phase);
      }
      *views[d] = core::to_device(std::string("cartex::sine_factor_") + "xyz"[d], factor);
    }
  }

  // The mode at local interior cell (x, y, z), amplitude a.
  KOKKOS_INLINE_FUNCTION double operator()(double a, long i, long j, long l) const {
    double u = a * x(i);
    if (dim > 1) u *= y(j);
    if (dim > 2) u *= z(l);
    return u;
  }
};

}  // namespace cartex::kernels::detail
