#include "cartex/halo/halo_regions.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace cartex {

namespace {

// Tag of process offset s: its index in {-1,0,1}^3 (0 .. 26).
int offset_tag(const Offset& s) { return (s[0] + 1) + 3 * (s[1] + 1) + 9 * (s[2] + 1); }

bool region_needed(const Stencil& st, const Offset& s) {
  for (const auto& o : st.offsets) {
    bool match = true;
    for (int d = 0; d < 3 && match; ++d)
      if (s[d] != 0 && (o[d] == 0 || (o[d] > 0) != (s[d] > 0))) match = false;
    if (match) return true;
  }
  return false;
}

}  // namespace

HaloWidths halo_widths(const Stencil& stencil, int dim) {
  HaloWidths w = stencil.reach();
  for (int d = dim; d < 3; ++d) w.lo[d] = w.hi[d] = 0;
  return w;
}

HaloRegions make_halo_regions(const Decomposition& decomp, int rank, const Stencil& stencil) {
  const GlobalGrid& grid = decomp.grid();
  const ProcessGrid& pg = decomp.procs();
  HaloRegions out;
  out.layout.box = decomp.box(rank);
  out.layout.halo = halo_widths(stencil, grid.dim);
  const HaloWidths& w = out.layout.halo;
  for (int d = 0; d < grid.dim; ++d) {
    const bool has_neighbors = grid.periodic[d] || pg.dims[d] > 1;
    const int need = std::max(w.lo[d], w.hi[d]);
    if (has_neighbors && need > decomp.min_block(d))
      throw std::invalid_argument(fmt::format(
          "stencil {} needs a halo of {} cells in {} but the smallest local block there has {} (use fewer processes in {} or a larger grid)",
          stencil.name, need, "xyz"[d], decomp.min_block(d), "xyz"[d]));
  }

  const auto me = pg.coords(rank);
  const Box& b = out.layout.box;
  for (int sz = -1; sz <= 1; ++sz)
    for (int sy = -1; sy <= 1; ++sy)
      for (int sx = -1; sx <= 1; ++sx) {
        const Offset s{sx, sy, sz};
        if (s == Offset{0, 0, 0} || !region_needed(stencil, s)) continue;
        NeighborRegion r;
        r.offset = s;
        std::array<int, 3> c{};
        bool inside = true;
        for (int d = 0; d < 3; ++d) {
          c[d] = me[d] + s[d];
          if (c[d] < 0 || c[d] >= pg.dims[d]) {
            if (!grid.periodic[d]) inside = false;
            c[d] = (c[d] % pg.dims[d] + pg.dims[d]) % pg.dims[d];
          }
        }
        r.rank = inside ? pg.rank(c) : MPI_PROC_NULL;
        const Offset minus{-sx, -sy, -sz};
        for (int d = 0; d < 3; ++d) {
          // Receive: our halo on side s_d. Send: the neighbor's halo on side -s_d, i.e. our cells
          // next to face s_d, as deep as that halo (the neighbor's lo side if s_d > 0).
          if (s[d] < 0) {
            r.recv.lo[d] = 0, r.recv.n[d] = w.lo[d];
            r.send.lo[d] = w.lo[d], r.send.n[d] = w.hi[d];
          } else if (s[d] > 0) {
            r.recv.lo[d] = w.lo[d] + b.n[d], r.recv.n[d] = w.hi[d];
            r.send.lo[d] = w.lo[d] + b.n[d] - w.lo[d], r.send.n[d] = w.lo[d];
          } else {
            r.recv.lo[d] = r.send.lo[d] = w.lo[d];
            r.recv.n[d] = r.send.n[d] = b.n[d];
          }
        }
        r.send_tag = offset_tag(s);
        r.recv_tag = offset_tag(minus);
        out.neighbors.push_back(r);
      }
  return out;
}

}  // namespace cartex
