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
// that changes nothing.
#include <array>
#include <vector>

#include "cartex/core/decomposition.hpp"
#include "cartex/core/stencil.hpp"
#include "cartex/halo/offset_set.hpp"

namespace cartex {

// Unwrapped process coordinates.
using ProcCoord = std::array<long, 3>;

// Halo geometry of a decomposition for stencil S with k steps per exchange.
class HaloGeometry {
 public:
  // Throws std::invalid_argument if k < 1 or the halo is deeper than a periodic grid dimension.
  HaloGeometry(const Decomposition& decomp, const Stencil& stencil, int k);

  const Decomposition& decomposition() const { return decomp_; }
  int steps() const { return k_; }
  // (S u {0})^m for m = 0 .. k.
  const OffsetSet& power(int m) const { return powers_.at(m); }
  // Halo widths: the reach of S^k on each side (0 in unused dimensions).
  const HaloWidths& widths() const { return widths_; }

  // Unwrapped process coordinate owning unwrapped cell g along d; false outside a non-periodic domain.
  bool owner(int d, long g, long* pc) const;
  // Box of the process at unwrapped coordinates pc, in unwrapped cell coordinates.
  Box box(const ProcCoord& pc) const;
  // True if cell c lies in box b dilated by S^m: c - o in b for some o in S^m.
  bool in_dilation(const Box& b, const std::array<long, 3>& c, int m) const;

  // Calls f(cell, owner_offset) for every cell of the halo of process pc that has an owner (cells
  // outside a non-periodic domain are boundary cells, not visited), in z, y, x order.
  template <class F>
  void for_each_halo_cell(const ProcCoord& pc, F&& f) const {
    const Box b = box(pc);
    std::array<long, 3> c{}, own{};
    for (c[2] = b.lo[2] - widths_.lo[2]; c[2] < b.hi(2) + widths_.hi[2]; ++c[2])
      for (c[1] = b.lo[1] - widths_.lo[1]; c[1] < b.hi(1) + widths_.hi[1]; ++c[1]) {
        // Lines through the block: skip its cells.
        const bool through = c[1] >= b.lo[1] && c[1] < b.hi(1) && c[2] >= b.lo[2] && c[2] < b.hi(2);
        for (c[0] = b.lo[0] - widths_.lo[0]; c[0] < b.hi(0) + widths_.hi[0]; ++c[0]) {
          if (through && c[0] == b.lo[0]) c[0] = b.hi(0);
          if (c[0] >= b.hi(0) + widths_.hi[0]) break;
          if (b.contains(c) || !in_dilation(b, c, k_)) continue;
          if (!owner(0, c[0], &own[0]) || !owner(1, c[1], &own[1]) || !owner(2, c[2], &own[2])) continue;
          f(c, Offset{static_cast<int>(own[0] - pc[0]), static_cast<int>(own[1] - pc[1]), static_cast<int>(own[2] - pc[2])});
        }
      }
  }

  // The owner offsets that some process's halo uses, sorted (z, y, x); the same on every rank.
  const std::vector<Offset>& owner_offsets() const { return owner_offsets_; }

 private:
  std::vector<Offset> compute_owner_offsets() const;

  Decomposition decomp_;
  int k_;
  std::vector<OffsetSet> powers_;
  HaloWidths widths_;
  std::vector<Offset> owner_offsets_;
};

}  // namespace cartex
