// Builtin stencils: consistency (weights sum to 0, second moments give the Laplacian), symmetry,
// halo reach, and the spectral radius behind the stability limit.
#include <gtest/gtest.h>

#include <cmath>

#include "cartex/core/stencil.hpp"

namespace cartex {
namespace {

core::GlobalGrid cube(int dim, long n, double L) {
  core::GlobalGrid g;
  g.dim = dim;
  g.n = {n, n, dim == 3 ? n : 1};
  g.length = {L, L, L};
  return g;
}

TEST(Stencil, BuiltinsAreConsistentLaplacians) {
  for (int dim : {2, 3})
    for (const auto& name : core::builtin_stencil_names(dim)) {
      const core::GlobalGrid g = cube(dim, 16, 2.0);
      const core::Stencil s = core::make_builtin_stencil(name, g);
      SCOPED_TRACE(name);
      double sum = 0;
      std::array<double, 3> m2{0, 0, 0};
      double mixed = 0;
      for (int q = 0; q < s.size(); ++q) {
        sum += s.weights[q];
        for (int d = 0; d < 3; ++d) m2[d] += s.weights[q] * std::pow(s.offsets[q][d] * g.spacing(d), 2);
        mixed += s.weights[q] * s.offsets[q][0] * s.offsets[q][1];
      }
      const double scale = 1.0 / (g.spacing(0) * g.spacing(0));
      EXPECT_NEAR(sum, 0.0, 1e-12 * scale);
      for (int d = 0; d < dim; ++d) EXPECT_NEAR(m2[d], 2.0, 1e-12);  // sum w o^2 h^2 = 2: d^2/dx^2
      EXPECT_NEAR(mixed, 0.0, 1e-12 * scale);
      EXPECT_TRUE(s.is_mirror_symmetric());
      EXPECT_EQ(s.reach().lo[0], 1);
      EXPECT_EQ(s.reach().hi[dim - 1], 1);
    }
}

TEST(Stencil, SpectralRadiusMatchesClosedForms) {
  const core::GlobalGrid g = cube(3, 10, 1.0);
  const double h2 = g.spacing(0) * g.spacing(0);
  // 7pt: the checkerboard mode gives -4 * 3 / h^2.
  EXPECT_NEAR(core::make_builtin_stencil("7pt", g).spectral_radius() * h2, 12.0, 1e-12);
  // 27pt: at theta = (pi, pi, pi): (128 + 6*14 - 12*3 + 8) / 30.
  EXPECT_NEAR(core::make_builtin_stencil("27pt", g).spectral_radius() * h2, 184.0 / 30.0, 1e-12);
  // 5pt and 9pt in 2D: 8 / h^2 and (20 + 4*4 - 4) / 6 / h^2... at (pi, pi): (20 + 16 - 4)/6.
  const core::GlobalGrid g2 = cube(2, 10, 1.0);
  EXPECT_NEAR(core::make_builtin_stencil("5pt", g2).spectral_radius() * h2, 8.0, 1e-12);
  EXPECT_NEAR(core::make_builtin_stencil("9pt", g2).spectral_radius() * h2, 32.0 / 6.0, 1e-12);
}

TEST(Stencil, RejectsUnknownNamesAndAnisotropicBoxStencils) {
  EXPECT_THROW(core::make_builtin_stencil("7pt", cube(2, 8, 1.0)), std::invalid_argument);
  EXPECT_THROW(core::make_builtin_stencil("13pt", cube(3, 8, 1.0)), std::invalid_argument);
  core::GlobalGrid g = cube(3, 8, 1.0);
  g.length[2] = 2.0;
  EXPECT_THROW(core::make_builtin_stencil("27pt", g), std::invalid_argument);
  EXPECT_NO_THROW(core::make_builtin_stencil("7pt", g));
}

// Points with non-zero components in two or more dimensions (edges and corners of a box).
int diagonal_points(const core::Stencil& s) {
  int n = 0;
  for (const auto& o : s.offsets)
    if ((o[0] != 0) + (o[1] != 0) + (o[2] != 0) > 1) ++n;
  return n;
}

TEST(Stencil, DiagonalsOnlyInBoxStencils) {
  EXPECT_EQ(diagonal_points(core::make_builtin_stencil("7pt", cube(3, 8, 1.0))), 0);
  EXPECT_EQ(diagonal_points(core::make_builtin_stencil("27pt", cube(3, 8, 1.0))), 20);
  EXPECT_EQ(diagonal_points(core::make_builtin_stencil("9pt", cube(2, 8, 1.0))), 4);
}

}  // namespace
}  // namespace cartex
