// kernels::relative_error_vs_modes: 0 for a field filled with the exact solution, the size of a
// perturbation of one cell relative to the solution's maximum otherwise; positions as grid.hpp says.
#include <gtest/gtest.h>

#include <mpi.h>

#include <cmath>

#include "cartex/core/field.hpp"
#include "cartex/core/stencil.hpp"
#include "cartex/kernels/mode_error.hpp"
#include "cartex/physics/advection_stencil.hpp"
#include "cartex/physics/euler_sine_mode.hpp"

namespace cartex::physics {
namespace {

TEST(ModeError, ZeroForTheExactSolutionAndSeesOneCell) {
  const double pi = std::acos(-1.0);
  core::GlobalGrid g;
  g.dim = 3;
  g.n = {10, 8, 6};
  g.length = {1.0, 2.0, 1.5};
  const std::array<double, 3> k{2 * pi / 1.0, 2 * pi / 2.0, 4 * pi / 1.5};
  const core::Stencil s = make_advection_diffusion_stencil(core::make_builtin_stencil("7pt", g), 0.01, {1, 1, -1},
                                                           {core::FirstDerivativeScheme::kUpwind, 3}, g);
  const kernels::ModeSum exact = euler_sine_mode(s, 1e-3, 1.0, k, g, 17);
  core::FieldLayout l;
  l.box.n = {5, 8, 6};
  l.box.lo = {5, 0, 0};  // the upper half in x, as one of two ranks holds it
  l.halo = {{1, 1, 1}, {2, 1, 1}};
  core::Field f("u", l);
  auto h = Kokkos::create_mirror_view(f.view);
  double size = 0;
  for (long z = 0; z < 6; ++z)
    for (long y = 0; y < 8; ++y)
      for (long x = 0; x < 5; ++x) {
        const double e = exact(g.position(0, 5 + x), g.position(1, y), g.position(2, z));
        h(z + 1, y + 1, x + 1) = e;
        size = std::max(size, std::abs(e));
      }
  Kokkos::deep_copy(f.view, h);
  EXPECT_LT(kernels::relative_error_vs_modes(f, g, exact, MPI_COMM_SELF), 1e-15);
  h(3, 4, 2) += 1e-3;
  Kokkos::deep_copy(f.view, h);
  EXPECT_NEAR(kernels::relative_error_vs_modes(f, g, exact, MPI_COMM_SELF), 1e-3 / size, 1e-12);
}

}  // namespace
}  // namespace cartex::physics
