// First-derivative stencils: the exact tables, the Taylor conditions they come from, the mirrored
// upwind stencils, and their convergence order measured on a grid sequence.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "cartex/core/first_derivative.hpp"

namespace cartex {
namespace {

using core::FirstDerivativeScheme;
using F = std::vector<core::Fraction>;

TEST(FirstDerivative, OffsetsOfEveryScheme) {
  using R = core::OffsetRange;
  EXPECT_EQ(core::first_derivative_offsets(FirstDerivativeScheme::kCentral, 2), (R{-1, 1}));
  EXPECT_EQ(core::first_derivative_offsets(FirstDerivativeScheme::kCentral, 4, -1), (R{-2, 2}));
  EXPECT_EQ(core::first_derivative_offsets(FirstDerivativeScheme::kUpwind, 1), (R{-1, 0}));
  EXPECT_EQ(core::first_derivative_offsets(FirstDerivativeScheme::kUpwind, 2), (R{-2, 0}));
  EXPECT_EQ(core::first_derivative_offsets(FirstDerivativeScheme::kUpwind, 3), (R{-2, 1}));
  EXPECT_EQ(core::first_derivative_offsets(FirstDerivativeScheme::kUpwind, 4), (R{-3, 1}));
  EXPECT_EQ(core::first_derivative_offsets(FirstDerivativeScheme::kUpwind, 3, -1), (R{-1, 2}));
  EXPECT_EQ(core::first_derivative_offsets(FirstDerivativeScheme::kUpwind, 1, -1), (R{0, 1}));
  EXPECT_THROW(core::first_derivative_offsets(FirstDerivativeScheme::kCentral, 3), std::invalid_argument);
  EXPECT_THROW(core::first_derivative_offsets(FirstDerivativeScheme::kUpwind, 5), std::invalid_argument);
  EXPECT_THROW(core::first_derivative_offsets(FirstDerivativeScheme::kUpwind, 1, 0), std::invalid_argument);
}

TEST(FirstDerivative, CoefficientsAreTheKnownTables) {
  auto of = [](FirstDerivativeScheme s, int order, int sign = 1) {
    return core::first_derivative_coefficients(core::first_derivative_offsets(s, order, sign));
  };
  EXPECT_EQ(of(FirstDerivativeScheme::kCentral, 2), (F{{-1, 2}, {0, 1}, {1, 2}}));
  EXPECT_EQ(of(FirstDerivativeScheme::kCentral, 4), (F{{1, 12}, {-2, 3}, {0, 1}, {2, 3}, {-1, 12}}));
  EXPECT_EQ(of(FirstDerivativeScheme::kUpwind, 1), (F{{-1, 1}, {1, 1}}));
  EXPECT_EQ(of(FirstDerivativeScheme::kUpwind, 2), (F{{1, 2}, {-2, 1}, {3, 2}}));
  EXPECT_EQ(of(FirstDerivativeScheme::kUpwind, 3), (F{{1, 6}, {-1, 1}, {1, 2}, {1, 3}}));
  EXPECT_EQ(of(FirstDerivativeScheme::kUpwind, 4), (F{{-1, 12}, {1, 2}, {-3, 2}, {5, 6}, {1, 4}}));
  // Mirrored for a negative velocity: offset -k gets minus the weight of +k.
  EXPECT_EQ(of(FirstDerivativeScheme::kUpwind, 3, -1), (F{{-1, 3}, {-1, 2}, {1, 1}, {-1, 6}}));
  EXPECT_THROW(core::first_derivative_coefficients({1, 2}), std::invalid_argument);
  EXPECT_THROW(core::first_derivative_coefficients({0, 0}), std::invalid_argument);
  EXPECT_THROW(core::first_derivative_coefficients({-5, 4}), std::invalid_argument);
}

TEST(FirstDerivative, CoefficientsMeetTheTaylorConditionsExactly) {
  // sum_k c_k k^m = [m == 1] for m = 0..hi-lo, in integers over a common denominator; and the next
  // moment is not zero (the order is not higher than designed).
  for (int lo = -4; lo <= 0; ++lo)
    for (int hi = 0; hi <= 4; ++hi) {
      if (lo == hi) continue;
      SCOPED_TRACE(::testing::Message() << lo << ".." << hi);
      const F c = core::first_derivative_coefficients({lo, hi});
      ASSERT_EQ(static_cast<int>(c.size()), hi - lo + 1);
      long den = 1;
      for (const auto& f : c) den = den / std::gcd(den, f.den) * f.den;
      for (int m = 0; m <= hi - lo + 1; ++m) {
        long moment = 0;
        for (int k = lo; k <= hi; ++k) moment += c[k - lo].num * (den / c[k - lo].den) * static_cast<long>(std::pow(k, m));
        if (m <= hi - lo)
          EXPECT_EQ(moment, m == 1 ? den : 0) << "moment " << m;
        else
          EXPECT_NE(moment, 0) << "moment " << m;
      }
    }
}

// Max error of the stencil applied to u = sin(x) + cos(2x) on n cells of [0, 2pi) against u'.
double derivative_error(const F& c, int lo, long n) {
  const double h = 2.0 * std::acos(-1.0) / static_cast<double>(n);
  double err = 0;
  for (long i = 0; i < n; ++i) {
    double du = 0;
    for (int k = lo; k < lo + static_cast<int>(c.size()); ++k) {
      const double x = h * static_cast<double>(i + k);
      du += c[k - lo].value() * (std::sin(x) + std::cos(2 * x));
    }
    const double x = h * static_cast<double>(i);
    err = std::max(err, std::abs(du / h - (std::cos(x) - 2 * std::sin(2 * x))));
  }
  return err;
}

TEST(FirstDerivative, ConvergesWithItsOrderOnAGridSequence) {
  // n = 32, 64, 128, 256: the observed order log2(e(n) / e(2n)) of each refinement is within 0.25
  // of the design order (the error is far above round-off ~1e-16 / h on every grid).
  struct Case {
    FirstDerivativeScheme scheme;
    int order;
  };
  for (const Case& k : {Case{FirstDerivativeScheme::kCentral, 2}, Case{FirstDerivativeScheme::kCentral, 4},
                        Case{FirstDerivativeScheme::kUpwind, 1}, Case{FirstDerivativeScheme::kUpwind, 2},
                        Case{FirstDerivativeScheme::kUpwind, 3}, Case{FirstDerivativeScheme::kUpwind, 4}})
    for (int sign : {1, -1}) {
      SCOPED_TRACE(::testing::Message() << (k.scheme == FirstDerivativeScheme::kCentral ? "central" : "upwind") << " order "
                                        << k.order << " sign " << sign);
      const core::OffsetRange r = core::first_derivative_offsets(k.scheme, k.order, sign);
      const F c = core::first_derivative_coefficients(r);
      double coarse = derivative_error(c, r.lo, 32);
      for (long n = 64; n <= 256; n *= 2) {
        const double fine = derivative_error(c, r.lo, n);
        EXPECT_GT(fine, 1e-11);
        EXPECT_NEAR(std::log2(coarse / fine), k.order, 0.25) << "n " << n << ": errors " << coarse << " and " << fine;
        coarse = fine;
      }
    }
}

}  // namespace
}  // namespace cartex
