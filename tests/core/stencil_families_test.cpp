// Star stencils (exact coefficients, point order, radius 1 == builtin, convergence order on a grid
// sequence with anisotropic spacing), the validation every custom or registered stencil goes through,
// and the scaling of custom weights by h^derivative.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numeric>

#include "cartex/core/stencil.hpp"

namespace cartex {
namespace {


core::GlobalGrid periodic_grid(int dim, long n, double length) {
  core::GlobalGrid g;
  g.dim = dim;
  g.n = {n, n, dim == 3 ? n : 1};
  g.length = {length, length, length};
  return g;
}

TEST(StarStencil, CoefficientsAreTheKnownTables) {
  using F = std::vector<core::Fraction>;
  EXPECT_EQ(core::star_coefficients(1), (F{{-2, 1}, {1, 1}}));
  EXPECT_EQ(core::star_coefficients(2), (F{{-5, 2}, {4, 3}, {-1, 12}}));
  EXPECT_EQ(core::star_coefficients(3), (F{{-49, 18}, {3, 2}, {-3, 20}, {1, 90}}));
  EXPECT_EQ(core::star_coefficients(4), (F{{-205, 72}, {8, 5}, {-1, 5}, {8, 315}, {-1, 560}}));
  EXPECT_THROW(core::star_coefficients(0), std::invalid_argument);
  EXPECT_THROW(core::star_coefficients(5), std::invalid_argument);
}

TEST(StarStencil, CoefficientsAreConsistentSecondDerivatives) {
  // Exactly, in integers over a common denominator: sum c_0 + 2 sum c_k = 0 (constants map to 0) and
  // sum_k c_k (2 k^2) = 2 (the second moment of d^2/dx^2).
  for (int r = 1; r <= 4; ++r) {
    SCOPED_TRACE(r);
    const auto c = core::star_coefficients(r);
    long den = 1;
    for (const auto& f : c) den = den / std::gcd(den, f.den) * f.den;
    long sum = c[0].num * (den / c[0].den), moment = 0;
    for (int k = 1; k <= r; ++k) {
      sum += 2 * c[k].num * (den / c[k].den);
      moment += 2L * k * k * c[k].num * (den / c[k].den);
    }
    EXPECT_EQ(sum, 0);
    EXPECT_EQ(moment, 2 * den);
  }
}

TEST(StarStencil, PointOrderIsCentreThenMinusPlusPerRadiusPerDimension) {
  core::GlobalGrid g = periodic_grid(3, 16, 1.0);
  g.length = {1.0, 2.0, 4.0};
  const core::Stencil s = core::make_star_stencil(6, g);
  EXPECT_EQ(s.name, "star6");
  ASSERT_EQ(s.size(), 1 + 3 * 2 * 3);
  EXPECT_EQ(s.offsets[0], (core::Offset{0, 0, 0}));
  const auto c = core::star_coefficients(3);
  int q = 1;
  double centre = 0;
  for (int d = 0; d < 3; ++d) {
    const double h2 = g.spacing(d) * g.spacing(d);
    centre += c[0].value() / h2;
    for (int k = 1; k <= 3; ++k)
      for (int side : {-1, 1}) {
        core::Offset o{0, 0, 0};
        o[d] = side * k;
        EXPECT_EQ(s.offsets[q], o) << "point " << q;
        EXPECT_EQ(s.weights[q], c[k].value() / h2) << "point " << q;  // per dimension: anisotropic spacing
        ++q;
      }
  }
  EXPECT_EQ(s.weights[0], centre);
  EXPECT_EQ(s.reach().lo, (std::array<int, 3>{3, 3, 3}));
  EXPECT_TRUE(s.is_mirror_symmetric());
}

TEST(StarStencil, OrderTwoIsTheBuiltinBitwise) {
  for (int dim : {2, 3}) {
    core::GlobalGrid g = periodic_grid(dim, 10, 1.0);
    g.length = {1.0, 1.3, 0.7};
    g.periodic = {true, false, true};
    const core::Stencil builtin = core::make_builtin_stencil(dim == 2 ? "5pt" : "7pt", g);
    const core::Stencil star = core::make_star_stencil(2, g);
    EXPECT_EQ(star.dim, builtin.dim);
    EXPECT_EQ(star.offsets, builtin.offsets);
    ASSERT_EQ(star.weights.size(), builtin.weights.size());
    for (int q = 0; q < star.size(); ++q)  // bitwise, not within a tolerance
      EXPECT_EQ(std::memcmp(&star.weights[q], &builtin.weights[q], sizeof(double)), 0) << "point " << q;
  }
}

TEST(StarStencil, RejectsOrdersOtherThanTwoToEight) {
  const core::GlobalGrid g = periodic_grid(3, 8, 1.0);
  for (int order : {0, 1, 3, 10}) EXPECT_THROW(core::make_star_stencil(order, g), std::invalid_argument) << order;
}

// Max error of the stencil applied on the host (a plain loop over its points) to the periodic
// u = prod_d sin(k_d x_d), k_d = 2 pi m_d / L_d, m = (1, 2, 1), against the exact Laplacian -|k|^2 u.
double laplacian_error(const core::Stencil& s, const core::GlobalGrid& g) {
  const double two_pi = 2.0 * std::acos(-1.0);
  const std::array<double, 3> m{1, 2, 1};
  std::array<double, 3> k{}, h{};
  double eigen = 0;
  for (int d = 0; d < g.dim; ++d) {
    k[d] = two_pi * m[d] / g.length[d];
    h[d] = g.spacing(d);
    eigen -= k[d] * k[d];
  }
  const long nx = g.n[0], ny = g.n[1], nz = g.n[2];
  auto u = [&](long i, long j, long l) {
    const double v = std::sin(k[0] * h[0] * i) * std::sin(k[1] * h[1] * j);
    return g.dim == 3 ? v * std::sin(k[2] * h[2] * l) : v;
  };
  auto wrap = [](long i, long n) { return ((i % n) + n) % n; };
  double err = 0;
  for (long l = 0; l < nz; ++l)
    for (long j = 0; j < ny; ++j)
      for (long i = 0; i < nx; ++i) {
        double lu = 0;
        for (int q = 0; q < s.size(); ++q) {
          const core::Offset& o = s.offsets[q];
          lu += s.weights[q] * u(wrap(i + o[0], nx), wrap(j + o[1], ny), wrap(l + o[2], nz));
        }
        err = std::max(err, std::abs(lu - eigen * u(i, j, l)));
      }
  return err;
}

TEST(StarStencil, ConvergesWithItsOrderOnAGridSequence) {
  // n = 16, 32, 64 cells per dimension on [0, 2pi) x [0, 3pi) (x [0, 1.5pi)): anisotropic spacing.
  // Each halving of h divides the error by 2^p: the observed order log2(e(n) / e(2n)) is within 0.3
  // of the design order p, and the finest error stays far above round-off (~1e-16 * sum |w|).
  const double pi = std::acos(-1.0);
  for (int dim : {2, 3})
    for (int order : core::star_orders()) {
      SCOPED_TRACE(::testing::Message() << dim << "D order " << order);
      double coarse = 0;
      for (long n = 16; n <= 64; n *= 2) {
        core::GlobalGrid g = periodic_grid(dim, n, 2 * pi);
        g.length = {2 * pi, 3 * pi, 1.5 * pi};
        const double err = laplacian_error(core::make_star_stencil(order, g), g);
        EXPECT_GT(err, 1e-11) << "n " << n;
        if (n > 16) EXPECT_NEAR(std::log2(coarse / err), order, 0.3) << "n " << n << ": errors " << coarse << " and " << err;
        coarse = err;
      }
    }
}

core::Stencil raw(int dim, std::vector<core::Offset> offsets, std::vector<double> weights) {
  core::Stencil s;
  s.name = "t";
  s.dim = dim;
  s.offsets = std::move(offsets);
  s.weights = std::move(weights);
  return s;
}

// The message, part and point of validate_stencil's complaint ("" if none).
struct Complaint {
  std::string what;
  core::InvalidStencil::Part part = core::InvalidStencil::Part::kWhole;
  int point = -1;
};

Complaint complaint(const core::Stencil& s, int dim) {
  try {
    core::validate_stencil(s, dim);
  } catch (const core::InvalidStencil& e) {
    return {e.what(), e.part(), e.point()};
  }
  return {};
}

TEST(ValidateStencil, AcceptsEveryBuiltinAndStar) {
  for (int dim : {2, 3}) {
    const core::GlobalGrid g = periodic_grid(dim, 12, 1.0);
    for (const auto& name : core::builtin_stencil_names(dim))
      EXPECT_EQ(complaint(core::make_builtin_stencil(name, g), dim).what, "") << name;
    for (int order : core::star_orders()) EXPECT_EQ(complaint(core::make_star_stencil(order, g), dim).what, "") << order;
  }
}

TEST(ValidateStencil, NamesWhatIsWrongAndWhere) {
  using P = core::InvalidStencil::Part;
  const std::vector<core::Offset> five{{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}};
  const std::vector<double> w5{-4, 1, 1, 1, 1};

  Complaint c = complaint(raw(2, {}, {}), 2);
  EXPECT_EQ(c.what, "expected at least one point");
  EXPECT_EQ(c.part, P::kOffset);

  c = complaint(raw(2, five, {-4, 1, 1, 1}), 2);
  EXPECT_EQ(c.what, "expected one weight per offset, got 5 offsets and 4 weights");
  EXPECT_EQ(c.part, P::kWeight);
  EXPECT_EQ(c.point, -1);

  c = complaint(raw(2, five, w5), 3);
  EXPECT_EQ(c.what, "the stencil is 2D but the grid is 3D");
  EXPECT_EQ(c.part, P::kWhole);

  auto into_z = five;
  into_z[3] = {0, 0, 1};
  c = complaint(raw(2, into_z, w5), 2);
  EXPECT_EQ(c.what, "entry 4 [0, 0, 1] reaches into z, but the grid is 2D");
  EXPECT_EQ(c.part, P::kOffset);
  EXPECT_EQ(c.point, 3);

  auto twice = five;
  twice[4] = {-1, 0, 0};
  c = complaint(raw(2, twice, w5), 2);
  EXPECT_EQ(c.what, "entry 5 repeats the offset [-1, 0] of entry 2 (every offset must appear once)");
  EXPECT_EQ(c.part, P::kOffset);
  EXPECT_EQ(c.point, 4);

  c = complaint(raw(2, five, {-4, 1, NAN, 1, 1}), 2);
  EXPECT_EQ(c.what, "entry 3 is not a finite number");
  EXPECT_EQ(c.part, P::kWeight);
  EXPECT_EQ(c.point, 2);

  c = complaint(raw(2, five, {0, 0, 0, 0, 0}), 2);
  EXPECT_EQ(c.what, "every weight is 0, expected at least one that is not (the operator would do nothing)");
  EXPECT_EQ(c.part, P::kWeight);
  EXPECT_EQ(c.point, -1);
}

TEST(ValidateStencil, AcceptsAnySumAndAnySign) {
  // A reaction term (the weights sum to -0.1), growth, a first derivative: linear operators all;
  // whether a time step is stable is time_step_limit's question.
  const std::vector<core::Offset> five{{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}};
  EXPECT_EQ(complaint(raw(2, five, {-4.1, 1, 1, 1, 1}), 2).what, "");
  EXPECT_EQ(complaint(raw(2, five, {4, -1, -1, -1, -1}), 2).what, "");
  EXPECT_EQ(complaint(raw(2, {{-1, 0, 0}, {1, 0, 0}}, {-0.5, 0.5}), 2).what, "");
}

TEST(CustomStencil, UnitWeightsAreDividedByHToTheDerivative) {
  const core::GlobalGrid g = periodic_grid(3, 8, 2.0);
  const double h = g.spacing(0), h2 = h * h;
  const std::vector<core::Offset> three{{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}};
  const core::Stencil s = core::make_custom_stencil("c", three, {-2, 1, 1}, 2, g);
  EXPECT_EQ(s.name, "c");
  EXPECT_EQ(s.weights, (std::vector<double>{-2 / h2, 1 / h2, 1 / h2}));
  EXPECT_EQ(core::make_custom_stencil("c", three, {0, -0.5, 0.5}, 1, g).weights, (std::vector<double>{0, -0.5 / h, 0.5 / h}));
  EXPECT_EQ(core::make_custom_stencil("c", three, {-2, 1, 1}, 0, g).weights, (std::vector<double>{-2, 1, 1}));
  EXPECT_THROW(core::make_custom_stencil("c", three, {-2, 1, 1}, 3, g), std::invalid_argument);
}

TEST(CustomStencil, ScalingNeedsEqualSpacingInTheDimensionsItReaches) {
  core::GlobalGrid g = periodic_grid(3, 8, 1.0);
  g.length = {1.0, 2.0, 1.0};
  const double hx = g.spacing(0), hy = g.spacing(1);
  // Along one axis: that axis's spacing, whatever the others are.
  EXPECT_EQ(core::make_custom_stencil("c", {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}}, {-2, 1, 1}, 2, g).weights,
            (std::vector<double>{-2 / (hx * hx), 1 / (hx * hx), 1 / (hx * hx)}));
  EXPECT_EQ(core::make_custom_stencil("c", {{0, 0, 0}, {0, -1, 0}}, {-1, 1}, 1, g).weights, (std::vector<double>{-1 / hy, 1 / hy}));
  // x and z have equal spacing; x and y do not.
  EXPECT_NO_THROW(core::make_custom_stencil("c", {{0, 0, 0}, {-1, 0, 0}, {0, 0, 1}}, {-2, 1, 1}, 2, g));
  EXPECT_THROW(core::make_custom_stencil("c", {{0, 0, 0}, {-1, 0, 0}, {0, 1, 0}}, {-2, 1, 1}, 2, g), std::invalid_argument);
  EXPECT_THROW(core::make_custom_stencil("c", {{0, 0, 0}, {-1, 0, 0}, {0, 1, 0}}, {-2, 1, 1}, 1, g), std::invalid_argument);
  EXPECT_NO_THROW(core::make_custom_stencil("c", {{0, 0, 0}, {-1, 0, 0}, {0, 1, 0}}, {-2, 1, 1}, 0, g));
}

}  // namespace
}  // namespace cartex
