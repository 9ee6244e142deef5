#pragma once
// The advection-diffusion operator L(u) = alpha * Lap_h(u) - sum_d v_d * D_d(u) as ONE linear
// stencil, so the run is kernels::LinearUpdate with Scheme::kEuler and coeff = dt, and the generic
// kernel, deep halos and temporal blocking work unchanged.
//
// D_d is a first-derivative stencil along d (weights / h_d), from physics.advection:
//
//   scheme    orders   offsets for v_d > 0 (unit spacing)          v_d < 0
//   upwind    1        -1 0                                         mirrored: offset -> -offset,
//   upwind    2        -2 -1 0                                      weight -> -weight (biased
//   upwind    3        -2 -1 0 +1                                   against the flow, i.e. more
//   upwind    4        -3 -2 -1 0 +1                                points upstream)
//   central   2        -1 +1           (either sign of v_d)
//   central   4        -2 -1 +1 +2
//
// The weights are exact fractions: the derivative at 0 of the polynomial through the offsets
// (first_derivative_coefficients). v_d == 0 adds nothing for d.
//
// Point order (the contract for bitwise results, docs/stencils.md "Point order"): the Laplacian's
// points in their order, then for d = x, y(, z) the offsets of D_d in ascending order that are not
// yet in the stencil. A point's weight is evaluated left to right as
//   (((alpha * w_lap) + a_x) + a_y) + a_z,   a_d = -(v_d * c_d) / h_d
// with w_lap = 0 for an offset the Laplacian lacks and a_d left out where D_d lacks the offset.
#include <array>
#include <string>
#include <vector>

#include "cartex/core/grid.hpp"
#include "cartex/core/stencil.hpp"

namespace cartex::physics {

enum class AdvectionScheme { kUpwind, kCentral };

// physics.advection: {scheme, order}.
struct AdvectionInput {
  AdvectionScheme scheme = AdvectionScheme::kUpwind;
  int order = 1;
};

// "upwind" / "central".
const char* advection_scheme_name(AdvectionScheme s);

// The orders a scheme has: upwind 1, 2, 3, 4; central 2, 4.
std::vector<int> advection_orders(AdvectionScheme s);

// A 1D first-derivative stencil for unit spacing: offsets ascending, weights exact.
struct FirstDerivative {
  std::vector<int> offsets;
  std::vector<core::Fraction> weights;
};

// The weights of the derivative at 0 of the polynomial interpolating at `offsets` (distinct, at
// most 6): exact for polynomials of degree offsets.size() - 1. Offsets whose weight is 0 are dropped.
FirstDerivative first_derivative_coefficients(const std::vector<int>& offsets);

// D for `in` and a flow of sign `flow_sign` (+1 or -1; central ignores it), per the table above.
// Throws std::invalid_argument for an order the scheme does not have.
FirstDerivative first_derivative(const AdvectionInput& in, int flow_sign);

// alpha * `laplacian` - sum_d velocity[d] * D_d on `grid` (velocity[d] unused beyond grid.dim),
// in the point order above; named "<laplacian name>+<scheme><order>".
core::Stencil make_advection_diffusion_stencil(const core::Stencil& laplacian, double alpha, const std::array<double, 3>& velocity,
                                               const AdvectionInput& in, const core::GlobalGrid& grid);

}  // namespace cartex::physics
