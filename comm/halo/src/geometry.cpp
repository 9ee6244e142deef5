#include "cartex/halo/geometry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace cartex::halo {

namespace {

long floor_div(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// S with its centre: B + S^m then contains B + S^(m-1), so every step of a deep-halo cycle updates
// the block (Laplacians have the centre anyway).
std::vector<core::Offset> with_centre(const core::Stencil& stencil) {
  std::vector<core::Offset> s = stencil.offsets;
  s.push_back({0, 0, 0});
  return s;
}

core::HaloWidths checked_widths(const core::GlobalGrid& grid, const core::Stencil& stencil, int k) {
  check_halo_depth(grid, stencil, k);
  return halo_widths(grid, stencil, k);
}

// Blocks are q or q + 1 cells wide along d (q = n / P); the smallest, at least one cell.
std::array<long, 3> smallest_block(const core::Decomposition& decomp) {
  std::array<long, 3> n{};
  for (int d = 0; d < 3; ++d) n[d] = std::max(1L, decomp.grid().n[d] / decomp.procs().dims[d]);
  return n;
}

// The bounding box of S^k around the origin.
core::Box reach_region(const core::HaloWidths& w) {
  core::Box b;
  for (int d = 0; d < 3; ++d) b.lo[d] = -w.lo[d], b.n[d] = w.lo[d] + w.hi[d] + 1;
  return b;
}

// The smallest block at the origin, with the halo of the largest block shifted by up to the size
// difference: any block is a union of shifted smallest blocks, so its dilation is read from this one.
core::Box block_region(const core::Decomposition& decomp, const core::HaloWidths& w, const std::array<long, 3>& smallest) {
  core::Box b;
  for (int d = 0; d < 3; ++d) {
    const long largest = smallest[d] + (decomp.grid().n[d] % decomp.procs().dims[d] != 0 ? 1 : 0);
    b.lo[d] = -w.lo[d] - (largest - smallest[d]);
    b.n[d] = largest + w.hi[d] - b.lo[d];
  }
  return b;
}

core::Box unit_box() {
  core::Box b;
  b.n = {1, 1, 1};
  return b;
}

core::Box origin_block(const std::array<long, 3>& n) {
  core::Box b;
  b.n = n;
  return b;
}

// z, y, x order of offsets: the order owner offsets are listed in.
struct ZYX {
  bool operator()(const core::Offset& a, const core::Offset& b) const {
    return std::array<int, 3>{a[2], a[1], a[0]} < std::array<int, 3>{b[2], b[1], b[0]};
  }
};

}  // namespace

core::HaloWidths halo_widths(const core::GlobalGrid& grid, const core::Stencil& stencil, long k) {
  const core::HaloWidths r = stencil.reach();
  core::HaloWidths w;
  for (int d = 0; d < grid.dim; ++d) {
    w.lo[d] = static_cast<int>(k * r.lo[d]);
    w.hi[d] = static_cast<int>(k * r.hi[d]);
  }
  return w;
}

void check_stencil_fits(const core::GlobalGrid& grid, const core::Stencil& stencil) {
  const core::HaloWidths r = stencil.reach();
  for (int d = 0; d < grid.dim; ++d) {
    const long reach = std::max(r.lo[d], r.hi[d]);
    if (reach > grid.n[d])
      throw std::invalid_argument(fmt::format("{} cell(s) in {} are fewer than the reach of stencil {} ({} cells): a stencil "
                                              "must fit the grid",
                                              grid.n[d], "xyz"[d], stencil.name, reach));
  }
}

void check_halo_depth(const core::GlobalGrid& grid, const core::Stencil& stencil, long k) {
  if (k < 1) throw std::invalid_argument(fmt::format("steps per exchange must be at least 1, got {}", k));
  const core::HaloWidths r = stencil.reach();
  for (int d = 0; d < grid.dim; ++d) {
    const long reach = std::max(r.lo[d], r.hi[d]);
    if (reach > 0 && k > grid.n[d] / reach)
      throw std::invalid_argument(fmt::format(
          "{} step(s) per exchange of stencil {} need a halo deeper than the grid's {} cells in {} ({} cell(s) "
          "per step): at most {} steps per exchange",
          k, stencil.name, grid.n[d], "xyz"[d], reach, grid.n[d] / reach));
  }
}

HaloGeometry::HaloGeometry(const core::Decomposition& decomp, const core::Stencil& stencil, int k)
    : decomp_(decomp),
      k_(k),
      stencil_reach_(stencil.reach()),
      widths_(checked_widths(decomp.grid(), stencil, k)),
      smallest_block_(smallest_block(decomp)),
      reach_(std::make_shared<const StepDistance>(reach_region(widths_), unit_box(), with_centre(stencil), k)),
      block_walk_(std::make_shared<const StepDistance>(block_region(decomp, widths_, smallest_block_), origin_block(smallest_block_),
                                                       with_centre(stencil), k)) {
  owner_offsets_ = compute_owner_offsets();
}

HaloGeometry::HaloGeometry(const HaloGeometry& deeper, int k)
    : decomp_(deeper.decomp_),
      k_(k),
      stencil_reach_(deeper.stencil_reach_),
      smallest_block_(deeper.smallest_block_),
      reach_(deeper.reach_),
      block_walk_(deeper.block_walk_) {
  if (k < 1 || k > deeper.k_)
    throw std::invalid_argument(fmt::format("a geometry of {} step(s) per exchange cannot come from one of {}", k, deeper.k_));
  // k times the stencil's reach (0 in unused dimensions), as halo_widths() gives.
  for (int d = 0; d < 3; ++d) {
    widths_.lo[d] = deeper.widths_.lo[d] / deeper.k_ * k;
    widths_.hi[d] = deeper.widths_.hi[d] / deeper.k_ * k;
  }
  owner_offsets_ = compute_owner_offsets();
}

bool HaloGeometry::owner(int d, long g, long* pc) const {
  const core::GlobalGrid& grid = decomp_.grid();
  const long n = grid.n[d];
  if (!grid.periodic[d] && (g < 0 || g >= n)) return false;
  const long wraps = floor_div(g, n);
  *pc = decomp_.owner_coord(d, g - wraps * n) + wraps * decomp_.procs().dims[d];
  return true;
}

core::Box HaloGeometry::box(const ProcCoord& pc) const {
  const auto& dims = decomp_.procs().dims;
  std::array<int, 3> wrapped{};
  std::array<long, 3> wraps{};
  for (int d = 0; d < 3; ++d) {
    wraps[d] = floor_div(pc[d], dims[d]);
    wrapped[d] = static_cast<int>(pc[d] - wraps[d] * dims[d]);
  }
  core::Box b = decomp_.box(decomp_.procs().rank(wrapped));
  for (int d = 0; d < 3; ++d) b.lo[d] += wraps[d] * decomp_.grid().n[d];
  return b;
}

int HaloGeometry::dilation_level(const core::Box& b, const std::array<long, 3>& c) const {
  if (b.empty()) return StepDistance::unreached();
  // b is the smallest block shifted by 0 .. b.n - smallest per dimension: c is in b + S^m iff it is
  // within m steps of one of those shifts.
  const std::array<long, 3> x{c[0] - b.lo[0], c[1] - b.lo[1], c[2] - b.lo[2]};
  int level = StepDistance::unreached();
  for (long dz = 0; dz <= b.n[2] - smallest_block_[2]; ++dz)
    for (long dy = 0; dy <= b.n[1] - smallest_block_[1]; ++dy)
      for (long dx = 0; dx <= b.n[0] - smallest_block_[0]; ++dx)
        level = std::min<int>(level, block_walk_->at({x[0] - dx, x[1] - dy, x[2] - dz}));
  return level;
}

// Which owner offsets any process uses, without visiting every process: dimension by dimension,
// collect for each owner offset o_d the stencil-power components delta_d that can reach a cell owned
// at o_d from some process (over every process coordinate and cell position along d). An offset o is
// used iff some member delta of S^k has delta_d in that set for every d (the dimensions are
// independent in a block decomposition).
std::vector<core::Offset> HaloGeometry::compute_owner_offsets() const {
  const core::Box reach = reach_->region();
  // owners[d][delta]: the owner offsets o_d whose cells delta_d reaches.
  std::array<std::map<long, std::set<int>>, 3> owners;
  for (int d = 0; d < 3; ++d) {
    for (int p = 0; p < decomp_.procs().dims[d]; ++p) {
      ProcCoord pc{0, 0, 0};
      pc[d] = p;
      const core::Box b = box(pc);
      for (long c = b.lo[d] - widths_.lo[d]; c < b.hi(d) + widths_.hi[d]; ++c) {
        long own = 0;
        if (!owner(d, c, &own)) continue;
        const int o = static_cast<int>(own - p);
        for (long delta = std::max(c - b.hi(d) + 1, reach.lo[d]); delta <= std::min(c - b.lo[d], reach.hi(d) - 1); ++delta)
          owners[d][delta].insert(o);
      }
    }
  }
  std::set<core::Offset, ZYX> used;
  std::array<long, 3> delta{};
  for (delta[2] = reach.lo[2]; delta[2] < reach.hi(2); ++delta[2])
    for (delta[1] = reach.lo[1]; delta[1] < reach.hi(1); ++delta[1])
      for (delta[0] = reach.lo[0]; delta[0] < reach.hi(0); ++delta[0]) {
        if (reach_->at(delta) > k_) continue;
        const auto ix = owners[0].find(delta[0]), iy = owners[1].find(delta[1]), iz = owners[2].find(delta[2]);
        if (ix == owners[0].end() || iy == owners[1].end() || iz == owners[2].end()) continue;
        for (const int oz : iz->second)
          for (const int oy : iy->second)
            for (const int ox : ix->second)
              if (ox != 0 || oy != 0 || oz != 0) used.insert({ox, oy, oz});
      }
  return {used.begin(), used.end()};
}

}  // namespace cartex::halo
