#pragma once
// The advection-diffusion operator L(u) = alpha * Lap_h(u) - sum_d v_d * D_d(u) as ONE linear
// stencil, so the run is kernels::LinearUpdate with core::Integrator::kExplicitEuler and coeff = dt, and the generic
// kernel, deep halos and temporal blocking work unchanged.
//
// D_d is a first-derivative stencil along d (weights / h_d) from physics.advection: upwind of
// order 1..4 (biased against the flow by sign(v_d)) or central of order 2 or 4, with the exact
// weights of core/first_derivative.hpp (its table; docs/stencils.md). Points of weight 0 (the
// centre of the central schemes) are left out; v_d == 0 adds nothing for d.
//
// Point order (the contract for bitwise results, docs/stencils.md "Point order"): the Laplacian's
// points in their order, then for d = x, y(, z) the offsets of D_d in ascending order that are not
// yet in the stencil. A point's weight is evaluated left to right as
//   (((alpha * w_lap) + a_x) + a_y) + a_z,   a_d = -(v_d * c_d) / h_d
// leaving out the terms of parts that lack the offset (a new offset's weight is its a_d alone).
#include <array>
#include <string>
#include <vector>

#include "cartex/core/first_derivative.hpp"
#include "cartex/core/grid.hpp"
#include "cartex/core/stencil.hpp"

namespace cartex::physics {

// physics.advection: {scheme, order}.
struct AdvectionInput {
  core::FirstDerivativeScheme scheme = core::FirstDerivativeScheme::kUpwind;
  int order = 1;
};

// "upwind" / "central", as the input spells them.
const char* advection_scheme_name(core::FirstDerivativeScheme s);

// The orders a scheme has: upwind 1, 2, 3, 4; central 2, 4.
std::vector<int> advection_orders(core::FirstDerivativeScheme s);

// alpha * `laplacian` - sum_d velocity[d] * D_d on `grid` (velocity[d] unused beyond grid.dim),
// in the point order above; named "<laplacian name>+<scheme><order>". Throws std::invalid_argument
// for an order the scheme does not have.
core::Stencil make_advection_diffusion_stencil(const core::Stencil& laplacian, double alpha, const std::array<double, 3>& velocity,
                                               const AdvectionInput& in, const core::GlobalGrid& grid);

}  // namespace cartex::physics
