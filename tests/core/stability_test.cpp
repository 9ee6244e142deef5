// time_step_limit: the Laplacian formulas bit for bit, the analytic limits where they are known
// (upwind advection-diffusion, central advection-diffusion, reaction terms), a brute-force scan for
// a 2D stencil with all three parts and for a symmetric one whose extreme is off the spectral-radius
// lattice, and the errors when no dt is stable.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "cartex/core/stability.hpp"

namespace cartex {
namespace {

using core::Integrator;

core::GlobalGrid grid(int dim, long n, std::array<double, 3> length) {
  core::GlobalGrid g;
  g.dim = dim;
  g.n = {n, n, dim == 3 ? n : 1};
  g.length = length;
  return g;
}

core::Stencil stencil(int dim, std::vector<core::Offset> offsets, std::vector<double> weights) {
  core::Stencil s;
  s.name = "test";
  s.dim = dim;
  s.offsets = std::move(offsets);
  s.weights = std::move(weights);
  return s;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(TimeStepLimit, LaplaciansKeepTheFormulasBitForBit) {
  for (int dim : {2, 3}) {
    std::vector<core::Stencil> all;
    const core::GlobalGrid g = grid(dim, 24, {1.0, 1.0, 1.0});
    for (const auto& name : core::builtin_stencil_names(dim)) all.push_back(core::make_builtin_stencil(name, g));
    for (int order : core::star_orders()) all.push_back(core::make_star_stencil(order, grid(dim, 24, {1.0, 1.7, 0.6})));
    for (const auto& s : all)
      for (double a : {1.0, 0.37, 3.0e-5, 11.0}) {
        SCOPED_TRACE(::testing::Message() << dim << "D " << s.name << " a " << a);
        const double rho = s.spectral_radius();
        const auto euler = core::time_step_limit(s, Integrator::kExplicitEuler, a);
        EXPECT_TRUE(euler.from_spectral_radius);
        EXPECT_TRUE(same_bits(euler.dt_max, 2.0 / (a * rho))) << euler.dt_max << " vs " << 2.0 / (a * rho);
        const auto leapfrog = core::time_step_limit(s, Integrator::kLeapfrog, a * a);  // wave: scale = c^2
        EXPECT_TRUE(same_bits(leapfrog.dt_max, 2.0 / (a * std::sqrt(rho)))) << leapfrog.dt_max;
      }
  }
  // The analytic radius: 7pt on h = 1/24 is 12 / h^2, so dt_max = h^2 / 6 for alpha = 1.
  const double h = 1.0 / 24;
  const auto s = core::make_builtin_stencil("7pt", grid(3, 24, {1.0, 1.0, 1.0}));
  EXPECT_NEAR(core::time_step_limit(s, Integrator::kExplicitEuler, 1.0).dt_max, h * h / 6, 1e-12 * h * h);
}

// u_t + vx u_x + vy u_y = nu (u_xx + u_yy) with first-order upwind (vx, vy > 0) on spacing hx, hy.
core::Stencil upwind_advection_diffusion(double vx, double vy, double nu, double hx, double hy) {
  const double ax = vx / hx, ay = vy / hy, dx = nu / (hx * hx), dy = nu / (hy * hy);
  return stencil(2, {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}},
                 {-ax - ay - 2 * dx - 2 * dy, ax + dx, dx, ay + dy, dy});
}

TEST(TimeStepLimit, UpwindAdvectionDiffusionIsTheClassicalBound) {
  // Positive coefficients of the update give |g| <= 1 for dt <= 1 / (sum of the rates), and the
  // checkerboard mode attains it: the classical bound, exactly.
  for (const auto& [vx, vy, nu] : {std::array<double, 3>{1.0, 0.5, 0.01}, {3.0, 0.0, 0.2}, {0.2, 2.0, 0.0}}) {
    const double hx = 1.0 / 32, hy = 1.0 / 20;
    SCOPED_TRACE(::testing::Message() << vx << " " << vy << " " << nu);
    const auto lim = core::time_step_limit(upwind_advection_diffusion(vx, vy, nu, hx, hy), Integrator::kExplicitEuler, 1.0);
    const double classical = 1.0 / (vx / hx + vy / hy + 2 * nu / (hx * hx) + 2 * nu / (hy * hy));
    EXPECT_FALSE(lim.from_spectral_radius);
    EXPECT_NEAR(lim.dt_max, classical, 1e-12 * classical);
    EXPECT_EQ(lim.growth, 0.0);
  }
}

TEST(TimeStepLimit, UpwindAdvectionDiffusionIn3DIsTheClassicalBound) {
  const std::array<double, 3> v{1.0, 0.4, 2.0}, h{1.0 / 20, 1.0 / 12, 1.0 / 16};
  const double nu = 0.003;
  core::Stencil s = stencil(3, {{0, 0, 0}}, {0.0});
  double rates = 0;
  for (int d = 0; d < 3; ++d) {
    const double a = v[d] / h[d], dd = nu / (h[d] * h[d]);
    core::Offset lo{0, 0, 0}, hi{0, 0, 0};
    lo[d] = -1;
    hi[d] = 1;
    s.offsets.push_back(lo);
    s.weights.push_back(a + dd);
    s.offsets.push_back(hi);
    s.weights.push_back(dd);
    s.weights[0] -= a + 2 * dd;
    rates += a + 2 * dd;
  }
  const auto lim = core::time_step_limit(s, Integrator::kExplicitEuler, 0.5);
  EXPECT_NEAR(lim.dt_max, 1 / (0.5 * rates), 1e-12 / rates);
}

TEST(TimeStepLimit, LeapfrogTakesAnyRealNonPositiveSymbol) {
  // Diagonal only, point-symmetric but not mirror-symmetric: lambda = -2 w (1 - cos(tx + ty)) is real
  // and <= 0, rho = 4 w, so dt_max = 2 / sqrt(a rho).
  const double w = 3.0, a = 2.5;
  const core::Stencil diag = stencil(2, {{0, 0, 0}, {1, 1, 0}, {-1, -1, 0}}, {-2 * w, w, w});
  ASSERT_FALSE(diag.is_mirror_symmetric());
  const auto lim = core::time_step_limit(diag, Integrator::kLeapfrog, a);
  EXPECT_FALSE(lim.from_spectral_radius);
  EXPECT_NEAR(lim.dt_max, 2 / std::sqrt(a * 4 * w), 1e-12);
}

// The smallest per-mode Euler limit 2 (s - Re l) / (|l|^2 - s^2) in 2D by brute force, independent of
// the scan under test: an n x n lattice over [-pi, pi]^2, a 401 x 401 lattice over +-2 of its
// spacings around its best mode, and 2000 directions times 60 radii from 1e-1 to 1e-4 (theta -> 0).
double brute_force_limit(const core::Stencil& s, int n) {
  const double pi = std::acos(-1.0), step = 2 * pi / (n - 1);
  double growth = 0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      growth = std::max(growth, core::fourier_symbol(s, {-pi + step * a, -pi + step * b, 0}).real());
  auto limit = [&](double x, double y) {
    const auto l = core::fourier_symbol(s, {x, y, 0});
    return std::norm(l) > growth * growth * (1 + 1e-12) ? 2 * (growth - l.real()) / (std::norm(l) - growth * growth) : INFINITY;
  };
  double best = INFINITY, bx = 0, by = 0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (const double v = limit(-pi + step * a, -pi + step * b); v < best) best = v, bx = -pi + step * a, by = -pi + step * b;
  for (int a = -200; a <= 200; ++a)
    for (int b = -200; b <= 200; ++b) best = std::min(best, limit(bx + step * a / 100, by + step * b / 100));
  for (int k = 0; k < 2000; ++k)
    for (int r = 0; r < 60; ++r) {
      const double rad = std::pow(10.0, -1.0 - 3.0 * r / 59), angle = pi * k / 1000;
      best = std::min(best, limit(rad * std::cos(angle), rad * std::sin(angle)));
    }
  return best;
}

TEST(TimeStepLimit, CentralAdvectionDiffusionIsTheSmallThetaLimit) {
  // 1D in x: lambda = -2 d (1 - cos t) + i a sin t with a = v/h, d = nu/h^2; the per-mode limit is
  // 4 d / (2 a^2 + (1 - cos t)(4 d^2 - a^2)). For a^2 > 4 d^2 its infimum 2 d / a^2 = 2 nu / v^2 is the
  // theta -> 0 limit, not attained by any mode; for a^2 < 4 d^2 it is 1 / (2 d) at theta = pi.
  const double h = 1.0 / 64;
  for (const auto& [v, nu] : {std::array<double, 2>{1.0, 0.002}, {1.0, 0.05}}) {
    const double a = v / h, d = nu / (h * h);
    const core::Stencil s = stencil(2, {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}}, {-2 * d, a / 2 + d, -a / 2 + d});
    const double exact = a * a > 4 * d * d ? 2 * d / (a * a) : 1 / (2 * d);
    const auto lim = core::time_step_limit(s, Integrator::kExplicitEuler, 1.0);
    SCOPED_TRACE(::testing::Message() << "v " << v << " nu " << nu << " exact " << exact);
    EXPECT_GE(lim.dt_max, exact * (1 - 1e-12));
    EXPECT_NEAR(lim.dt_max, exact, 1e-6 * exact);
    EXPECT_LE(lim.dt_max, brute_force_limit(s, 2001) * (1 + 1e-12));
  }
}

TEST(TimeStepLimit, ReactionTermsShiftTheLimitAsTheSymbolSays) {
  const double h = 1.0 / 16, d = 1 / (h * h);
  // Decay -0.1: a mirror-symmetric symbol <= 0, so the formula, rho = 4 d + 0.1 (weights sum to -0.1).
  const core::Stencil decay = stencil(2, {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}}, {-2 * d - 0.1, d, d});
  const auto ld = core::time_step_limit(decay, Integrator::kExplicitEuler, 2.0);
  EXPECT_TRUE(ld.from_spectral_radius);
  EXPECT_NEAR(ld.dt_max, 2 / (2.0 * (4 * d + 0.1)), 1e-14);
  // Growth +0.1: s = 0.1; the per-mode limit 2 (s - Re l) / (|l|^2 - s^2) = 4 c d / (4 c d (c d - 0.1))
  // with c = 1 - cos t is smallest at t = pi: 1 / (2 d - 0.1) (slightly above the pure Laplacian's).
  const core::Stencil growth = stencil(2, {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}}, {-2 * d + 0.1, d, d});
  const auto lg = core::time_step_limit(growth, Integrator::kExplicitEuler, 1.0);
  EXPECT_FALSE(lg.from_spectral_radius);
  EXPECT_NEAR(lg.growth, 0.1, 1e-12);
  EXPECT_NEAR(lg.dt_max, 1 / (2 * d - 0.1), 1e-12 / d);
  // Growth alone: every mode grows with the equation, nothing limits dt.
  EXPECT_TRUE(std::isinf(core::time_step_limit(stencil(2, {{0, 0, 0}}, {0.1}), Integrator::kExplicitEuler, 1.0).dt_max));
}

TEST(TimeStepLimit, AllThreePartsAgreeWithABruteForceScan) {
  // Upwind-biased in x, central in y, anisotropic diffusion, reaction -0.3, on hx != hy; and the
  // same with growth +0.3: the scan with refinement is at most the brute-force minimum and within
  // 1e-6 of it.
  const double hx = 1.0 / 40, hy = 1.0 / 24, vx = 2.0, vy = -1.5, nu = 0.004;
  for (double reaction : {-0.3, 0.3}) {
    SCOPED_TRACE(reaction);
    const double ax = vx / hx, ay = vy / hy, dx = nu / (hx * hx), dy = 0.5 * nu / (hy * hy);
    // x: second-order upwind (1/2, -2, 3/2 at -2, -1, 0); y: central.
    const core::Stencil s = stencil(2, {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {-2, 0, 0}, {0, -1, 0}, {0, 1, 0}},
                                    {-1.5 * ax - 2 * dx - 2 * dy + reaction, 2 * ax + dx, dx, -0.5 * ax, ay / 2 + dy, -ay / 2 + dy});
    const auto lim = core::time_step_limit(s, Integrator::kExplicitEuler, 1.0);
    const double brute = brute_force_limit(s, 1501);
    EXPECT_LE(lim.dt_max, brute * (1 + 1e-12));
    EXPECT_NEAR(lim.dt_max, brute, 1e-6 * brute);
    EXPECT_EQ(lim.growth > 0, reaction > 0);
  }
}

TEST(TimeStepLimit, ASymmetricStencilWhoseExtremeIsOffTheLatticeGetsTheTrueRadius) {
  // lambda(t) = -10 + 2 cos t - 2 cos 2t + 4 cos 3t + 6 cos 4t <= 0 has its minimum between the points
  // of Stencil::spectral_radius()'s 33-point lattice: that lattice alone gives a rho 0.8% small and a dt
  // that blows up at cfl 1. Both limits must be at most, and within 1e-9 of, the brute-force ones.
  std::vector<core::Offset> x;
  for (int o = -4; o <= 4; ++o) x.push_back({o, 0, 0});
  const core::Stencil s = stencil(2, x, {3, 2, -1, 1, -10, 1, -1, 2, 3});
  ASSERT_TRUE(s.is_mirror_symmetric());
  double rho = 0;
  const double pi = std::acos(-1.0);
  for (int q = 0; q <= 2000000; ++q) rho = std::max(rho, -core::fourier_symbol(s, {pi * q / 2000000, 0, 0}).real());
  ASSERT_GT(rho, s.spectral_radius() * 1.005);
  const double a = 0.7;
  const auto euler = core::time_step_limit(s, Integrator::kExplicitEuler, a);
  EXPECT_LE(euler.dt_max, 2 / (a * rho) * (1 + 1e-12));
  EXPECT_NEAR(euler.dt_max, 2 / (a * rho), 1e-9 * euler.dt_max);
  const auto leapfrog = core::time_step_limit(s, Integrator::kLeapfrog, a);
  EXPECT_LE(leapfrog.dt_max, 2 / std::sqrt(a * rho) * (1 + 1e-12));
  EXPECT_NEAR(leapfrog.dt_max, 2 / std::sqrt(a * rho), 1e-9 * leapfrog.dt_max);
}

TEST(TimeStepLimit, NoStableStepIsAnErrorThatSaysWhy) {
  const double h = 1.0 / 16;
  const core::Stencil central = stencil(2, {{-1, 0, 0}, {1, 0, 0}}, {-0.5 / h, 0.5 / h});
  try {
    core::time_step_limit(central, Integrator::kExplicitEuler, 1.0);
    FAIL() << "no error";
  } catch (const core::NoStableTimeStep& e) {
    EXPECT_NE(std::string(e.what()).find("no time step is stable with explicit Euler"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("upwind"), std::string::npos) << e.what();
  }
  const core::Stencil upwind = stencil(2, {{0, 0, 0}, {-1, 0, 0}}, {-1 / h, 1 / h});
  EXPECT_GT(core::time_step_limit(upwind, Integrator::kExplicitEuler, 1.0).dt_max, 0.0);
  try {
    core::time_step_limit(upwind, Integrator::kLeapfrog, 1.0);
    FAIL() << "no error";
  } catch (const core::NoStableTimeStep& e) {
    EXPECT_NE(std::string(e.what()).find("leapfrog is stable only for a real symbol"), std::string::npos) << e.what();
  }
  EXPECT_THROW(core::time_step_limit(upwind, Integrator::kExplicitEuler, 0.0), std::invalid_argument);
  // Second-order upwind: Re lambda ~ -theta^4 / 4, Im lambda ~ -theta: the per-mode limit falls as
  // theta^2, so Euler has no stable step; with diffusion nu it tends to 2 nu / v^2 instead.
  const core::Stencil upwind2 = stencil(2, {{0, 0, 0}, {-1, 0, 0}, {-2, 0, 0}}, {-1.5 / h, 2 / h, -0.5 / h});
  try {
    core::time_step_limit(upwind2, Integrator::kExplicitEuler, 1.0);
    FAIL() << "no error";
  } catch (const core::NoStableTimeStep& e) {
    EXPECT_NE(std::string(e.what()).find("tends to 0 as t -> 0"), std::string::npos) << e.what();
  }
  const double nu = 0.01, d = nu / (h * h);
  const core::Stencil diffused = stencil(2, {{0, 0, 0}, {-1, 0, 0}, {-2, 0, 0}, {1, 0, 0}}, {-1.5 / h - 2 * d, 2 / h + d, -0.5 / h, d});
  EXPECT_NEAR(core::time_step_limit(diffused, Integrator::kExplicitEuler, 1.0).dt_max, 2 * nu, 1e-6 * 2 * nu);
}

}  // namespace
}  // namespace cartex
