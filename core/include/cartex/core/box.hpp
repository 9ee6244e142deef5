#pragma once
// Integer boxes in global or local cell coordinates, in x, y, z order.
#include <array>

namespace cartex::core {

// Half-open box [lo, lo + n) per dimension.
struct Box {
  std::array<long, 3> lo{0, 0, 0};
  std::array<long, 3> n{0, 0, 0};

  long hi(int d) const { return lo[d] + n[d]; }
  long cells() const { return n[0] * n[1] * n[2]; }
  bool empty() const { return n[0] <= 0 || n[1] <= 0 || n[2] <= 0; }
  bool contains(const std::array<long, 3>& p) const {
    for (int d = 0; d < 3; ++d)
      if (p[d] < lo[d] || p[d] >= hi(d)) return false;
    return true;
  }
  friend bool operator==(const Box& a, const Box& b) { return a.lo == b.lo && a.n == b.n; }
};

}  // namespace cartex::core
