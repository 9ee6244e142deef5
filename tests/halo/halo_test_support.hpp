#pragma once
// Shared by the halo tests: stencil shapes of any radius, test cases, the global-index encoding.
#include <array>
#include <string>
#include <vector>

#include "cartex/core/grid.hpp"
#include "cartex/core/stencil.hpp"

namespace cartex::test {

// Value of global cell c: its linear index + 1 (0 never appears; -1 marks untouched cells).
inline double encode(const core::GlobalGrid& g, const std::array<long, 3>& c) {
  return static_cast<double>((c[2] * g.n[1] + c[1]) * g.n[0] + c[0] + 1);
}

// A stencil of the given shape: "star" (axes up to radius r), "box" ([-r, r]^dim), or "upwind"
// (star reaching r cells towards -x and -y only, one cell elsewhere: an asymmetric neighborhood), or
// "down" (star not reaching up the last dimension at all: no halo above), or "skew" (the centre and,
// in each plane of two dimensions, the anti-diagonal (-j, +j), (+j, -j) for j = 1 .. r: corner
// blocks whose cells no face offset of the same side reads).
core::Stencil shaped_stencil(const std::string& shape, int radius, int dim);

// One halo test configuration.
struct Case {
  int dim;
  std::array<long, 3> n;
  std::array<bool, 3> periodic;
  std::string shape;
  int radius;
  int k;

  core::GlobalGrid grid() const;
  core::Stencil stencil() const { return shaped_stencil(shape, radius, dim); }
  std::string describe() const;
};

// The exchange cases run on `ranks` ranks (fewer for the largest rank counts, which run oversubscribed).
std::vector<Case> exchange_cases(int ranks);

}  // namespace cartex::test
