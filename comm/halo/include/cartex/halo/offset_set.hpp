#pragma once
// A finite set of relative cell offsets (a stencil or its k-fold Minkowski sum) that answers
// "does the set contain an offset inside this box?" in O(1) with a summed-volume table.
#include <array>
#include <vector>

#include "cartex/core/stencil.hpp"

namespace cartex {

// A set of offsets within the bounding box [lo, hi] (inclusive) of its members.
class OffsetSet {
 public:
  // The set of the given offsets (duplicates allowed); at least one offset.
  explicit OffsetSet(const std::vector<Offset>& offsets);
  // The k-fold Minkowski sum S + S + ... + S of the stencil's offsets; k = 0 gives {0}.
  static OffsetSet power(const std::vector<Offset>& stencil, int k);

  // True if some member o has lo[d] <= o[d] <= hi[d] in every dimension.
  bool any_in(const std::array<long, 3>& lo, const std::array<long, 3>& hi) const;
  // Smallest and largest member coordinate per dimension.
  const std::array<int, 3>& lo() const { return lo_; }
  const std::array<int, 3>& hi() const { return hi_; }
  // The members, sorted and without duplicates.
  const std::vector<Offset>& members() const { return members_; }

 private:
  long at(long x, long y, long z) const;  // prefix count of members <= (x, y, z) in table coordinates

  std::vector<Offset> members_;
  std::array<int, 3> lo_{}, hi_{};
  std::array<long, 3> n_{};
  std::vector<long> prefix_;  // (n+1)^3 summed-volume table
};

}  // namespace cartex
