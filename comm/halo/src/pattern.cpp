#include "cartex/halo/pattern.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "cartex/core/error.hpp"

namespace cartex::halo {

namespace {

// View index of unwrapped cell c for the process whose unwrapped box is `b` (same frame).
long view_of(const core::FieldLayout& l, const core::Box& b, const std::array<long, 3>& c) {
  return linear_index(l, c[0] - b.lo[0] + l.halo.lo[0], c[1] - b.lo[1] + l.halo.lo[1], c[2] - b.lo[2] + l.halo.lo[2]);
}

// Appends `length` view cells from `index` on to runs, extending the last run when contiguous.
void append(std::vector<core::LineRun>& runs, long index, long length = 1) {
  if (!runs.empty() && runs.back().start + runs.back().length == index)
    runs.back().length += length;
  else
    runs.push_back({index, length});
}

// One sweep of the geometry's halo region around the block `mine` (in the rank's own unwrapped frame,
// laid out in view `l`), in z, y, x order, for the update regions of every step at once: a cell of
// dilation level m (the smallest m with it in mine + S^m, EuroMPI'15 section 2) is updated by steps
// 1 .. k - m. The block's cells on a line (level 0) go to `segment(c, at, n)` as one run (c its first
// cell, `at` its view index); every other cell of level <= k - 1 inside the domain (walls bound it)
// goes to `cell(c, at, m)`. Each cell's level is looked up once (set-up time, docs/performance.md).
template <class Segment, class Cell>
void sweep_regions(const HaloGeometry& geo, const core::FieldLayout& l, const core::Box& mine, Segment&& segment, Cell&& cell) {
  const core::GlobalGrid& grid = geo.decomposition().grid();
  const core::HaloWidths& w = geo.widths();
  const int k = geo.steps();
  const auto in_domain = [&](const std::array<long, 3>& c) {
    for (int d = 0; d < 3; ++d)
      if (!grid.periodic[d] && (c[d] < 0 || c[d] >= grid.n[d])) return false;
    return true;
  };
  std::array<long, 3> c{};
  for (c[2] = mine.lo[2] - w.lo[2]; c[2] < mine.hi(2) + w.hi[2]; ++c[2])
    for (c[1] = mine.lo[1] - w.lo[1]; c[1] < mine.hi(1) + w.hi[1]; ++c[1]) {
      const bool through = !mine.empty() && c[1] >= mine.lo[1] && c[1] < mine.hi(1) && c[2] >= mine.lo[2] && c[2] < mine.hi(2);
      for (c[0] = mine.lo[0] - w.lo[0]; c[0] < mine.hi(0) + w.hi[0]; ++c[0]) {
        if (through && c[0] == mine.lo[0]) {
          segment(c, view_of(l, mine, c), mine.n[0]);
          c[0] = mine.hi(0) - 1;
          continue;
        }
        const int level = geo.dilation_level(mine, c);
        if (level < k && in_domain(c)) cell(c, view_of(l, mine, c), level);
      }
    }
}

// Splits the block segment of n cells from c (view index at) between `in` (its cells inside `box`, a
// box within the block) and `out`.
void split_segment(const core::Box& box, const std::array<long, 3>& c, long at, long n, std::vector<core::LineRun>& in,
                   std::vector<core::LineRun>& out) {
  const bool through = !box.empty() && c[1] >= box.lo[1] && c[1] < box.hi(1) && c[2] >= box.lo[2] && c[2] < box.hi(2);
  if (!through) return append(out, at, n);
  const long before = box.lo[0] - c[0], inside = box.n[0], after = n - before - inside;
  if (before > 0) append(out, at, before);
  append(in, at + before, inside);
  if (after > 0) append(out, at + before + inside, after);
}

}  // namespace

HaloPattern exchange_part(const HaloPattern& p) {
  HaloPattern out;
  out.rank = p.rank;
  out.layout = p.layout;
  out.blocks = p.blocks;
  return out;
}

std::vector<BlockPart> HaloPattern::sends() const {
  std::vector<BlockPart> out;
  for (size_t i = 0; i < blocks.size(); ++i)
    if (blocks[i].target != MPI_PROC_NULL) out.push_back({static_cast<int>(i), blocks[i].target, &blocks[i].send});
  return out;
}

std::vector<BlockPart> HaloPattern::recvs() const {
  std::vector<BlockPart> out;
  for (size_t i = 0; i < blocks.size(); ++i)
    if (blocks[i].source != MPI_PROC_NULL) out.push_back({static_cast<int>(i), blocks[i].source, &blocks[i].recv});
  return out;
}

long HaloPattern::send_cells() const {
  long n = 0;
  for (const auto& s : sends()) n += static_cast<long>(s.cells->size());
  return n;
}

long HaloPattern::send_messages() const {
  long n = 0;
  for (const auto& s : sends()) n += !s.cells->empty();
  return n;
}

HaloPattern make_halo_pattern(const HaloGeometry& geo, int rank) { return make_halo_pattern(geo, rank, geo.widths()); }

HaloPattern make_halo_pattern(const HaloGeometry& geo, int rank, const core::HaloWidths& view_halo) {
  const core::Decomposition& decomp = geo.decomposition();
  const core::ProcessGrid& pg = decomp.procs();
  const core::GlobalGrid& grid = decomp.grid();
  const int k = geo.steps();
  for (int d = 0; d < 3; ++d)
    core::require(view_halo.lo[d] >= geo.widths().lo[d] && view_halo.hi[d] >= geo.widths().hi[d],
                  "make_halo_pattern: the view's halo is narrower than the geometry's");
  HaloPattern p;
  p.rank = rank;
  p.layout.box = decomp.box(rank);
  p.layout.halo = view_halo;
  const auto me_int = pg.coords(rank);
  const ProcCoord me{me_int[0], me_int[1], me_int[2]};

  // Neighborhood: minus the owner offsets; index of each owner offset.
  std::map<core::Offset, int> block_of_owner;
  auto rank_at = [&](const core::Offset& s) {
    std::array<int, 3> c{};
    for (int d = 0; d < 3; ++d) {
      const long x = me[d] + s[d], P = pg.dims[d];
      if ((x < 0 || x >= P) && !grid.periodic[d]) return MPI_PROC_NULL;
      c[d] = static_cast<int>(((x % P) + P) % P);
    }
    return pg.rank(c);
  };
  for (const auto& o : geo.owner_offsets()) {
    block_of_owner[o] = static_cast<int>(p.blocks.size());
    Block b;
    b.offset = {-o[0], -o[1], -o[2]};
    b.target = rank_at(b.offset);
    b.source = rank_at(o);
    p.blocks.push_back(std::move(b));
  }

  // Receive: our halo cells by owner offset.
  const core::Box mine = geo.box(me);
  geo.for_each_halo_cell(me, [&](const std::array<long, 3>& c, const core::Offset& own) {
    p.blocks[block_of_owner.at(own)].recv.push_back(view_of(p.layout, mine, c));
  });
  // Send: the cells of target i's halo that it gets from us (owner offset = offset i seen from it),
  // found inside our block only (unwrapped, the target's owner at `back` is our block).
  for (Block& b : p.blocks) {
    if (b.target == MPI_PROC_NULL) continue;
    const ProcCoord tc{me[0] + b.offset[0], me[1] + b.offset[1], me[2] + b.offset[2]};
    const core::Offset back{-b.offset[0], -b.offset[1], -b.offset[2]};
    geo.for_each_halo_cell_in(tc, mine, [&](const std::array<long, 3>& c, const core::Offset& own) {
      if (own == back) b.send.push_back(view_of(p.layout, mine, c));
    });
  }
  for (Block& b : p.blocks)
    if (b.source == MPI_PROC_NULL) b.recv.clear();

  // Update regions: step j updates B + S^(k-j) inside the domain. Overlap split of step 1: a cell is
  // inner if it reads no halo cell the exchange writes, i.e. (the block being a box) if it sits at
  // least the stencil's reach away from every face whose halo is received. The exchange never writes
  // the ghost cells beyond a non-periodic global face: they hold fixed values, or values the boundary
  // refreshes after every step from the block's own cells (Neumann, exact: kernels/boundary.hpp; the
  // ghosts an inner cell reads lie beside the block, so they are current when the exchange starts; the
  // stepper then uses `inner`, not `remote_inner`, whose cells may read ghosts beside a self-copied
  // halo), so a face on a wall keeps its cells inner (and the rim holds no strided single cells there). Against the remote halo
  // only, a face of a periodic dimension of one process (its halo comes from this rank itself) keeps
  // its cells inner too. Cells outside the block are never inner. A wall face of a block thinner than
  // the reach is the exception: its deepest ghost cells mirror cells of the neighbour's block
  // (Neumann), current only after the exchange and the walls' refresh, so it splits like a face in flight.
  const core::HaloWidths r = geo.stencil_reach();
  const auto core_box = [&](bool remote_only) {
    core::Box core = mine;
    for (int d = 0; d < 3; ++d) {
      const bool across = !remote_only || pg.dims[d] > 1;  // another rank may lie across the face
      const long lo = across && (grid.periodic[d] || mine.lo[d] > 0 || mine.n[d] < r.lo[d]) ? r.lo[d] : 0;
      const long hi = across && (grid.periodic[d] || mine.hi(d) < grid.n[d] || mine.n[d] < r.hi[d]) ? r.hi[d] : 0;
      core.lo[d] += lo;
      core.n[d] = std::max(0L, mine.n[d] - lo - hi);
    }
    return core;
  };
  const core::Box core = core_box(false), remote_core = core_box(true);
  p.update.assign(k, {});
  sweep_regions(
      geo, p.layout, mine,
      [&](const std::array<long, 3>& c, long at, long n) {
        for (auto& step : p.update) append(step, at, n);
        split_segment(core, c, at, n, p.inner, p.rim);
        split_segment(remote_core, c, at, n, p.remote_inner, p.remote_rim);
      },
      [&](const std::array<long, 3>&, long at, int level) {
        for (int j = 1; j <= k - level; ++j) append(p.update[j - 1], at);
        append(p.rim, at);
        append(p.remote_rim, at);
      });
  // The pattern lives as long as its stepper: no growth slack kept (issue 40, memory per rank).
  for (auto& step : p.update) step.shrink_to_fit();
  for (auto* runs : {&p.inner, &p.rim, &p.remote_inner, &p.remote_rim}) runs->shrink_to_fit();
  return p;
}

CycleSplit split_cycle(const HaloGeometry& geo, const HaloPattern& p, bool remote_only) {
  const core::Decomposition& decomp = geo.decomposition();
  const core::ProcessGrid& pg = decomp.procs();
  const core::GlobalGrid& grid = decomp.grid();
  const int k = geo.steps();
  core::require(static_cast<int>(p.update.size()) == k, "split_cycle: the pattern's update regions are not the geometry's k steps");
  const auto me_int = pg.coords(p.rank);
  const core::Box mine = geo.box(ProcCoord{me_int[0], me_int[1], me_int[2]});
  const core::HaloWidths r = geo.stencil_reach();
  const std::array<long, 3> extent{p.layout.extent(0), p.layout.extent(1), p.layout.extent(2)};
  CycleSplit out;
  out.rim.assign(k, {});
  for (int j = 1; j <= k; ++j) {
    // Step j's inner box: D_j inside each face whose halo is in flight, the whole view elsewhere (in
    // view indices, clipped to the view).
    core::Box box;
    for (int d = 0; d < 3; ++d) {
      const long depth = j * std::max(r.lo[d], r.hi[d]);
      const bool across = !remote_only || pg.dims[d] > 1;
      const bool lo_face = across && (grid.periodic[d] || mine.lo[d] > 0);
      const bool hi_face = across && (grid.periodic[d] || mine.hi(d) < grid.n[d]);
      const long a = lo_face ? std::clamp(p.layout.view_index(d, mine.lo[d] + depth), 0L, extent[d]) : 0;
      const long b = hi_face ? std::clamp(p.layout.view_index(d, mine.hi(d) - depth), 0L, extent[d]) : extent[d];
      box.lo[d] = a;
      box.n[d] = std::max(0L, b - a);
    }
    out.inner.push_back(box);
    // The rim: update[j - 1]'s runs cut row by row at the box's x range (a run may span rows).
    std::vector<core::LineRun>& rim = out.rim[j - 1];
    for (const core::LineRun& run : p.update[j - 1])
      for (long at = run.start, end = run.start + run.length; at < end;) {
        const long x = at % extent[0], y = at / extent[0] % extent[1], z = at / (extent[0] * extent[1]);
        const long row_end = std::min(end, at + extent[0] - x);
        const bool through = !box.empty() && y >= box.lo[1] && y < box.hi(1) && z >= box.lo[2] && z < box.hi(2);
        if (!through) {
          append(rim, at, row_end - at);
        } else {
          const long row = at - x, in_lo = row + box.lo[0], in_hi = row + box.hi(0);
          if (at < in_lo) append(rim, at, std::min(row_end, in_lo) - at);
          if (row_end > in_hi) append(rim, std::max(at, in_hi), row_end - std::max(at, in_hi));
        }
        at = row_end;
      }
    rim.shrink_to_fit();
  }
  return out;
}

}  // namespace cartex::halo
