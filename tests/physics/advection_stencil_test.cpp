// The advection-diffusion operator as one stencil (the first derivatives themselves are tested in
// tests/core): the combined stencil's point order and weights, its complex symbol against
// alpha * Lap - i v . D and its small-theta limit, and kernels' fallback to the generic kernel for
// such a non-symmetric star-shaped stencil.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "cartex/core/field.hpp"
#include "cartex/core/stencil.hpp"
#include "cartex/kernels/stencil_update.hpp"
#include "cartex/core/stability.hpp"
#include "cartex/physics/advection_stencil.hpp"
#include "cartex/physics/euler_sine_mode.hpp"

namespace cartex::physics {
namespace {

using Scheme = core::FirstDerivativeScheme;

std::vector<AdvectionInput> all_inputs() {
  std::vector<AdvectionInput> all;
  for (Scheme s : {Scheme::kUpwind, Scheme::kCentral})
    for (int order : advection_orders(s)) all.push_back({s, order});
  return all;
}

std::string label(const AdvectionInput& in) { return std::string(advection_scheme_name(in.scheme)) + std::to_string(in.order); }

core::GlobalGrid periodic_grid(int dim, std::array<long, 3> n, std::array<double, 3> length) {
  core::GlobalGrid g;
  g.dim = dim;
  g.n = n;
  g.length = length;
  g.periodic = {true, true, true};
  return g;
}

// D for `in` and a flow of sign `sign`: (offset, weight) pairs with weight != 0.
std::vector<std::pair<int, double>> derivative(const AdvectionInput& in, int sign) {
  const core::OffsetRange r = core::first_derivative_offsets(in.scheme, in.order, sign);
  const auto c = core::first_derivative_coefficients(r);
  std::vector<std::pair<int, double>> D;
  for (int k = r.lo; k <= r.hi; ++k)
    if (c[k - r.lo].num != 0) D.emplace_back(k, c[k - r.lo].value());
  return D;
}

TEST(AdvectionDiffusionStencil, PointOrderAndWeights) {
  const auto grid = periodic_grid(2, {10, 8, 1}, {1.0, 2.0, 1.0});
  const double hx = grid.spacing(0), hy = grid.spacing(1);
  const core::Stencil lap = core::make_builtin_stencil("5pt", grid);
  const double alpha = 0.3, vx = 2.0, vy = -0.5;
  const core::Stencil s = make_advection_diffusion_stencil(lap, alpha, {vx, vy, 0}, {Scheme::kUpwind, 2}, grid);
  EXPECT_EQ(s.name, "5pt+upwind2");
  // 5pt's points, then x's new offset -2 (x upwind: -2, -1, 0), then y's new offset +2 (v_y < 0: 0, 1, 2).
  const std::vector<core::Offset> offsets = {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {-2, 0, 0}, {0, 2, 0}};
  ASSERT_EQ(s.offsets, offsets);
  const double ax0 = -(vx * 1.5) / hx, axm1 = -(vx * -2.0) / hx, axm2 = -(vx * 0.5) / hx;
  const double ay0 = -(vy * -1.5) / hy, ayp1 = -(vy * 2.0) / hy, ayp2 = -(vy * -0.5) / hy;
  EXPECT_EQ(s.weights[0], (alpha * lap.weights[0] + ax0) + ay0);
  EXPECT_EQ(s.weights[1], alpha * lap.weights[1] + axm1);
  EXPECT_EQ(s.weights[2], alpha * lap.weights[2]);
  EXPECT_EQ(s.weights[3], alpha * lap.weights[3]);
  EXPECT_EQ(s.weights[4], alpha * lap.weights[4] + ayp1);
  EXPECT_EQ(s.weights[5], axm2);
  EXPECT_EQ(s.weights[6], ayp2);
  // A zero velocity component adds nothing.
  const core::Stencil still = make_advection_diffusion_stencil(lap, alpha, {0, 0, 0}, {Scheme::kCentral, 4}, grid);
  EXPECT_EQ(still.offsets, lap.offsets);
}

// The symbol of alpha * Lap - sum_d v_d D_d / h_d, summed from its parts.
std::complex<double> parts_symbol(const core::Stencil& lap, double alpha, const std::array<double, 3>& v, const AdvectionInput& in,
                                  const core::GlobalGrid& grid, const std::array<double, 3>& theta) {
  std::complex<double> lambda = alpha * lap.symbol(theta);
  for (int d = 0; d < grid.dim; ++d) {
    if (v[d] == 0) continue;
    std::complex<double> dsym = 0;
    for (const auto& [o, w] : derivative(in, v[d] > 0 ? 1 : -1)) dsym += w * std::polar(1.0, theta[d] * o);
    lambda -= v[d] * dsym / grid.spacing(d);
  }
  return lambda;
}

TEST(AdvectionDiffusionStencil, SymbolIsDiffusionMinusIVDotD) {
  const auto grid = periodic_grid(3, {12, 10, 8}, {1.0, 1.5, 0.7});
  const std::array<double, 3> v{1.0, -0.7, 0.4};
  for (const char* name : {"7pt", "star"})
    for (const auto& in : all_inputs()) {
      const core::Stencil lap = std::string(name) == "7pt" ? core::make_builtin_stencil("7pt", grid) : core::make_star_stencil(6, grid);
      const core::Stencil s = make_advection_diffusion_stencil(lap, 0.05, v, in, grid);
      for (const std::array<double, 3> theta : {std::array<double, 3>{0.3, 1.1, -2.0}, {3.0, -0.2, 0.9}, {0, 0, 0}}) {
        const auto want = parts_symbol(lap, 0.05, v, in, grid, theta);
        const auto got = core::fourier_symbol(s, theta);
        EXPECT_NEAR(got.real(), want.real(), 1e-12 * std::abs(want) + 1e-12) << name << " " << label(in);
        EXPECT_NEAR(got.imag(), want.imag(), 1e-12 * std::abs(want) + 1e-12) << name << " " << label(in);
      }
      // Small theta: the first derivative's symbol is i theta / h (1 + O(theta^order)), so
      // lambda ~ -alpha |k|^2 - i v . k with a relative error of about theta^order.
      const std::array<double, 3> theta{1e-3, -2e-3, 1.5e-3};
      std::complex<double> cont = 0;
      for (int d = 0; d < 3; ++d) {
        const double k = theta[d] / grid.spacing(d);
        cont += std::complex<double>(-0.05 * k * k, -v[d] * k);
      }
      EXPECT_LT(std::abs(core::fourier_symbol(s, theta) - cont) / std::abs(cont), std::pow(4e-3, in.order)) << name << " " << label(in);
    }
}

// A non-symmetric stencil with the star's offsets in the star's order (5pt/7pt + upwind 1 or
// central 2) runs the generic kernel, and its update is the stencil's sum.
TEST(AdvectionDiffusionStencil, StarShapedRunsGenericKernel) {
  for (int dim : {2, 3})
    for (const AdvectionInput in : {AdvectionInput{Scheme::kUpwind, 1}, AdvectionInput{Scheme::kCentral, 2}}) {
      const auto grid = periodic_grid(dim, {9, 7, dim == 3 ? 6 : 1}, {1.0, 1.0, 1.0});
      const core::Stencil lap = core::make_builtin_stencil(dim == 3 ? "7pt" : "5pt", grid);
      const core::Stencil s = make_advection_diffusion_stencil(lap, 0.1, {1.0, 0.5, -0.25}, in, grid);
      ASSERT_EQ(s.offsets, lap.offsets) << "expected the star's offsets";
      core::FieldLayout l;
      l.box.n = grid.n;
      l.halo = s.reach();
      core::Field a("a", l), b("b", l);
      auto h = Kokkos::create_mirror_view(a.view);
      std::mt19937_64 rng(7);
      std::uniform_real_distribution<double> uni(-1, 1);
      for (size_t q = 0; q < h.size(); ++q) h.data()[q] = uni(rng);
      Kokkos::deep_copy(a.view, h);
      const kernels::StencilOperator op(s, l, kernels::StencilOperator::Kernel::kAuto, core::Integrator::kExplicitEuler);
      EXPECT_STREQ(op.kernel_name(), "generic") << label(in);
      const double dt = 1e-3;
      op.apply(a, b, dt);
      auto out = Kokkos::create_mirror_view(b.view);
      Kokkos::deep_copy(out, b.view);
      const long z0 = l.halo.lo[2], y0 = l.halo.lo[1], x0 = l.halo.lo[0];
      double worst = 0;
      for (long k = 0; k < l.box.n[2]; ++k)
        for (long j = 0; j < l.box.n[1]; ++j)
          for (long i = 0; i < l.box.n[0]; ++i) {
            double acc = 0;
            for (int q = 0; q < s.size(); ++q)
              acc += s.weights[q] * h(z0 + k + s.offsets[q][2], y0 + j + s.offsets[q][1], x0 + i + s.offsets[q][0]);
            const double want = h(z0 + k, y0 + j, x0 + i) + dt * acc;
            worst = std::max(worst, std::abs(out(z0 + k, y0 + j, x0 + i) - want));
          }
      EXPECT_LT(worst, 1e-13) << label(in);
    }
}

}  // namespace
}  // namespace cartex::physics
