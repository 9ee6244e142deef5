#pragma once
// Where halo cells come from, for any process of a decomposition: the exact halo of a block for a
// stencil S and k steps per exchange, each cell's owner, and the Cartesian neighborhood they form.
//
// Coordinates are "unwrapped": global cell indices continue past the ends of periodic dimensions
// (cell N + 2 is cell 2 of the next period) and so do process coordinates (process P_d + 1 is process
// 1 one period on). A process offset is then a plain difference, even when a halo wraps around a
// small periodic grid several times, and every process computes the same offsets.
//
//   exact halo of block B (2D, star stencil, k = 2; '#' halo cells, the triangular corners are the
//   cells reachable in two steps, EuroMPI'15 Figure 1):
//
//                 . . # # . .
//                 . # # # # .          H = (B + S^k) \ B,  S^k the k-fold Minkowski sum of S
//                 # # B B # #
//                 # # B B # #
//                 . # # # # .
//                 . . # # . .
//
// S is taken with its centre point (S u {0}); for stencils that have it, as every Laplacian does,
// that changes nothing. S^m is never formed point set by point set: one stencil walk from a block
// (StepDistance) gives every B + S^m, so building the geometry costs time and memory linear in the
// halo's bounding box.
#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "cartex/core/decomposition.hpp"
#include "cartex/core/stencil.hpp"
#include "cartex/halo/step_distance.hpp"

namespace cartex::halo {

// Unwrapped process coordinates.
using ProcCoord = std::array<long, 3>;

// The halo widths of k steps per exchange of S: k times the reach of S (0 in the grid's unused dimensions).
core::HaloWidths halo_widths(const core::GlobalGrid& grid, const core::Stencil& stencil, long k);

// A stencil must fit the grid: its reach in each dimension at most the grid's cells there. Throws
// std::invalid_argument naming the dimension otherwise (then no number of steps per exchange works).
void check_stencil_fits(const core::GlobalGrid& grid, const core::Stencil& stencil);

// The most steps per exchange the grid can serve with S: a halo may not be deeper than the grid in any
// dimension. Throws std::invalid_argument saying the limit if k is beyond it (or below 1).
void check_halo_depth(const core::GlobalGrid& grid, const core::Stencil& stencil, long k);

// Halo geometry of a decomposition for stencil S with k steps per exchange.
class HaloGeometry {
 public:
  // Throws std::invalid_argument as check_halo_depth does.
  HaloGeometry(const core::Decomposition& decomp, const core::Stencil& stencil, int k);
  // The geometry of k <= deeper.steps() steps per exchange, sharing the deeper one's walk tables (a
  // walk to k' steps answers every power up to k'): only the neighborhood is computed. Throws
  // std::invalid_argument for k outside 1 .. deeper.steps().
  HaloGeometry(const HaloGeometry& deeper, int k);

  const core::Decomposition& decomposition() const { return decomp_; }
  int steps() const { return k_; }
  // The reach of the stencil itself (one step), for the overlap split of the first step.
  const core::HaloWidths& stencil_reach() const { return stencil_reach_; }
  // Stencil-walk cells visited while building the geometry: its set-up work, linear in the halo.
  long walk_cells() const { return reach_->visited() + block_walk_->visited(); }
  // Halo widths: the reach of S^k on each side (0 in unused dimensions).
  const core::HaloWidths& widths() const { return widths_; }

  // Unwrapped process coordinate owning unwrapped cell g along d; false outside a non-periodic domain.
  bool owner(int d, long g, long* pc) const;
  // Box of the process at unwrapped coordinates pc, in unwrapped cell coordinates.
  core::Box box(const ProcCoord& pc) const;
  // True if cell c lies in box b dilated by S^m: c - o in b for some o in S^m.
  bool in_dilation(const core::Box& b, const std::array<long, 3>& c, int m) const { return dilation_level(b, c) <= m; }
  // The smallest m with c in b + S^m (0 inside b; StepDistance::unreached() beyond k steps).
  int dilation_level(const core::Box& b, const std::array<long, 3>& c) const;

  // Calls f(cell, owner_offset) for every cell of the halo of process pc that has an owner (cells
  // outside a non-periodic domain are boundary cells, not visited), in z, y, x order.
  template <class F>
  void for_each_halo_cell(const ProcCoord& pc, F&& f) const {
    for_each_halo_cell_in(pc, halo_bounds(pc), f);
  }
  // The same for the halo cells inside `clip` only (in z, y, x order too): a sender lists what one
  // neighbor gets from it by clipping to its own block, without visiting the neighbor's whole halo.
  template <class F>
  void for_each_halo_cell_in(const ProcCoord& pc, const core::Box& clip, F&& f) const {
    const core::Box b = box(pc), h = halo_bounds(pc);
    std::array<long, 3> lo{}, hi{}, c{}, own{};
    for (int d = 0; d < 3; ++d) lo[d] = std::max(h.lo[d], clip.lo[d]), hi[d] = std::min(h.hi(d), clip.hi(d));
    for (c[2] = lo[2]; c[2] < hi[2]; ++c[2]) {
      if (!owner(2, c[2], &own[2])) continue;
      for (c[1] = lo[1]; c[1] < hi[1]; ++c[1]) {
        if (!owner(1, c[1], &own[1])) continue;
        // Lines through the block: skip its cells.
        const bool through = c[1] >= b.lo[1] && c[1] < b.hi(1) && c[2] >= b.lo[2] && c[2] < b.hi(2);
        for (c[0] = lo[0]; c[0] < hi[0]; ++c[0]) {
          if (through && c[0] >= b.lo[0] && c[0] < b.hi(0)) c[0] = b.hi(0);
          if (c[0] >= hi[0]) break;
          if (b.contains(c) || !in_dilation(b, c, k_) || !owner(0, c[0], &own[0])) continue;
          f(c, core::Offset{static_cast<int>(own[0] - pc[0]), static_cast<int>(own[1] - pc[1]), static_cast<int>(own[2] - pc[2])});
        }
      }
    }
  }
  // The bounding box of the block of process pc with its halo.
  core::Box halo_bounds(const ProcCoord& pc) const {
    core::Box h = box(pc);
    for (int d = 0; d < 3; ++d) h.lo[d] -= widths_.lo[d], h.n[d] += widths_.lo[d] + widths_.hi[d];
    return h;
  }

  // The owner offsets that some process's halo uses, sorted (z, y, x); the same on every rank.
  const std::vector<core::Offset>& owner_offsets() const { return owner_offsets_; }

 private:
  std::vector<core::Offset> compute_owner_offsets() const;

  core::Decomposition decomp_;
  int k_;
  core::HaloWidths stencil_reach_;
  core::HaloWidths widths_;
  std::array<long, 3> smallest_block_{};  // every block is this one grown by 0 or more cells per side
  // Shared with the shallower geometries made from this one (immutable once built).
  std::shared_ptr<const StepDistance> reach_;       // S^m = cells within m steps of the origin, over the bounding box of S^k
  std::shared_ptr<const StepDistance> block_walk_;  // B + S^m for the smallest block B, over its halo (and larger blocks')
  std::vector<core::Offset> owner_offsets_;
};

}  // namespace cartex::halo
