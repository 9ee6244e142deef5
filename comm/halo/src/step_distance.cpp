#include "cartex/halo/step_distance.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace cartex::halo {

StepDistance::StepDistance(const core::Box& region, const core::Box& source, const std::vector<core::Offset>& moves, int limit)
    : region_(region) {
  if (limit < 0 || limit >= unreached())
    throw std::invalid_argument(fmt::format("stencil walk of {} steps: at most {} supported", limit, unreached() - 1));
  for (int d = 0; d < 3; ++d)
    if (source.lo[d] < region.lo[d] || source.hi(d) > region.hi(d) || source.n[d] < 1)
      throw std::invalid_argument("stencil walk: the source box must be a non-empty part of the region");
  dist_.assign(static_cast<size_t>(region.cells()), unreached());
  const std::array<long, 3> n = region.n;
  auto index = [&](long x, long y, long z) { return (z * n[1] + y) * n[0] + x; };
  // A move from a source cell further than the stencil's reach from every face stays in the source,
  // so only the source's surface layer starts the walk (the interior is marked 0 but not queued).
  std::array<long, 3> reach{0, 0, 0};
  for (const auto& m : moves)
    for (int d = 0; d < 3; ++d) reach[d] = std::max<long>(reach[d], std::abs(m[d]));
  std::vector<long> frontier, next;
  for (long z = source.lo[2]; z < source.hi(2); ++z)
    for (long y = source.lo[1]; y < source.hi(1); ++y)
      for (long x = source.lo[0]; x < source.hi(0); ++x) {
        const long i = index(x - region.lo[0], y - region.lo[1], z - region.lo[2]);
        dist_[static_cast<size_t>(i)] = 0;
        const std::array<long, 3> c{x, y, z};
        bool surface = false;
        for (int d = 0; d < 3; ++d) surface |= c[d] - source.lo[d] < reach[d] || source.hi(d) - 1 - c[d] < reach[d];
        if (surface) frontier.push_back(i);
      }
  visited_ = source.cells();
  for (int step = 1; step <= limit && !frontier.empty(); ++step) {
    next.clear();
    for (const long i : frontier) {
      const long x = i % n[0], y = (i / n[0]) % n[1], z = i / (n[0] * n[1]);
      for (const auto& m : moves) {
        const long a = x + m[0], b = y + m[1], c = z + m[2];
        if (a < 0 || a >= n[0] || b < 0 || b >= n[1] || c < 0 || c >= n[2]) continue;
        auto& d = dist_[static_cast<size_t>(index(a, b, c))];
        if (d != unreached()) continue;
        d = static_cast<std::uint16_t>(step);
        next.push_back(index(a, b, c));
      }
    }
    visited_ += static_cast<long>(next.size());
    frontier.swap(next);
  }
}

}  // namespace cartex::halo
