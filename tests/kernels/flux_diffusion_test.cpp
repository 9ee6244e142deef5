// The flux-form update of heat with a varying alpha (flux_diffusion.hpp) on one rank, against the
// physics: a constant field gives the scalar path's result to rounding; a periodic box with a
// gaussian alpha keeps the sum of u over 1,000 steps; two layers between Dirichlet walls reach the
// exact discrete steady state, piecewise linear with continuous flux (the face mean's check).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "cartex/core/coefficient.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/kokkos_compat.hpp"
#include "cartex/core/stencil.hpp"
#include "cartex/kernels/coefficient_field.hpp"
#include "cartex/kernels/flux_diffusion.hpp"
#include "cartex/kernels/linear_update.hpp"

namespace cartex::kernels {
namespace {

using HostView = core::host_mirror_t<core::FieldView>;

core::GlobalGrid make_grid(int dim, std::array<long, 3> n, std::array<bool, 3> periodic) {
  core::GlobalGrid g;
  g.dim = dim;
  g.n = n;
  g.periodic = periodic;
  g.length = {1.0, 0.8, dim == 3 ? 1.2 : 1.0};
  return g;
}

core::FieldLayout whole_grid(const core::GlobalGrid& g) {
  core::FieldLayout l;
  l.box.n = g.n;
  for (int d = 0; d < g.dim; ++d) l.halo.lo[d] = l.halo.hi[d] = 1;
  return l;
}

// The halo of the one rank's field: periodic ghosts copy their owner, wall ghosts hold `wall[d]`.
void fill_halo(core::Field& f, const core::GlobalGrid& g, const std::array<std::array<double, 2>, 3>& wall = {}) {
  HostView h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
  const auto& l = f.layout;
  for (long k = 0; k < l.extent(2); ++k)
    for (long j = 0; j < l.extent(1); ++j)
      for (long i = 0; i < l.extent(0); ++i) {
        const long v[3] = {i, j, k};
        long src[3];
        bool interior = true;
        for (int d = 0; d < 3; ++d) {
          const long gi = l.global_index(d, v[d]);
          src[d] = v[d];
          if (gi >= 0 && gi < g.n[d]) continue;
          interior = false;
          if (!g.periodic[d]) {
            h(k, j, i) = wall[d][gi < 0 ? 0 : 1];
            src[0] = -1;
            break;
          }
          src[d] = l.view_index(d, core::coefficient_source_index(g, d, gi));
        }
        if (!interior && src[0] >= 0) h(k, j, i) = h(src[2], src[1], src[0]);
      }
  Kokkos::deep_copy(f.view, h);
}

void fill_random(core::Field& f, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  HostView h = Kokkos::create_mirror_view(f.view);
  for (size_t q = 0; q < h.size(); ++q) h.data()[q] = uni(rng);
  Kokkos::deep_copy(f.view, h);
}

double interior_sum(const core::Field& f) {
  HostView h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
  const auto& l = f.layout;
  double s = 0;
  for (long k = 0; k < l.box.n[2]; ++k)
    for (long j = 0; j < l.box.n[1]; ++j)
      for (long i = 0; i < l.box.n[0]; ++i) s += h(k + l.halo.lo[2], j + l.halo.lo[1], i + l.halo.lo[0]);
  return s;
}

// `steps` steps of `op` from a copy of `start` (periodic or walls as in `g`); returns the final field.
core::Field run(const FieldUpdate& op, const core::Field& start, const core::GlobalGrid& g, long steps,
                const std::array<std::array<double, 2>, 3>& wall = {}) {
  core::Field u("u", start.layout), v("v", start.layout);
  Kokkos::deep_copy(u.view, start.view);
  for (long s = 0; s < steps; ++s) {
    fill_halo(u, g, wall);
    op.apply(u, v);
    std::swap(u, v);
  }
  return u;
}

// 2 / (max alpha * rho), rho = sum_d 4 / h_d^2 (the header's Gershgorin bound).
double dt_limit(const core::GlobalGrid& g, double alpha_max) {
  double rho = 0;
  for (int d = 0; d < g.dim; ++d) rho += 4.0 / (g.spacing(d) * g.spacing(d));
  return 2.0 / (alpha_max * rho);
}

// Not bitwise: the scalar path sums the stencil's weights (1/h^2 folded in) times u and multiplies by
// dt * alpha once; the flux form forms each face's difference, its mean alpha, then 1/h^2 per axis.
TEST(FluxDiffusion, ConstantFieldMatchesTheScalarPathToRounding) {
  for (int dim : {2, 3}) {
    const auto g = make_grid(dim, dim == 3 ? std::array<long, 3>{10, 9, 8} : std::array<long, 3>{16, 12, 1}, {true, false, true});
    const auto l = whole_grid(g);
    const double alpha = 0.7, dt = 0.8 * dt_limit(g, alpha);
    core::CoefficientInput c;
    c.value = alpha;
    const core::Field a = make_coefficient_field(c, g, l);
    const FluxDiffusionUpdate flux(a, l, g, dt);
    const LinearUpdate scalar(core::make_builtin_stencil(dim == 3 ? "7pt" : "5pt", g), l, core::Integrator::kExplicitEuler, dt * alpha);
    core::Field u("u", l);
    fill_random(u, 7);
    const std::array<std::array<double, 2>, 3> wall{{{0, 0}, {0.5, -0.25}, {0, 0}}};
    core::Field u_flux = run(flux, u, g, 50, wall);
    core::Field u_scalar = run(scalar, u, g, 50, wall);
    HostView hf = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u_flux.view);
    HostView hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u_scalar.view);
    double worst = 0, largest = 0;
    for (long k = 0; k < l.box.n[2]; ++k)
      for (long j = 0; j < l.box.n[1]; ++j)
        for (long i = 0; i < l.box.n[0]; ++i) {
          const long z = k + l.halo.lo[2], y = j + l.halo.lo[1], x = i + 1;
          worst = std::max(worst, std::abs(hf(z, y, x) - hs(z, y, x)));
          largest = std::max(largest, std::abs(hs(z, y, x)));
        }
    EXPECT_GT(largest, 1e-3) << dim << "D: the field decayed to nothing, the comparison says little";
    EXPECT_LT(worst, 1e-13) << dim << "D";
  }
}

TEST(FluxDiffusion, GaussianAlphaConservesTheSumOnAPeriodicBox) {
  for (int dim : {2, 3}) {
    const auto g = make_grid(dim, dim == 3 ? std::array<long, 3>{12, 10, 8} : std::array<long, 3>{24, 20, 1}, {true, true, true});
    const auto l = whole_grid(g);
    core::CoefficientInput c;
    c.form = core::CoefficientInput::Form::kGaussian;
    c.background = 0.2;
    c.peak = 3.0;
    c.center = {0.4, 0.5, 0.6};
    c.width = 0.15;
    const core::Field a = make_coefficient_field(c, g, l);
    const FluxDiffusionUpdate flux(a, l, g, 0.9 * dt_limit(g, c.peak));
    core::Field u("u", l);
    fill_random(u, 11);
    const double before = interior_sum(u);
    const core::Field after = run(flux, u, g, 1000);
    EXPECT_NEAR(interior_sum(after), before, 1e-11 * static_cast<double>(g.cells())) << dim << "D";
    // The field did change (a diffusion that did nothing would conserve the sum too).
    HostView h0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u.view);
    HostView h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), after.view);
    EXPECT_GT(std::abs(h1(l.halo.lo[2], 1, 1) - h0(l.halo.lo[2], 1, 1)), 1e-3) << dim << "D";
  }
}

// Layers along x (alpha1 below x = 0.5, alpha2 above), Dirichlet walls u = 0 at x = 0 and 1 at x = 1,
// periodic in the other dimensions. Steady: every x-face carries the same flux F = a_face (u_+ - u) / h;
// the face between the layers has (alpha1 + alpha2) / 2, so u is linear in each layer with
// alpha1 * slope1 = alpha2 * slope2 and u_i = F h sum_{faces left of i} 1 / a_face.
TEST(FluxDiffusion, TwoLayersReachTheExactPiecewiseLinearSteadyState) {
  for (int dim : {2, 3}) {
    const long n = 24;
    const auto g = make_grid(dim, dim == 3 ? std::array<long, 3>{n, 3, 3} : std::array<long, 3>{n, 4, 1}, {false, true, true});
    const auto l = whole_grid(g);
    const double a1 = 1.0, a2 = 4.0;
    core::CoefficientInput c;
    c.form = core::CoefficientInput::Form::kLayers;
    c.axis = 0;
    c.bounds = {0.5};
    c.values = {a1, a2};
    const core::Field a = make_coefficient_field(c, g, l);
    const FluxDiffusionUpdate flux(a, l, g, 0.95 * dt_limit(g, a2));
    std::vector<double> face;  // face f between cells f-1 and f (f = 0: the low wall)
    double total = 0;
    for (long f = 0; f <= n; ++f) {
      const double lo = coefficient_value(c, g, {core::coefficient_source_index(g, 0, f - 1), 0, 0});
      const double hi = coefficient_value(c, g, {core::coefficient_source_index(g, 0, f), 0, 0});
      face.push_back(0.5 * (lo + hi));
      total += 1.0 / face.back();
    }
    std::vector<double> exact(n);
    double acc = 0;
    for (long i = 0; i < n; ++i) exact[i] = (acc += 1.0 / face[i]) / total;
    ASSERT_EQ(face[12], 0.5 * (a1 + a2)) << "the interface is between cells 11 and 12";

    core::Field u("u", l);
    Kokkos::deep_copy(u.view, 0.0);
    const std::array<std::array<double, 2>, 3> wall{{{0.0, 1.0}, {0, 0}, {0, 0}}};
    const core::Field end = run(flux, u, g, dim == 3 ? 30000 : 20000, wall);
    HostView h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), end.view);
    const long z = l.halo.lo[2];
    for (long i = 0; i < n; ++i) EXPECT_NEAR(h(z, 1, i + 1), exact[i], 1e-9) << dim << "D cell " << i;
    const double h_x = g.spacing(0);
    const double slope1 = (h(z, 1, 12) - h(z, 1, 1)) / (11 * h_x), slope2 = (h(z, 1, 24) - h(z, 1, 13)) / (11 * h_x);
    EXPECT_NEAR(a1 * slope1, a2 * slope2, 1e-8) << dim << "D: the flux is continuous across the interface";
    EXPECT_NEAR(h(z, 1, 7) - h(z, 1, 6), h(z, 1, 3) - h(z, 1, 2), 1e-10) << dim << "D: linear inside a layer";
  }
}

}  // namespace
}  // namespace cartex::kernels
