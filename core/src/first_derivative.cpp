#include "cartex/core/first_derivative.hpp"

#include <numeric>
#include <stdexcept>
#include <string>

namespace cartex::core {

namespace {

// Exact fraction arithmetic in lowest terms; the stencils here keep every product far inside a long.
Fraction reduced(long num, long den) {
  if (den < 0) num = -num, den = -den;
  const long g = std::gcd(num, den);
  return g == 0 ? Fraction{0, 1} : Fraction{num / g, den / g};
}
Fraction operator+(Fraction a, Fraction b) { return reduced(a.num * b.den + b.num * a.den, a.den * b.den); }
Fraction operator*(Fraction a, Fraction b) { return reduced(a.num * b.num, a.den * b.den); }

}  // namespace

OffsetRange first_derivative_offsets(FirstDerivativeScheme scheme, int order, int velocity_sign) {
  if (velocity_sign != 1 && velocity_sign != -1)
    throw std::invalid_argument("first_derivative_offsets: velocity_sign " + std::to_string(velocity_sign) + " is not +1 or -1");
  if (scheme == FirstDerivativeScheme::kCentral) {
    if (order != 2 && order != 4)
      throw std::invalid_argument("first_derivative_offsets: central order " + std::to_string(order) + " is not 2 or 4");
    return {-order / 2, order / 2};
  }
  if (order < 1 || order > 4)
    throw std::invalid_argument("first_derivative_offsets: upwind order " + std::to_string(order) + " is not 1, 2, 3 or 4");
  const int hi = (order - 1) / 2;  // one point downwind from order 3 on: the biased schemes stay stable
  const OffsetRange r{hi - order, hi};
  return velocity_sign > 0 ? r : OffsetRange{-r.hi, -r.lo};
}

std::vector<Fraction> first_derivative_coefficients(OffsetRange r) {
  if (r.lo > 0 || r.hi < 0 || r.lo >= r.hi || r.hi - r.lo > 8)
    throw std::invalid_argument("first_derivative_coefficients: offsets " + std::to_string(r.lo) + ".." +
                                std::to_string(r.hi) + " are not lo <= 0 <= hi with 1 <= hi - lo <= 8");
  // c_k = l_k'(0) for the Lagrange basis polynomial l_k(x) = prod_{j != k} (x - j) / (k - j) of the
  // nodes lo..hi: the derivative of the interpolant is exact for degree <= hi - lo, which is exactly
  // the Taylor conditions. l_k'(0) = sum_{m != k} 1/(k - m) prod_{j != k, m} (0 - j)/(k - j).
  std::vector<Fraction> c;
  for (int k = r.lo; k <= r.hi; ++k) {
    Fraction sum{0, 1};
    for (int m = r.lo; m <= r.hi; ++m) {
      if (m == k) continue;
      Fraction term = reduced(1, k - m);
      for (int j = r.lo; j <= r.hi; ++j)
        if (j != k && j != m) term = term * reduced(-j, k - j);
      sum = sum + term;
    }
    c.push_back(sum);
  }
  return c;
}

}  // namespace cartex::core
