#include "cartex/kernels/boundary.hpp"

#include <algorithm>
#include <utility>

#include "cartex/core/error.hpp"


namespace cartex::kernels {

namespace {

using Rule = core::WallFillRule;

Rule rule_of(const core::BoundaryFace& f) { return core::wall_kind_row(f.kind).fill; }

bool refreshed(const core::BoundaryFace& f) { return rule_of(f) == Rule::kMirror || rule_of(f) == Rule::kExact; }

// The view cells outside face (d, side): [begin, end) per dimension (x, y, z), the whole view in the
// other dimensions; empty in d when the view does not reach beyond the face.
struct GhostSlab {
  Kokkos::Array<long, 3> begin{}, end{};
  long first_inside = 0;  // view index in d of global cell 0
  long past = 0;          // view index in d of global cell n (one past the last)
  bool empty() const { return begin[0] >= end[0] || begin[1] >= end[1] || begin[2] >= end[2]; }
};

GhostSlab ghost_slab(const core::FieldLayout& L, const core::GlobalGrid& grid, int d, int side) {
  GhostSlab s;
  for (int e = 0; e < 3; ++e) s.end[e] = L.extent(e);
  s.first_inside = L.halo.lo[d] - L.box.lo[d];
  s.past = s.first_inside + grid.n[d];
  if (side == 0)
    s.end[d] = std::clamp(s.first_inside, 0L, s.end[d]);
  else
    s.begin[d] = std::clamp(s.past, 0L, s.end[d]);
  return s;
}

Kokkos::MDRangePolicy<Kokkos::Rank<3>> range_of(const GhostSlab& s) {
  return Kokkos::MDRangePolicy<Kokkos::Rank<3>>({s.begin[2], s.begin[1], s.begin[0]}, {s.end[2], s.end[1], s.end[0]});
}

// refresh()'s fill of face (d, side) over the whole view in the other dimensions.
void refresh_face(core::Field& f, const core::GlobalGrid& grid, const WallFill& w, int d, int side) {
  const GhostSlab s = ghost_slab(f.layout, grid, d, side);
  if (s.empty()) return;
  double* const v = f.view.data();
  Kokkos::parallel_for(
      w.rule[2 * d + side] == Rule::kExact ? "cartex::boundary::exact" : "cartex::boundary::mirror", range_of(s),
      KOKKOS_LAMBDA(const long k, const long j, const long i) { w.cell(v, d, side, i, j, k); });
}

}  // namespace

void fill_dirichlet(core::Field& f, const core::GlobalGrid& grid, const BoundaryFaces& faces) {
  const core::FieldLayout& L = f.layout;
  Kokkos::Array<long, 3> lo{}, n{}, off{};
  Kokkos::Array<int, 6> wall{};
  Kokkos::Array<double, 6> val{};
  for (int d = 0; d < 3; ++d) {
    lo[d] = L.box.lo[d];
    n[d] = grid.n[d];
    off[d] = L.halo.lo[d];
    for (int side = 0; side < 2; ++side) {
      const core::BoundaryFace& face = faces[d][side];
      const bool constant = !grid.periodic[d] && rule_of(face) == Rule::kConstant;
      wall[2 * d + side] = constant ? 1 : 0;
      val[2 * d + side] = constant ? core::wall_kind_row(face.kind).constant(face) : 0.0;
    }
  }
  const auto v = f.view;
  Kokkos::parallel_for(
      "cartex::boundary::dirichlet",
      Kokkos::MDRangePolicy<Kokkos::Rank<3>>({0, 0, 0}, {L.extent(2), L.extent(1), L.extent(0)}),
      KOKKOS_LAMBDA(const long k, const long j, const long i) {
        const long g[3] = {lo[0] + i - off[0], lo[1] + j - off[1], lo[2] + k - off[2]};
        for (int d = 0; d < 3; ++d) {
          if (g[d] < 0 && wall[2 * d]) {
            v(k, j, i) = val[2 * d];
            return;
          }
          if (g[d] >= n[d] && wall[2 * d + 1]) {
            v(k, j, i) = val[2 * d + 1];
            return;
          }
        }
      });
}

bool faces_refresh(const BoundaryFaces& faces) {
  for (const auto& dim : faces)
    for (const core::BoundaryFace& f : dim)
      if (refreshed(f)) return true;
  return false;
}

Boundary::Boundary(const core::GlobalGrid& grid, const BoundaryFaces& faces, ExactSolution exact)
    : grid_(grid), faces_(faces), exact_(std::move(exact)), refreshes_(faces_refresh(faces)) {
  for (int d = 0; d < 3; ++d)
    for (const core::BoundaryFace& f : faces_[d])
      core::require(grid.periodic[d] == (f.kind == core::WallKind::kPeriodic), "Boundary: a face disagrees with grid.periodic");
  for (const auto& dim : faces_)
    for (const core::BoundaryFace& f : dim)
      core::require(rule_of(f) != Rule::kExact || exact_, "Boundary: an exact face without an exact solution");
}

void Boundary::fill(core::Field& f, long step) const {
  fill_dirichlet(f, grid_, faces_);
  refresh(f, step);
}

void Boundary::refresh(core::Field& f, long step) const {
  if (!refreshes_) return;
  const WallFill w = wall_fill(f.layout, step);
  for (int d = 0; d < 3; ++d)
    for (int side = 0; side < 2; ++side)
      if (w.rule[2 * d + side] != Rule::kNone) refresh_face(f, grid_, w, d, side);
}

WallFill Boundary::wall_fill(const core::FieldLayout& L, long step) const {
  WallFill w;
  bool exact = false;
  for (int d = 0; d < 3; ++d) {
    w.ext[d] = L.extent(d);
    w.first[d] = L.halo.lo[d] - L.box.lo[d];
    w.past[d] = w.first[d] + grid_.n[d];
    w.h[d] = grid_.spacing(d);
    w.o[d] = grid_.periodic[d] ? 0.0 : grid_.wall_offset(d, 0);
    w.g0[d] = L.box.lo[d] - L.halo.lo[d];
    w.wrap[d] = grid_.periodic[d] ? grid_.n[d] : 0;
    for (int side = 0; side < 2; ++side) {
      const core::BoundaryFace& face = faces_[d][side];
      const int f = 2 * d + side;
      w.rule[f] = refreshed(face) ? rule_of(face) : Rule::kNone;
      if (w.rule[f] == Rule::kMirror) {
        const core::RobinCoefficients r = core::wall_kind_row(face.kind).mirror(face);
        w.ha[f] = grid_.spacing(d) * r.a;
        w.hg[f] = grid_.spacing(d) * r.g;
        w.b[f] = r.b;
      }
      exact = exact || w.rule[f] == Rule::kExact;
    }
  }
  if (exact) w.mode = exact_(step);
  return w;
}

std::array<long, 2> Boundary::pass_rows(const core::FieldLayout& L) const {
  const long ey = L.extent(1), first = L.halo.lo[1] - L.box.lo[1], past = first + grid_.n[1];
  std::array<long, 2> rows{0, 0};
  if (refreshed(faces_[1][0]) && first > 0) rows[0] = std::min(2 * first, ey);
  if (refreshed(faces_[1][1]) && past < ey) rows[1] = ey - std::max(0L, 2 * past - ey);
  return rows;
}

void WallFill::row_x(double* v, long y, long z) const {
  if (rule[0] != Rule::kNone)
    for (long i = 0; i < std::min(first[0], ext[0]); ++i) cell(v, 0, 0, i, y, z);
  if (rule[1] != Rule::kNone)
    for (long i = std::max(past[0], 0L); i < ext[0]; ++i) cell(v, 0, 1, i, y, z);
}

void WallFill::rows_yz(double* v, long z, long y0, long y1) const {
  const auto rows = [&](int d, int side, long plane, long lo, long hi) {
    for (long y = std::max(lo, y0); y < std::min(hi, y1); ++y)
      for (long i = 0; i < ext[0]; ++i) cell(v, d, side, i, y, plane);
  };
  if (rule[2] != Rule::kNone) rows(1, 0, z, 0, first[1]);
  if (rule[3] != Rule::kNone) rows(1, 1, z, past[1], ext[1]);
  if (rule[4] == Rule::kExact && z < first[2]) rows(2, 0, z, 0, ext[1]);
  const long low_ghost = 2 * first[2] - 1 - z;  // the low ghost plane that z mirrors
  if (rule[4] == Rule::kMirror && z >= first[2] && low_ghost >= 0) rows(2, 0, low_ghost, 0, ext[1]);
  if (rule[5] != Rule::kNone && z >= past[2]) rows(2, 1, z, 0, ext[1]);
}

PassWalls::PassWalls(const Boundary& boundary, const core::FieldLayout& layout, long step_of_first, int first, int last)
    : boundary_(&boundary), step_of_first_(step_of_first), first_(first) {
  for (int t = first; t <= last; ++t) fills_.push_back(boundary.wall_fill(layout, step_of_first + (t - first)));
}

Boundary make_boundary(const core::Config& cfg, Boundary::ExactSolution exact) {
  return Boundary(cfg.grid, cfg.boundary, faces_refresh(cfg.boundary) ? std::move(exact) : Boundary::ExactSolution());
}

}  // namespace cartex::kernels
