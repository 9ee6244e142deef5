#include "cartex/halo/forwarding.hpp"

#include <limits>
#include <map>
#include <set>

#include "cartex/core/error.hpp"

namespace cartex::halo {

namespace {

using Cell = std::array<long, 3>;

// z, y, x order of unwrapped cells: the order sender and receiver both list a message in.
struct ZYX {
  bool operator()(const Cell& a, const Cell& b) const {
    if (a[2] != b[2]) return a[2] < b[2];
    if (a[1] != b[1]) return a[1] < b[1];
    return a[0] < b[0];
  }
};

// Cells that process x (unwrapped coordinates) receives in phase d from x + a e_d.
std::set<Cell, ZYX> phase_cells(const HaloGeometry& geo, const ProcCoord& x, int d, int a) {
  // The later components b of owner offsets with d-component a: one receiving process x - b each.
  std::set<std::array<int, 3>> tails;
  for (const auto& o : geo.owner_offsets()) {
    if (o[d] != a) continue;
    std::array<int, 3> b{0, 0, 0};
    for (int j = d + 1; j < 3; ++j) b[j] = o[j];
    tails.insert(b);
  }
  // Those cells are owned, along d and later dimensions, by the process x + a e_d: only its slab of
  // each receiver's halo is visited.
  ProcCoord owner = x;
  owner[d] += a;
  const core::Box owned = geo.box(owner);
  core::Box clip;
  for (int j = 0; j < 3; ++j) {
    clip.lo[j] = j < d ? std::numeric_limits<long>::min() / 4 : owned.lo[j];
    clip.n[j] = j < d ? std::numeric_limits<long>::max() / 2 : owned.n[j];
  }
  std::set<Cell, ZYX> cells;
  for (const auto& b : tails) {
    const ProcCoord r{x[0] - b[0], x[1] - b[1], x[2] - b[2]};
    geo.for_each_halo_cell_in(r, clip, [&](const Cell& c, const core::Offset& v) {
      if (v[d] != a) return;
      for (int j = d + 1; j < 3; ++j)
        if (v[j] != b[j]) return;
      cells.insert(c);
    });
  }
  return cells;
}

}  // namespace

std::vector<ForwardingPhase> make_forwarding_schedule(const HaloGeometry& geo, const HaloPattern& pattern) {
  const core::Decomposition& dec = geo.decomposition();
  const core::ProcessGrid& pg = dec.procs();
  const core::GlobalGrid& grid = dec.grid();
  const auto me_int = pg.coords(pattern.rank);
  const ProcCoord me{me_int[0], me_int[1], me_int[2]};
  const core::Box mine = geo.box(me);
  const core::FieldLayout& l = pattern.layout;

  auto rank_at = [&](const ProcCoord& pc) {
    std::array<int, 3> c{};
    for (int d = 0; d < 3; ++d) {
      const long P = pg.dims[d];
      if ((pc[d] < 0 || pc[d] >= P) && !grid.periodic[d]) return MPI_PROC_NULL;
      c[d] = static_cast<int>(((pc[d] % P) + P) % P);
    }
    return pg.rank(c);
  };
  auto to_view = [&](const std::set<Cell, ZYX>& cells) {
    CellList out;
    for (const auto& c : cells) {
      std::array<long, 3> v{};
      for (int d = 0; d < 3; ++d) {
        v[d] = c[d] - mine.lo[d] + l.halo.lo[d];
        core::require(v[d] >= 0 && v[d] < l.extent(d), "forwarding schedule: a forwarded cell falls outside the field's view");
      }
      out.push_back(linear_index(l, v[0], v[1], v[2]));
    }
    return out;
  };

  std::vector<ForwardingPhase> phases;
  for (int d = 0; d < grid.dim; ++d) {
    std::set<int> values;
    for (const auto& o : geo.owner_offsets())
      if (o[d] != 0) values.insert(o[d]);
    ForwardingPhase ph;
    int tag = 0;
    for (int a : values) {
      ProcCoord from = me, to = me;
      from[d] += a;  // we receive from me + a e_d ...
      to[d] -= a;    // ... and send to me - a e_d what it receives from us in this phase
      ForwardingMessage recv{rank_at(from), tag, {}};
      ForwardingMessage send{rank_at(to), tag, {}};
      ++tag;
      if (recv.rank != MPI_PROC_NULL) recv.cells = to_view(phase_cells(geo, me, d, a));
      if (send.rank != MPI_PROC_NULL) send.cells = to_view(phase_cells(geo, to, d, a));
      if (!recv.cells.empty()) ph.recvs.push_back(std::move(recv));
      if (!send.cells.empty()) ph.sends.push_back(std::move(send));
    }
    // Kept when empty too: every rank has one phase per dimension, so the plan makes as many
    // communicators (a collective each) on every rank; a rank without messages in a phase only passes.
    phases.push_back(std::move(ph));
  }
  return phases;
}

}  // namespace cartex::halo
