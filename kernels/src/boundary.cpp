#include "cartex/kernels/boundary.hpp"

#include <algorithm>
#include <utility>

#include "cartex/core/error.hpp"


namespace cartex::kernels {

namespace {

using Kind = core::BoundaryFace::Kind;

bool fixed(const core::BoundaryFace& f) { return f.kind == Kind::kDirichlet && !f.exact; }

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

// Neumann face (d, side) with outward normal derivative q: ghost m = mirror cell m + (2m + 1) h q.
void refresh_neumann(core::Field& f, const core::GlobalGrid& grid, int d, int side, double q) {
  const GhostSlab s = ghost_slab(f.layout, grid, d, side);
  if (s.empty()) return;
  const double hq = grid.spacing(d) * q;
  const long first = s.first_inside, past = s.past, extent = f.layout.extent(d);
  const auto v = f.view;
  Kokkos::parallel_for(
      "cartex::boundary::neumann", range_of(s), KOKKOS_LAMBDA(const long k, const long j, const long i) {
        long c[3] = {i, j, k};
        const long m = side == 0 ? first - 1 - c[d] : c[d] - past;  // ghost layer, 0 next to the wall
        const long mirror = side == 0 ? first + m : past - 1 - m;
        if (mirror < 0 || mirror >= extent) return;
        const double ghost_term = static_cast<double>(2 * m + 1) * hq;
        c[d] = mirror;
        v(k, j, i) = v(c[2], c[1], c[0]) + ghost_term;
      });
}

// Dirichlet exact face (d, side): the exact solution `mode` at each ghost cell's position.
void refresh_exact(core::Field& f, const core::GlobalGrid& grid, int d, int side, const ModeSum& mode) {
  const GhostSlab s = ghost_slab(f.layout, grid, d, side);
  if (s.empty()) return;
  Kokkos::Array<double, 3> h{}, o{};
  Kokkos::Array<long, 3> g0{};  // global index of view index 0
  for (int e = 0; e < 3; ++e) {
    h[e] = grid.spacing(e);
    o[e] = grid.periodic[e] ? 0.0 : grid.wall_offset(e, 0);
    g0[e] = f.layout.box.lo[e] - f.layout.halo.lo[e];
  }
  const auto v = f.view;
  Kokkos::parallel_for(
      "cartex::boundary::exact", range_of(s), KOKKOS_LAMBDA(const long k, const long j, const long i) {
        const long c[3] = {i, j, k};
        double x[3];
        for (int e = 0; e < 3; ++e) x[e] = (static_cast<double>(g0[e] + c[e]) + o[e]) * h[e];
        v(k, j, i) = mode(x[0], x[1], x[2]);
      });
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
      wall[2 * d + side] = !grid.periodic[d] && fixed(faces[d][side]) ? 1 : 0;
      val[2 * d + side] = faces[d][side].value;
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
      if (f.kind == Kind::kNeumann || (f.kind == Kind::kDirichlet && f.exact)) return true;
  return false;
}

Boundary::Boundary(const core::GlobalGrid& grid, const BoundaryFaces& faces, ExactSolution exact)
    : grid_(grid), faces_(faces), exact_(std::move(exact)), refreshes_(faces_refresh(faces)) {
  for (int d = 0; d < 3; ++d)
    for (const core::BoundaryFace& f : faces_[d])
      core::require(grid.periodic[d] == (f.kind == Kind::kPeriodic), "Boundary: a face disagrees with grid.periodic");
  for (const auto& dim : faces_)
    for (const core::BoundaryFace& f : dim) core::require(!f.exact || exact_, "Boundary: an exact face without an exact solution");
}

void Boundary::fill(core::Field& f, long step) const {
  fill_dirichlet(f, grid_, faces_);
  refresh(f, step);
}

void Boundary::refresh(core::Field& f, long step) const {
  if (!refreshes_) return;
  for (int d = 0; d < 3; ++d)
    for (int side = 0; side < 2; ++side) {
      const core::BoundaryFace& face = faces_[d][side];
      if (face.kind == Kind::kNeumann) refresh_neumann(f, grid_, d, side, face.value);
      if (face.kind == Kind::kDirichlet && face.exact) refresh_exact(f, grid_, d, side, exact_(step));
    }
}

Boundary make_boundary(const core::Config& cfg, Boundary::ExactSolution exact) {
  return Boundary(cfg.grid, cfg.boundary, faces_refresh(cfg.boundary) ? std::move(exact) : Boundary::ExactSolution());
}

}  // namespace cartex::kernels
