// The exact discrete solution of explicit Euler from the sine mode (euler_sine_mode) against the
// update applied directly, point by point with periodic wrap-around, on small lattices in 2D and 3D,
// for advection-diffusion stencils of every scheme and order: the ModeSum matches to rounding after
// many steps, and the amplification is the one the stencil's complex symbol gives.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "cartex/core/stencil.hpp"
#include "cartex/physics/advection_stencil.hpp"
#include "cartex/physics/euler_sine_mode.hpp"

namespace cartex::physics {
namespace {

// u <- u + dt * L(u) on the periodic lattice of `grid`, `steps` times, from amplitude * prod sin(k x).
std::vector<double> run_directly(const core::Stencil& s, double dt, double amplitude, const std::array<double, 3>& k,
                                 const core::GlobalGrid& g, long steps) {
  const long nx = g.n[0], ny = g.n[1], nz = g.n[2];
  std::vector<double> u(nx * ny * nz), next(u.size());
  auto at = [&](long i, long j, long l) { return ((l % nz + nz) % nz * ny + (j % ny + ny) % ny) * nx + (i % nx + nx) % nx; };
  for (long l = 0; l < nz; ++l)
    for (long j = 0; j < ny; ++j)
      for (long i = 0; i < nx; ++i) {
        double v = amplitude * std::sin(k[0] * g.position(0, i)) * std::sin(k[1] * g.position(1, j));
        if (g.dim == 3) v *= std::sin(k[2] * g.position(2, l));
        u[at(i, j, l)] = v;
      }
  for (long n = 0; n < steps; ++n) {
    for (long l = 0; l < nz; ++l)
      for (long j = 0; j < ny; ++j)
        for (long i = 0; i < nx; ++i) {
          double acc = 0;
          for (int q = 0; q < s.size(); ++q) acc += s.weights[q] * u[at(i + s.offsets[q][0], j + s.offsets[q][1], l + s.offsets[q][2])];
          next[at(i, j, l)] = u[at(i, j, l)] + dt * acc;
        }
    u.swap(next);
  }
  return u;
}

// max |direct - exact| / max |exact| over the lattice.
double relative_error(const std::vector<double>& u, const kernels::ModeSum& exact, const core::GlobalGrid& g) {
  double err = 0, size = 0;
  for (long l = 0; l < g.n[2]; ++l)
    for (long j = 0; j < g.n[1]; ++j)
      for (long i = 0; i < g.n[0]; ++i) {
        const double e = exact(g.position(0, i), g.position(1, j), g.dim == 3 ? g.position(2, l) : 0.0);
        err = std::max(err, std::abs(u[(l * g.n[1] + j) * g.n[0] + i] - e));
        size = std::max(size, std::abs(e));
      }
  return err / size;
}

struct Lattice {
  core::GlobalGrid grid;
  std::array<double, 3> k;
};

Lattice lattice(int dim) {
  const double pi = std::acos(-1.0);
  Lattice L;
  L.grid.dim = dim;
  L.grid.n = {12, 10, dim == 3 ? 8 : 1};
  L.grid.length = {1.0, 1.3, dim == 3 ? 0.9 : 1.0};
  L.grid.periodic = {true, true, true};
  L.k = {2 * pi * 1 / 1.0, 2 * pi * 2 / 1.3, dim == 3 ? 2 * pi * 1 / 0.9 : 0.0};
  return L;
}

TEST(EulerSineMode, MatchesTheUpdateAppliedDirectly) {
  for (int dim : {2, 3})
    for (core::FirstDerivativeScheme scheme : {core::FirstDerivativeScheme::kUpwind, core::FirstDerivativeScheme::kCentral})
      for (int order : advection_orders(scheme)) {
        const Lattice L = lattice(dim);
        const core::Stencil lap = core::make_builtin_stencil(dim == 3 ? "7pt" : "5pt", L.grid);
        const core::Stencil s = make_advection_diffusion_stencil(lap, 0.01, {0.8, -0.6, 0.5}, {scheme, order}, L.grid);
        const double dt = 2e-3;
        const long steps = 200;
        const auto u = run_directly(s, dt, 1.5, L.k, L.grid, steps);
        const kernels::ModeSum exact = euler_sine_mode(s, dt, 1.5, L.k, L.grid, steps);
        EXPECT_EQ(exact.count, 1 << dim);
        EXPECT_LT(relative_error(u, exact, L.grid), 1e-12) << dim << "D " << advection_scheme_name(scheme) << order;
        // The solution moved: it is not the initial mode scaled (a check that can fail if the phase were lost).
        const kernels::ModeSum start = euler_sine_mode(s, dt, 1.5, L.k, L.grid, 0);
        EXPECT_GT(relative_error(u, start, L.grid), 0.05) << dim << "D " << advection_scheme_name(scheme) << order;
      }
}

TEST(EulerSineMode, StepZeroIsTheSineMode) {
  const Lattice L = lattice(3);
  const core::Stencil lap = core::make_builtin_stencil("7pt", L.grid);
  const kernels::ModeSum m = euler_sine_mode(lap, 1e-3, 2.0, L.k, L.grid, 0);
  for (double x : {0.1, 0.37})
    for (double y : {0.2, 1.1})
      for (double z : {0.05, 0.8}) EXPECT_NEAR(m(x, y, z), 2.0 * std::sin(L.k[0] * x) * std::sin(L.k[1] * y) * std::sin(L.k[2] * z), 1e-14);
}

TEST(EulerSineMode, SymmetricStencilHasRealAmplification) {
  // For a Laplacian the amplification is real, 1 + dt * symbol: the heat equation's known factor.
  const Lattice L = lattice(3);
  const core::Stencil lap = core::make_builtin_stencil("7pt", L.grid);
  const auto G = euler_amplification(lap, 1e-4, L.k, L.grid);
  std::array<double, 3> theta{};
  for (int d = 0; d < 3; ++d) theta[d] = L.k[d] * L.grid.spacing(d);
  EXPECT_NEAR(G.real(), 1 + 1e-4 * lap.symbol(theta), 1e-15);
  EXPECT_NEAR(G.imag(), 0, 1e-15);
}

// The schemes' behaviour, from the exact amplification of one plane wave e^{i k x} carried along x
// (alpha = 0, dt = 0.4 h / v): its phase speed -arg(G) / (k dt) approaches v as the grid is refined.
// First-order upwind damps it (|G| < 1); every other scheme amplifies it (|G| > 1), because Euler's
// own growth 1 + (v k dt)^2 / 2 beats their damping of order theta^(order + 1) or more at small
// theta: without diffusion only upwind 1 has a stable dt, which is why the limit is computed.
TEST(EulerSineMode, DampingAndPhaseSpeedOfThePlaneWave) {
  const double pi = std::acos(-1.0), v = 1.5, k = 2 * pi;
  for (core::FirstDerivativeScheme scheme : {core::FirstDerivativeScheme::kUpwind, core::FirstDerivativeScheme::kCentral})
    for (int order : advection_orders(scheme)) {
      double previous = 0;
      for (long n : {16, 32, 64}) {
        core::GlobalGrid g;
        g.dim = 2;
        g.n = {n, 4, 1};
        const core::Stencil lap = core::make_builtin_stencil("5pt", g);
        const core::Stencil s = make_advection_diffusion_stencil(lap, 0.0, {v, 0, 0}, {scheme, order}, g);
        const double dt = 0.4 * g.spacing(0) / v;
        const auto G = euler_amplification(s, dt, {k, 0, 0}, g);
        if (scheme == core::FirstDerivativeScheme::kUpwind && order == 1)
          EXPECT_LT(std::abs(G), 1.0) << "upwind1 n=" << n;
        else
          EXPECT_GT(std::abs(G), 1.0) << advection_scheme_name(scheme) << order << " n=" << n;
        const double error = std::abs(-std::arg(G) / (k * dt) - v);
        if (previous > 0) EXPECT_LT(error, previous * 0.75) << advection_scheme_name(scheme) << order << " n=" << n;
        previous = error;
      }
      EXPECT_LT(previous, 0.05 * v) << advection_scheme_name(scheme) << order;
    }
}

}  // namespace
}  // namespace cartex::physics
