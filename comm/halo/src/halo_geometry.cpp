#include "cartex/halo/halo_geometry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace cartex {

namespace {

long floor_div(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

}  // namespace

HaloGeometry::HaloGeometry(const Decomposition& decomp, const Stencil& stencil, int k) : decomp_(decomp), k_(k) {
  if (k < 1) throw std::invalid_argument(fmt::format("steps per exchange must be at least 1, got {}", k));
  // S with its centre: B + S^m then contains B + S^(m-1), so every step of a deep-halo cycle updates
  // the block (Laplacians have the centre anyway).
  std::vector<Offset> s = stencil.offsets;
  s.push_back({0, 0, 0});
  for (int m = 0; m <= k; ++m) powers_.push_back(OffsetSet::power(s, m));
  const GlobalGrid& g = decomp.grid();
  for (int d = 0; d < 3; ++d) {
    widths_.lo[d] = d < g.dim ? std::max(0, -powers_[k].lo()[d]) : 0;
    widths_.hi[d] = d < g.dim ? std::max(0, powers_[k].hi()[d]) : 0;
    const int depth = std::max(widths_.lo[d], widths_.hi[d]);
    if (d < g.dim && g.periodic[d] && depth > g.n[d])
      throw std::invalid_argument(fmt::format(
          "stencil {} with {} step(s) per exchange needs a halo of {} cells in {}, deeper than the periodic grid's {} cells",
          stencil.name, k, depth, "xyz"[d], g.n[d]));
  }
  owner_offsets_ = compute_owner_offsets();
}

bool HaloGeometry::owner(int d, long g, long* pc) const {
  const GlobalGrid& grid = decomp_.grid();
  const long n = grid.n[d];
  if (!grid.periodic[d] && (g < 0 || g >= n)) return false;
  const long wraps = floor_div(g, n);
  *pc = decomp_.owner_coord(d, g - wraps * n) + wraps * decomp_.procs().dims[d];
  return true;
}

Box HaloGeometry::box(const ProcCoord& pc) const {
  const auto& dims = decomp_.procs().dims;
  std::array<int, 3> wrapped{};
  std::array<long, 3> wraps{};
  for (int d = 0; d < 3; ++d) {
    wraps[d] = floor_div(pc[d], dims[d]);
    wrapped[d] = static_cast<int>(pc[d] - wraps[d] * dims[d]);
  }
  Box b = decomp_.box(decomp_.procs().rank(wrapped));
  for (int d = 0; d < 3; ++d) b.lo[d] += wraps[d] * decomp_.grid().n[d];
  return b;
}

bool HaloGeometry::in_dilation(const Box& b, const std::array<long, 3>& c, int m) const {
  // c - o in b  <=>  c - hi < o <= c - lo in every dimension.
  return powers_[m].any_in({c[0] - b.hi(0) + 1, c[1] - b.hi(1) + 1, c[2] - b.hi(2) + 1},
                           {c[0] - b.lo[0], c[1] - b.lo[1], c[2] - b.lo[2]});
}

// Which owner offsets any process uses, without visiting every process: dimension by dimension,
// collect for each owner offset o_d the stencil-power components delta_d that can reach a cell owned
// at o_d from some process (over every process coordinate and cell position along d). An offset o is
// used iff some member delta of S^k has delta_d in that set for every d (the dimensions are
// independent in a block decomposition).
std::vector<Offset> HaloGeometry::compute_owner_offsets() const {
  const GlobalGrid& g = decomp_.grid();
  const OffsetSet& reach = powers_[k_];
  std::array<std::map<int, std::set<int>>, 3> deltas;
  for (int d = 0; d < 3; ++d) {
    for (int p = 0; p < decomp_.procs().dims[d]; ++p) {
      ProcCoord pc{0, 0, 0};
      pc[d] = p;
      const Box b = box(pc);
      for (long c = b.lo[d] - widths_.lo[d]; c < b.hi(d) + widths_.hi[d]; ++c) {
        long own = 0;
        if (!owner(d, c, &own)) continue;
        const int o = static_cast<int>(own - p);
        for (long delta = std::max<long>(c - b.hi(d) + 1, reach.lo()[d]); delta <= std::min<long>(c - b.lo[d], reach.hi()[d]); ++delta)
          deltas[d][o].insert(static_cast<int>(delta));
      }
    }
  }
  std::vector<Offset> out;
  for (const auto& [oz, dz] : deltas[2])
    for (const auto& [oy, dy] : deltas[1])
      for (const auto& [ox, dx] : deltas[0]) {
        if (ox == 0 && oy == 0 && oz == 0) continue;
        for (const auto& m : reach.members())
          if (dx.count(m[0]) && dy.count(m[1]) && dz.count(m[2])) {
            out.push_back({ox, oy, oz});
            break;
          }
      }
  return out;
}

}  // namespace cartex
