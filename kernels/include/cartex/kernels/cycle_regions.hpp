#pragma once
// The cells that each step of a deep-halo cycle updates (step j of k: the block dilated k - j times by
// the stencil, cartex/halo/pattern.hpp), and temporal blocking: how the host advances several steps of a
// cycle in one pass over memory, each tile's working set in cache.
//
// Scheme: skewed tiles in y, a wavefront over z inside each tile. Step t (t = 1 .. n of the pass)
// reads buffer (t - 1) % 2 and writes buffer t % 2 in place, exactly the cells and the kernel calls
// of the n single steps; only the order of the (line, step) calls changes. A tile is a band of
// tile_y rows in y, shifted left by ry (the stencil's reach in y) per step; tiles run one after the
// other in y. Inside a tile, stage s updates plane s of step 1, plane s - rz of step 2, ..., so each
// step trails the one before it by the stencil's reach in z:
//
//   rows y ->  0       8       16      24      31      tile_y = 8, ry = 1, k = 3: tile i of step t
//   step 3     00000011111111222222223333333333       covers rows [8 i - (t - 1), 8 (i + 1) - (t - 1))
//   step 2     00000001111111122222222333333333       (tile 0 from row 0, the last to the end);
//   step 1     00000000111111112222222233333333       tiles run in the order 0, 1, 2, 3
//
//   inside a tile, stage s = 0, 1, ...:  step 1 updates plane z = s, step 2 plane s - rz,
//   step 3 plane s - 2 rz (planes outside the view skipped): a window of about k rz + 2 planes
//   per field is live, and each plane is read from memory once per pass.
//
// Why this and not the alternatives: overlapped (trapezoid) tiles recompute the tile borders every
// step (redundant work on top of the deep halo's own) and need private buffers; diamonds avoid
// redundancy but need a parallel schedule and per-diamond bookkeeping. Skewed tiles run in order
// compute every (cell, step) once, in place in the two fields the single steps use, so the result
// (every cell of both fields, ghosts included) is bitwise that of the single steps: a (cell, step)
// reads only values the single steps would give it, because
//   - step t at (y, z) needs step t - 1 at y' <= y + ry, z' <= z + rz: an earlier tile, or an
//     earlier stage / step of the same tile;
//   - step t + 1 overwrites step t - 1 at (y, z) only after every step-t cell that reads it is done
//     (the same two inequalities, reversed).
// The working set of a tile is about (k + 2) planes of (tile_y + k ry) rows of both fields. Between
// cycles nothing changes: the halo exchange refreshes the ghosts as before. Walls whose ghost cells
// follow the interior or time (kernels/boundary.hpp) are filled inside the pass after each (tile,
// stage, step), in the whole-view refresh's order (stencil_update.cpp, docs/boundaries.md). The pass runs on all host
// threads of the rank: each (tile, stage, step) is a plane of rows that read one buffer and write the
// other, so the threads split its rows and meet at a barrier before the next (a thread keeps about the
// same rows all pass long, so its share of the working set stays in its core's L2). There is no
// blocked device kernel: on devices (and for updates without a blocked kernel) the steps run one
// launch after the other, bitwise the same.
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cartex/core/box.hpp"
#include "cartex/core/config.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/stencil.hpp"
#include "cartex/kernels/cell_region.hpp"

namespace cartex::kernels {

class PassWalls;  // boundary.hpp

// Called between the tiles of a blocked pass (or the steps of an unblocked one) on the calling host
// thread, with the fields consistent up to the finished tiles: the stepper advances its halo exchange
// there (HaloPlan::progress). Empty: nothing is called.
using BetweenTiles = std::function<void()>;

// What a call of apply_steps leaves in the ghost cells of a periodic dimension on one process after
// its last step, drawn on one plane (z) of the block:
//
//        x:  lo       block        hi
//          | G G | c c c c c c c c | G G |   ghost rows in y (the view's whole y halo): kXY only
//          | g g | o o o o o o o o | g g |   o: the block's cells
//          | g g | o o o o o o o o | g g |   g: kX and kXY, the cell n_x to its right (low side) or
//          | G G | c c c c c c c c | G G |      left (high side) in the same row
//                                            c, G: the whole row n_y away in y, its g included
//
//   kAsComputed  whatever the steps computed or left there
//   kX           every g over the view's whole x halo of every block row holds its periodic image
//   kXY          kX, and every ghost row in y of the block's planes (view's whole y halo, x ghosts
//                included) holds its periodic image; no refreshed walls (they would mirror the
//                rows before this fills them)
// For x (and y) periodic on one process, where the halo exchange would copy the same values
// (HaloPlan::expect_filled_ghosts): a blocked pass writes a row's g right after computing it and a
// plane's ghost rows right after its last tile's last step, while they are in cache, and the
// exchange's self copy then skips them (issue 40). Needs n_x (n_y) at least the view's x (y) halo on
// either side.
enum class PeriodicGhosts { kAsComputed, kX, kXY };

// Sets the x ghosts of every row of f's block to their periodic images (PeriodicGhosts::kX): one
// Kokkos kernel, no fence. Throws cartex::core::Error if the block is narrower than the x halo.
void fill_periodic_x(core::Field& f);
// Sets the ghost rows in y of every plane of f's block, x ghosts included, to their periodic images
// (the rest of PeriodicGhosts::kXY, after fill_periodic_x): one Kokkos kernel, no fence. Throws
// cartex::core::Error if the block is shorter than the y halo.
void fill_periodic_y(core::Field& f);

// How the host sweeps the steps of a cycle: one step at a time (tile_y = 0) or in tiles of tile_y rows.
struct TemporalTiling {
  long tile_y = 0;
};

// Host threads a blocked pass runs on: every thread of the default host execution space.
int blocked_pass_threads();

// What auto's tile heights are made of: a view's rows in y and the host threads of a blocked pass. A
// run gives every rank the largest of each over its ranks (apps/driver/src/setup.cpp): on an uneven
// split the ranks' own rows differ, and candidates made from them would send the ranks on different
// searches to different collectives. A tile taller than a rank's view is one tile there.
struct TileBasis {
  long rows = 1;
  int threads = 1;
  static TileBasis of(const core::FieldLayout& layout) { return {std::max(1L, layout.extent(1)), blocked_pass_threads()}; }
};

// halo.temporal_blocking: auto's candidate tile heights, in the order its search walks them: 8, 16,
// 32, ... rows per host thread times the threads of a blocked pass, below the view's rows, then all
// rows of the view. No cache size decides: a guest may report its host's (apps/driver/src/auto_stepper.hpp
// measures the candidates on the run's own cycles).
std::vector<long> tile_candidates(const TileBasis& basis);
// Where auto's search starts, and the tile of a run too short to measure: 32 rows per thread (the
// view's rows at most), a middle candidate (docs/performance.md, "Automatic choices").
long default_tile_y(const TileBasis& basis);

// The tiling halo.temporal_blocking asks for with k steps per exchange, and why. auto blocks where it
// can win: k >= 2, an update with a blocked kernel (`blocked_kernel`) and a host execution space (any
// number of threads), with default_tile_y() until a measurement replaces it; else off. Explicit tiles
// are used as given (with an update without a blocked kernel the steps still run one by one).
TemporalTiling resolve_tiling(const core::TemporalBlockingInput& input, const TileBasis& basis, int k, bool blocked_kernel,
                              std::string& why);

// The cells of steps 1 .. k of a cycle, for the device (CellRegion) and, when blocked, by line on the host.
class CycleRegions {
 public:
  // steps[j - 1]: the runs step j updates (view indices of `layout`, in z, y, x order).
  // `wall_rows` {first, last} (Boundary::pass_rows): rows a pass keeps in its first and its last tile
  // at every step (refreshed y walls' ghost rows and their mirrors): the first tile grows by what
  // tile_y lacks for them after k - 1 skews, a last tile that starts above the last rows merges into
  // the one before it; the other tiles keep tile_y rows.
  //
  //   rows y ->  0                                         ey    tile boundaries at step q (0-based):
  //   tiles      [ first: tile_y + grow ][ tile_y ] ... [ last ]  b(i) = i tile_y + grow - q ry
  CycleRegions(const core::FieldLayout& layout, const core::Stencil& stencil, const std::vector<std::vector<core::LineRun>>& steps,
               TemporalTiling tiling, std::array<long, 2> wall_rows = {0, 0});

  // The cells of blocked `whole`'s step j inside keep[j - 1] (a box of view indices within the view), in the same
  // tiles: the inner pass of an overlapped cycle (halo::split_cycle) from the cycle's own lists.
  CycleRegions(const CycleRegions& whole, const std::vector<core::Box>& keep);

  // Blocked `other`'s steps in tiles of tiling.tile_y > 0 rows (wall_rows as above): the lines do not
  // depend on the tile height, so auto's tile walk retiles a cycle without sorting its runs again.
  CycleRegions(const CycleRegions& other, TemporalTiling tiling, std::array<long, 2> wall_rows);

  int steps() const { return static_cast<int>(step_cells_.size()); }
  // Step j's cells for a sweep of the step alone. A blocked cycle's passes walk the host lines
  // instead, so there it is made on first use (a run's calibration, a step outside a pass): a
  // blocked cycle does not hold a second copy of its regions it may never sweep (issue 40).
  const CellRegion& cells(int j) const;
  const core::FieldLayout& layout() const { return layout_; }
  const TemporalTiling& tiling() const { return tiling_; }
  long reach_y() const { return ry_; }
  long reach_z() const { return rz_; }
  // Blocked: the tiles of a pass, and tile i's rows [tile_begin, tile_end) at its step q (0-based).
  long tiles() const { return tiles_; }
  long tile_begin(long i, int q) const { return i == 0 ? 0 : std::max(0L, bound(i) - q * ry_); }
  long tile_end(long i, int q) const { return i == tiles_ - 1 ? layout_.extent(1) : std::min(layout_.extent(1), bound(i + 1) - q * ry_); }
  // Step j's runs on view line (y, z): [first, last) index into run_x / run_length; run r starts
  // run_x(j, r) cells into its line.
  long line_first(int j, long y, long z) const { return lines_[j - 1][z * layout_.extent(1) + y]; }
  long line_last(int j, long y, long z) const { return lines_[j - 1][z * layout_.extent(1) + y + 1]; }
  long run_x(int j, long r) const { return runs_[j - 1][r].x; }
  long run_length(int j, long r) const { return runs_[j - 1][r].length; }
  // Cell updates of a whole cycle beyond k updates of the block (the deep halo's ghost updates), as a
  // fraction of k updates of the block.
  double redundant_fraction() const;
  // Modelled memory traffic per block cell-update of a cycle run in passes of `steps` steps: each pass
  // streams both fields once (read, write-allocate, write back: 32 B per view cell), a tile rereads
  // the (steps + 1) ry rows its skewed edge shares with the next one; untiled, each step moves 24 B
  // per updated cell (read u, write-allocate and write back u').
  double bytes_per_update(int steps) const;
  // The same for the steps one at a time.
  double unblocked_bytes_per_update() const { return 24.0 * (1.0 + redundant_fraction()); }
  // "tiles of 36 rows in y x all z (wavefront, 8 tiles)", or "off".
  std::string describe() const;

 private:
  core::FieldLayout layout_;
  TemporalTiling tiling_;
  long ry_ = 0, rz_ = 0;
  long grow_ = 0, tiles_ = 0;  // blocked: rows the first tile has beyond tile_y; the tiles of a pass
  long bound(long i) const { return i * tiling_.tile_y + grow_; }
  // grow_ and tiles_ for tiling_ and wall_rows, the runs of `steps` steps.
  void make_tiles(int steps, std::array<long, 2> wall_rows);
  std::vector<long> step_cells_;                          // per step: cells updated
  mutable std::vector<std::optional<CellRegion>> cells_;  // per step; blocked: made on first use
  // Host, blocked only, kept for the whole run: 4 B a line and 8 B a run (a third of the view indices
  // they replace, issue 40); a step has fewer runs than 2^32, a line fewer cells than 2^31.
  struct Span {
    std::int32_t x, length;  // cells from the line's start
  };
  std::vector<std::vector<std::uint32_t>> lines_;  // per step, per view line its first run
  std::vector<std::vector<Span>> runs_;             // per step, the runs in line order
};

}  // namespace cartex::kernels
