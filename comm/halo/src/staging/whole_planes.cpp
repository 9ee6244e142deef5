#include "staging/whole_planes.hpp"

#include <algorithm>
#include <string>
#include <unordered_set>

#include "cartex/core/error.hpp"

namespace cartex::halo {

namespace {

constexpr int kDown = 1, kUp = 2;  // tags (p2p's packed messages use 0)

// The slab rule of the header, from the geometry and the view alone.
bool slab_rule(const PlanInputs& in, int s) {
  if (!in.geometry) return false;
  const MpiMemory memory = in.memory();
  if (memory.stage || !memory.zero_copy) return false;
  const core::Decomposition& dec = in.geometry->decomposition();
  const core::GlobalGrid& g = dec.grid();
  if (dec.procs().dims[s] < 2) return false;
  for (int d = 0; d < g.dim; ++d)
    if (d != s && (dec.procs().dims[d] != 1 || !g.periodic[d])) return false;
  const core::HaloWidths& w = in.geometry->widths();
  return dec.min_block(s) >= std::max(w.lo[s], w.hi[s]);
}

// Cells of view planes [first, first + planes) along the last dimension s of layout l.
PlaneRange planes_of(const core::FieldLayout& l, int s, int rank, int tag, long first, long planes) {
  long plane = 1;
  for (int d = 0; d < s; ++d) plane *= l.extent(d);
  return {rank, tag, first * plane, planes * plane};
}

bool inside(const PlaneRange& r, long first, long length) { return first >= r.first && first + length <= r.first + r.count; }

}  // namespace

HaloPattern WholePlanes::rest(const HaloPattern& p) const {
  HaloPattern out = p;
  if (!applies) return out;
  for (Block& b : out.blocks)
    if (b.offset[dim] != 0) b.send = b.recv = CellList();
  return out;
}

std::pair<CellList, CellList> WholePlanes::with_carried(const CellList& from, const CellList& to) const {
  std::pair<CellList, CellList> out{from, to};
  const std::vector<long> filled = to.cells();
  const std::unordered_set<long> own(filled.begin(), filled.end());
  auto t = carried_to.begin();
  carried_from.for_each([&](long f) {
    const long ghost = *t++;
    if (own.count(ghost)) return;
    out.first.push_back(f);
    out.second.push_back(ghost);
  });
  return out;
}

long WholePlanes::send_cells() const {
  long cells = 0;
  for (const PlaneRange& r : sends) cells += r.count;
  return cells;
}

WholePlanes whole_planes(const PlanInputs& in) {
  WholePlanes out;
  const HaloPattern& p = in.pattern;
  out.dim = in.geometry ? in.geometry->decomposition().grid().dim - 1 : 0;
  out.applies = slab_rule(in, out.dim);
  if (!out.applies) return out;
  const int s = out.dim;
  const core::FieldLayout& l = p.layout;
  const core::HaloWidths& w = in.geometry->widths();
  const long lo = l.halo.lo[s], hi = lo + l.box.n[s];  // view planes of the first and past the last owned one
  // Every block with offset +1 along s has the rank above as target and the one below as source (one
  // process in every other dimension); -1 the other way round.
  int above = MPI_PROC_NULL, below = MPI_PROC_NULL;
  for (const Block& b : p.blocks) {
    if (b.offset[s] == 1) above = b.target, below = b.source;
    if (b.offset[s] == -1) below = b.target, above = b.source;
  }
  // Up (block offset +1): our top w.lo planes become the ghost planes below the rank above.
  if (w.lo[s] > 0 && above != MPI_PROC_NULL) out.sends.push_back(planes_of(l, s, above, kUp, hi - w.lo[s], w.lo[s]));
  if (w.lo[s] > 0 && below != MPI_PROC_NULL) out.recvs.push_back(planes_of(l, s, below, kUp, lo - w.lo[s], w.lo[s]));
  // Down (block offset -1): our bottom w.hi planes become the ghost planes above the rank below.
  if (w.hi[s] > 0 && below != MPI_PROC_NULL) out.sends.push_back(planes_of(l, s, below, kDown, lo, w.hi[s]));
  if (w.hi[s] > 0 && above != MPI_PROC_NULL) out.recvs.push_back(planes_of(l, s, above, kDown, hi, w.hi[s]));

  // Every cell of the blocks the planes replace lies in them: a received cell in its ghost planes, a
  // sent cell, moved by the block's offset in the other dimensions (the ghost the self copy gives its
  // value), in the planes sent.
  const auto range = [](const std::vector<PlaneRange>& list, int tag, int rank) -> const PlaneRange* {
    for (const PlaneRange& r : list)
      if (r.tag == tag && r.rank == rank) return &r;
    return nullptr;
  };
  std::unordered_set<long> carried;  // the ghosts listed so far (a block two planes thick goes up and down)
  for (const Block& b : p.blocks) {
    if (b.offset[s] == 0) continue;
    const int tag = b.offset[s] > 0 ? kUp : kDown;
    long shift = 0, stride = 1;
    for (int d = 0; d < 3; ++d) {
      if (d != s) shift += b.offset[d] * l.box.n[d] * stride;
      stride *= l.extent(d);
    }
    const PlaneRange* send = range(out.sends, tag, b.target);
    const PlaneRange* recv = range(out.recvs, tag, b.source);
    core::require(b.send.empty() || send, "whole planes: a block sent outside the planes");
    core::require(b.recv.empty() || recv, "whole planes: a block received outside the planes");
    b.send.for_each_row([&](long first, long length) {
      core::require(inside(*send, first - shift, length), "whole planes: a sent cell outside the planes");
    });
    if (shift != 0)
      b.send.for_each([&](long cell) {
        if (carried.insert(cell - shift).second) out.carried_from.push_back(cell), out.carried_to.push_back(cell - shift);
      });
    b.recv.for_each_row([&](long first, long length) {
      core::require(inside(*recv, first, length), "whole planes: a received cell outside the planes");
    });
  }
  return out;
}

}  // namespace cartex::halo
