#include "cartex/physics/advection_stencil.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace cartex::physics {

const char* advection_scheme_name(core::FirstDerivativeScheme s) {
  return s == core::FirstDerivativeScheme::kUpwind ? "upwind" : "central";
}

std::vector<int> advection_orders(core::FirstDerivativeScheme s) {
  if (s == core::FirstDerivativeScheme::kUpwind) return {1, 2, 3, 4};
  return {2, 4};
}

core::Stencil make_advection_diffusion_stencil(const core::Stencil& laplacian, double alpha, const std::array<double, 3>& velocity,
                                               const AdvectionInput& in, const core::GlobalGrid& grid) {
  core::Stencil s;
  s.name = fmt::format("{}+{}{}", laplacian.name, advection_scheme_name(in.scheme), in.order);
  s.dim = grid.dim;
  s.offsets = laplacian.offsets;
  for (double w : laplacian.weights) s.weights.push_back(alpha * w);
  for (int d = 0; d < grid.dim; ++d) {
    const double v = velocity[d];
    if (v == 0) continue;
    const core::OffsetRange range = core::first_derivative_offsets(in.scheme, in.order, v > 0 ? 1 : -1);
    const std::vector<core::Fraction> c = core::first_derivative_coefficients(range);
    const double h = grid.spacing(d);
    for (int k = range.lo; k <= range.hi; ++k) {
      const core::Fraction& w = c[k - range.lo];
      if (w.num == 0) continue;
      core::Offset o{0, 0, 0};
      o[d] = k;
      const double a = -(v * w.value()) / h;
      auto it = std::find(s.offsets.begin(), s.offsets.end(), o);
      if (it == s.offsets.end()) {
        s.offsets.push_back(o);
        s.weights.push_back(a);
      } else {
        s.weights[it - s.offsets.begin()] += a;
      }
    }
  }
  return s;
}

}  // namespace cartex::physics
