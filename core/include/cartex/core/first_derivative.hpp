#pragma once
// Exact first-derivative stencils in 1D for unit spacing: the weights c_k of
//   u'(0) ~ sum_{k = lo..hi} c_k u(k)
// that are exact for every polynomial of degree <= hi - lo (the Taylor conditions
// sum_k c_k k^m = [m == 1], m = 0..hi-lo), as fractions, so each weight rounds once. The schemes
// advection uses (docs/stencils.md):
//
//   scheme    order  offsets (velocity > 0)   weights
//   central   2      -1..1                    -1/2, 0, 1/2
//   central   4      -2..2                    1/12, -2/3, 0, 2/3, -1/12
//   upwind    1      -1..0                    -1, 1
//   upwind    2      -2..0                    1/2, -2, 3/2
//   upwind    3      -2..1                    1/6, -1, 1/2, 1/3
//   upwind    4      -3..1                    -1/12, 1/2, -3/2, 5/6, 1/4
//
// Upwind stencils lean against the flow: for a negative velocity the offsets are mirrored (-hi..-lo)
// and the weights mirrored with their signs flipped.
#include <vector>

#include "cartex/core/stencil.hpp"

namespace cartex::core {

// The offsets lo..hi of a 1D stencil (lo <= 0 <= hi).
struct OffsetRange {
  int lo = 0;
  int hi = 0;
  friend bool operator==(const OffsetRange& a, const OffsetRange& b) { return a.lo == b.lo && a.hi == b.hi; }
};

enum class FirstDerivativeScheme { kCentral, kUpwind };

// The offsets of `scheme` of `order` (central: 2 or 4; upwind: 1..4) for a velocity of sign
// `velocity_sign` (+1 or -1; central ignores it). Throws std::invalid_argument for other orders.
OffsetRange first_derivative_offsets(FirstDerivativeScheme scheme, int order, int velocity_sign = 1);

// The weights for the offsets lo..hi ([i] belongs to offset lo + i), the unique ones of order
// hi - lo. Throws std::invalid_argument unless lo <= 0 <= hi, lo < hi and hi - lo <= 8.
std::vector<Fraction> first_derivative_coefficients(OffsetRange offsets);

}  // namespace cartex::core
