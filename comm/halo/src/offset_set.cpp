#include "cartex/halo/offset_set.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace cartex {

OffsetSet::OffsetSet(const std::vector<Offset>& offsets) {
  if (offsets.empty()) throw std::invalid_argument("OffsetSet: no offsets");
  std::set<Offset> unique(offsets.begin(), offsets.end());
  members_.assign(unique.begin(), unique.end());
  lo_ = hi_ = members_.front();
  for (const auto& o : members_)
    for (int d = 0; d < 3; ++d) lo_[d] = std::min(lo_[d], o[d]), hi_[d] = std::max(hi_[d], o[d]);
  for (int d = 0; d < 3; ++d) n_[d] = hi_[d] - lo_[d] + 1;
  // prefix_(x, y, z) counts members with table coordinates < (x, y, z); size (n+1)^3.
  prefix_.assign((n_[0] + 1) * (n_[1] + 1) * (n_[2] + 1), 0);
  auto idx = [this](long x, long y, long z) { return (z * (n_[1] + 1) + y) * (n_[0] + 1) + x; };
  for (const auto& o : members_) prefix_[idx(o[0] - lo_[0] + 1, o[1] - lo_[1] + 1, o[2] - lo_[2] + 1)] = 1;
  for (long z = 1; z <= n_[2]; ++z)
    for (long y = 1; y <= n_[1]; ++y)
      for (long x = 1; x <= n_[0]; ++x)
        prefix_[idx(x, y, z)] += prefix_[idx(x - 1, y, z)] + prefix_[idx(x, y - 1, z)] + prefix_[idx(x, y, z - 1)] -
                                 prefix_[idx(x - 1, y - 1, z)] - prefix_[idx(x - 1, y, z - 1)] -
                                 prefix_[idx(x, y - 1, z - 1)] + prefix_[idx(x - 1, y - 1, z - 1)];
}

OffsetSet OffsetSet::power(const std::vector<Offset>& stencil, int k) {
  std::set<Offset> sum{{0, 0, 0}};
  for (int step = 0; step < k; ++step) {
    std::set<Offset> next;
    for (const auto& a : sum)
      for (const auto& b : stencil) next.insert({a[0] + b[0], a[1] + b[1], a[2] + b[2]});
    sum.swap(next);
  }
  return OffsetSet(std::vector<Offset>(sum.begin(), sum.end()));
}

long OffsetSet::at(long x, long y, long z) const { return prefix_[(z * (n_[1] + 1) + y) * (n_[0] + 1) + x]; }

bool OffsetSet::any_in(const std::array<long, 3>& lo, const std::array<long, 3>& hi) const {
  std::array<long, 3> a{}, b{};  // half-open table range [a, b)
  for (int d = 0; d < 3; ++d) {
    a[d] = std::max<long>(lo[d], lo_[d]) - lo_[d];
    b[d] = std::min<long>(hi[d], hi_[d]) - lo_[d] + 1;
    if (a[d] >= b[d]) return false;
  }
  const long count = at(b[0], b[1], b[2]) - at(a[0], b[1], b[2]) - at(b[0], a[1], b[2]) - at(b[0], b[1], a[2]) +
                     at(a[0], a[1], b[2]) + at(a[0], b[1], a[2]) + at(b[0], a[1], a[2]) - at(a[0], a[1], a[2]);
  return count > 0;
}

}  // namespace cartex
