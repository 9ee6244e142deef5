#include "cartex/halo/pattern.hpp"

#include <algorithm>
#include <limits>
#include <map>

namespace cartex::halo {

namespace {

// View index of unwrapped cell c for the process whose unwrapped box is `b` (same frame).
long view_of(const core::FieldLayout& l, const core::Box& b, const std::array<long, 3>& c) {
  return linear_index(l, c[0] - b.lo[0] + l.halo.lo[0], c[1] - b.lo[1] + l.halo.lo[1], c[2] - b.lo[2] + l.halo.lo[2]);
}

// Appends view cell (i, j, k) to runs, extending the last run when contiguous.
void append(std::vector<core::LineRun>& runs, long index) {
  if (!runs.empty() && runs.back().start + runs.back().length == index)
    ++runs.back().length;
  else
    runs.push_back({index, 1});
}

// Cells of the view (in the rank's own frame b) that satisfy `keep`, as runs along x.
template <class Keep>
std::vector<core::LineRun> runs_where(const core::FieldLayout& l, const core::Box& b, Keep&& keep) {
  std::vector<core::LineRun> runs;
  std::array<long, 3> c{};
  for (c[2] = b.lo[2] - l.halo.lo[2]; c[2] < b.hi(2) + l.halo.hi[2]; ++c[2])
    for (c[1] = b.lo[1] - l.halo.lo[1]; c[1] < b.hi(1) + l.halo.hi[1]; ++c[1])
      for (c[0] = b.lo[0] - l.halo.lo[0]; c[0] < b.hi(0) + l.halo.hi[0]; ++c[0])
        if (keep(c)) append(runs, view_of(l, b, c));
  return runs;
}

// True if unwrapped cell c is updated in step j of a k-step cycle of the block `mine`: it lies in the
// domain (walls bound it) and in B + S^(k-j) (deep halos, EuroMPI'15 section 2).
bool in_step(const HaloGeometry& geo, const core::Box& mine, int j, const std::array<long, 3>& c) {
  const core::GlobalGrid& grid = geo.decomposition().grid();
  const int k = geo.steps();
  for (int d = 0; d < 3; ++d)
    if (!grid.periodic[d] && (c[d] < 0 || c[d] >= grid.n[d])) return false;
  return j == k ? mine.contains(c) : geo.in_dilation(mine, c, k - j);
}

}  // namespace

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

HaloPattern make_halo_pattern(const HaloGeometry& geo, int rank) {
  const core::Decomposition& decomp = geo.decomposition();
  const core::ProcessGrid& pg = decomp.procs();
  const core::GlobalGrid& grid = decomp.grid();
  const int k = geo.steps();
  HaloPattern p;
  p.rank = rank;
  p.layout.box = decomp.box(rank);
  p.layout.halo = geo.widths();
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

  // Update regions: step j updates B + S^(k-j) inside the domain.
  for (int j = 1; j <= k; ++j)
    p.update.push_back(runs_where(p.layout, mine, [&](const std::array<long, 3>& c) { return in_step(geo, mine, j, c); }));
  // Overlap split of step 1: a cell is inner if it reads no halo cell the exchange writes, i.e. (the
  // block being a box) if it sits at least the stencil's reach away from every face whose halo is
  // received. The halo beyond a non-periodic global face holds fixed boundary values the exchange never
  // writes, so a face on a wall keeps its cells inner (and the rim holds no strided single cells there).
  // Against the remote halo only, a face of a periodic dimension of one process (its halo comes from
  // this rank itself) keeps its cells inner too.
  const core::HaloWidths r = geo.stencil_reach();
  auto step1 = [&](const std::array<long, 3>& c) { return in_step(geo, mine, 1, c); };
  auto split = [&](bool remote_only, std::vector<core::LineRun>& inner, std::vector<core::LineRun>& rim) {
    core::Box core = mine;
    for (int d = 0; d < 3; ++d) {
      const bool across = !remote_only || pg.dims[d] > 1;  // another rank may lie across the face
      const long lo = across && (grid.periodic[d] || mine.lo[d] > 0) ? r.lo[d] : 0;
      const long hi = across && (grid.periodic[d] || mine.hi(d) < grid.n[d]) ? r.hi[d] : 0;
      core.lo[d] += lo;
      core.n[d] = std::max(0L, mine.n[d] - lo - hi);
    }
    inner = runs_where(p.layout, mine, [&](const std::array<long, 3>& c) { return core.contains(c) && step1(c); });
    rim = runs_where(p.layout, mine, [&](const std::array<long, 3>& c) { return !core.contains(c) && step1(c); });
  };
  split(false, p.inner, p.rim);
  split(true, p.remote_inner, p.remote_rim);
  return p;
}

CycleSplit split_cycle(const HaloGeometry& geo, const HaloPattern& p, bool remote_only) {
  const core::Decomposition& decomp = geo.decomposition();
  const core::ProcessGrid& pg = decomp.procs();
  const core::GlobalGrid& grid = decomp.grid();
  const int k = geo.steps();
  const auto me_int = pg.coords(p.rank);
  const core::Box mine = geo.box(ProcCoord{me_int[0], me_int[1], me_int[2]});
  const core::HaloWidths r = geo.stencil_reach();
  CycleSplit out;
  for (int j = 1; j <= k; ++j) {
    // The inner box of step j: D_j inside each face whose halo is in flight, unbounded elsewhere.
    std::array<long, 3> lo{}, hi{};
    for (int d = 0; d < 3; ++d) {
      const long depth = j * std::max(r.lo[d], r.hi[d]);
      const bool across = !remote_only || pg.dims[d] > 1;
      lo[d] = across && (grid.periodic[d] || mine.lo[d] > 0) ? mine.lo[d] + depth : std::numeric_limits<long>::min();
      hi[d] = across && (grid.periodic[d] || mine.hi(d) < grid.n[d]) ? mine.hi(d) - depth : std::numeric_limits<long>::max();
    }
    auto step = [&](const std::array<long, 3>& c) { return in_step(geo, mine, j, c); };
    auto inside = [&](const std::array<long, 3>& c) {
      for (int d = 0; d < 3; ++d)
        if (c[d] < lo[d] || c[d] >= hi[d]) return false;
      return true;
    };
    out.inner.push_back(runs_where(p.layout, mine, [&](const std::array<long, 3>& c) { return step(c) && inside(c); }));
    out.rim.push_back(runs_where(p.layout, mine, [&](const std::array<long, 3>& c) { return step(c) && !inside(c); }));
  }
  return out;
}

}  // namespace cartex::halo
