#pragma once
// Stencil-walk distances on a box of cells: how many steps of a stencil S (each step adds one offset
// of S) lead from a source box to each cell. A cell is in source + S^m (the m-fold Minkowski sum,
// S holding its centre) iff its distance is at most m, so one table answers every power of S at once.
// Built by a breadth-first walk that visits each cell once: time and memory linear in the table.
#include <array>
#include <cstdint>
#include <vector>

#include "cartex/core/box.hpp"
#include "cartex/core/stencil.hpp"

namespace cartex::halo {

// Distances (in steps of S, up to a limit) from the cells of `source` to every cell of `region`.
class StepDistance {
 public:
  // Cells of `region` further than `limit` steps (or unreachable) get unreached(). `source` lies inside
  // `region`; `limit` is at most 65534. Throws std::invalid_argument otherwise.
  StepDistance(const core::Box& region, const core::Box& source, const std::vector<core::Offset>& moves, int limit);

  // The distance marker of cells beyond the limit.
  static constexpr std::uint16_t unreached() { return 0xffff; }
  // Steps from the source to cell c (unreached() beyond the limit or outside the region).
  std::uint16_t at(const std::array<long, 3>& c) const {
    for (int d = 0; d < 3; ++d)
      if (c[d] < region_.lo[d] || c[d] >= region_.hi(d)) return unreached();
    return dist_[static_cast<size_t>(((c[2] - region_.lo[2]) * region_.n[1] + (c[1] - region_.lo[1])) * region_.n[0] +
                                     (c[0] - region_.lo[0]))];
  }
  const core::Box& region() const { return region_; }
  // Cells visited by the walk (each once): the work the table took.
  long visited() const { return visited_; }

 private:
  core::Box region_;
  std::vector<std::uint16_t> dist_;
  long visited_ = 0;
};

}  // namespace cartex::halo
