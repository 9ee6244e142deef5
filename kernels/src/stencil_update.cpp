#include "cartex/kernels/stencil_update.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cartex/core/device_copy.hpp"
#include "cartex/core/error.hpp"
#include "cartex/kernels/boundary.hpp"
#include "stencil_kernels.hpp"
#include "stencil_plan.hpp"

namespace cartex::kernels {

using detail::KernelShape;
using detail::StencilPlan;

struct StencilOperator::Impl {
  core::FieldLayout layout;
  core::Integrator scheme = core::Integrator::kExplicitEuler;
  StencilPlan plan;
  KernelShape shape;
  std::string name;
  // Kokkos kernel labels: "cartex::kernels::star<3,1>", ".../region", ".../blocked"
  std::string interior_label, region_label, blocked_label;
  long sy = 0, sz = 0;
  long lead = 0;  // host prefetch distance in doubles
  // The generic kernel's tables (default memory space) and the kernel pointing into them.
  Kokkos::View<double*> weight;
  Kokkos::View<int*> group_end, part_column, part_dx, column_end, column_window;
  Kokkos::View<int*> part_kind;
  Kokkos::View<long*> line_offset, part_offset;
  detail::GenericKernel generic{};
};

namespace {

// The generic kernel's tables for `plan` on strides sy, sz.
void build_generic(StencilOperator::Impl& m) {
  const StencilPlan& plan = m.plan;
  std::vector<double> weight;
  std::vector<int> group_end, part_column, part_dx, column_end, column_window;
  std::vector<long> line_offset;
  detail::GenericKernel& k = m.generic;
  for (const auto& g : plan.groups) {
    weight.push_back(g.weight);
    for (const auto& p : g.parts) {
      part_column.push_back(p.column);
      part_dx.push_back(p.dx);
    }
    group_end.push_back(static_cast<int>(part_column.size()));
  }
  // Window the columns with two or more lines that several parts use, within a vector's reach in x
  // (as many as fit): summed once per x position on the host. The others are summed where used.
  k.window_count = 0;
  for (int c = 0; c < static_cast<int>(plan.columns.size()); ++c) {
    for (const auto& l : plan.columns[c]) line_offset.push_back(l.dy * m.sy + l.dz * m.sz);
    column_end.push_back(static_cast<int>(line_offset.size()));
    const bool window = plan.columns[c].size() >= 2 && plan.uses(c) >= 2 && plan.reach_x(c) <= simd::Vec::kWidth &&
                        k.window_count < detail::kMaxWindows;
    column_window.push_back(window ? k.window_count : -1);
    if (window) {
      k.window_column[k.window_count] = c;
      k.window_reach[k.window_count] = plan.reach_x(c);
      ++k.window_count;
    }
  }
  m.weight = core::to_device("cartex::stencil_group_weight", weight);
  m.group_end = core::to_device("cartex::stencil_group_end", group_end);
  m.part_column = core::to_device("cartex::stencil_part_column", part_column);
  m.part_dx = core::to_device("cartex::stencil_part_dx", part_dx);
  m.column_end = core::to_device("cartex::stencil_column_end", column_end);
  m.column_window = core::to_device("cartex::stencil_column_window", column_window);
  m.line_offset = core::to_device("cartex::stencil_line_offset", line_offset);
  // How the host's GenericMiddle evaluates each part.
  std::vector<int> part_kind;
  std::vector<long> part_offset;
  for (size_t j = 0; j < part_column.size(); ++j) {
    const int c = part_column[j], first = c == 0 ? 0 : column_end[c - 1];
    if (column_end[c] - first == 1) {
      part_kind.push_back(detail::GenericMiddle::kLine);
      part_offset.push_back(line_offset[first] + part_dx[j]);
    } else {
      part_kind.push_back(column_window[c] >= 0 ? detail::GenericMiddle::kWindow : detail::GenericMiddle::kInline);
      part_offset.push_back(part_dx[j]);
    }
  }
  m.part_kind = core::to_device("cartex::stencil_part_kind", part_kind);
  m.part_offset = core::to_device("cartex::stencil_part_offset", part_offset);
  k.groups = static_cast<int>(plan.groups.size());
  k.parts = static_cast<int>(part_column.size());
  k.weight = m.weight.data();
  k.group_end = m.group_end.data();
  k.part_column = m.part_column.data();
  k.part_dx = m.part_dx.data();
  k.column_end = m.column_end.data();
  k.column_window = m.column_window.data();
  k.line_offset = m.line_offset.data();
  k.part_kind = m.part_kind.data();
  k.part_offset = m.part_offset.data();
}

}  // namespace

StencilOperator::StencilOperator(const core::Stencil& stencil, const core::FieldLayout& layout, Kernel kernel, core::Integrator scheme) {
  core::require(stencil.size() >= 1, "StencilOperator: stencil " + stencil.name + " has no points");
  const auto r = stencil.reach();
  for (int d = 0; d < 3; ++d)
    core::require(layout.halo.lo[d] >= r.lo[d] && layout.halo.hi[d] >= r.hi[d],
            fmt::format("StencilOperator: stencil {} reaches {}/{} cells in dimension {} but the halo is {}/{}",
                        stencil.name, r.lo[d], r.hi[d], "xyz"[d], layout.halo.lo[d], layout.halo.hi[d]));
  auto m = std::make_shared<Impl>();
  m->layout = layout;
  m->scheme = scheme;
  m->sy = layout.extent(0);
  m->sz = layout.extent(0) * layout.extent(1);
  m->plan = detail::make_plan(stencil);
  if (kernel == Kernel::kAuto) m->shape = detail::recognize(stencil, m->plan);
  m->name = m->shape.name();
  m->interior_label = "cartex::kernels::" + m->name;
  m->region_label = m->interior_label + "/region";
  m->blocked_label = m->interior_label + "/blocked";
  build_generic(*m);
  // Prefetch one line ahead of the farthest point: the line that arrives from memory next.
  long farthest = 0;
  for (const auto& o : stencil.offsets) farthest = std::max(farthest, o[0] + o[1] * m->sy + o[2] * m->sz);
  m->lead = farthest + m->sy;
  impl_ = std::move(m);
}

const char* StencilOperator::kernel_name() const { return impl_->name.c_str(); }

namespace {

using Impl = StencilOperator::Impl;

void check_same_layout(const core::FieldLayout& op, const core::Field& in, const core::Field& out) {
  core::require(in.layout.box == op.box && in.layout.halo == op.halo && out.layout.box == op.box && out.layout.halo == op.halo,
          "StencilOperator::apply: field layout differs from the one the operator was built for");
}

// Calls f(kernel) with the kernel object of m's shape.
template <int D, int R, class F>
void with_star(const Impl& m, F&& f) {
  using namespace detail;
  const auto& c = m.shape.cls;
  if constexpr (D == 2) {
    if (c[1] == 0) return f(StarKernel<2, R, 0, 0>::make(m.plan, m.sy, m.sz));
    return f(StarKernel<2, R, 1, 0>::make(m.plan, m.sy, m.sz));
  } else {
    if (c[1] == 0 && c[2] == 0) return f(StarKernel<3, R, 0, 0>::make(m.plan, m.sy, m.sz));
    if (c[1] == 1 && c[2] == 2) return f(StarKernel<3, R, 1, 2>::make(m.plan, m.sy, m.sz));
    if (c[1] == 0 && c[2] == 1) return f(StarKernel<3, R, 0, 1>::make(m.plan, m.sy, m.sz));
    if (c[1] == 1 && c[2] == 0) return f(StarKernel<3, R, 1, 0>::make(m.plan, m.sy, m.sz));
    return f(StarKernel<3, R, 1, 1>::make(m.plan, m.sy, m.sz));
  }
}

template <int D, class F>
void with_star_radius(const Impl& m, F&& f) {
  switch (m.shape.radius) {
    case 1: return with_star<D, 1>(m, f);
    case 2: return with_star<D, 2>(m, f);
    case 3: return with_star<D, 3>(m, f);
    default: return with_star<D, 4>(m, f);
  }
}

template <class F>
void with_kernel(const Impl& m, F&& f) {
  switch (m.shape.kind) {
    case KernelShape::kBox27: return f(detail::Box27Kernel::make(m.plan, m.sy, m.sz));
    case KernelShape::kBox9: return f(detail::Box9Kernel::make(m.plan, m.sy, m.sz));
    case KernelShape::kStar:
      if (m.shape.dim == 2) return with_star_radius<2>(m, f);
      return with_star_radius<3>(m, f);
    case KernelShape::kGeneric: break;
  }
  f(m.generic);
}

using Exec = Kokkos::DefaultExecutionSpace;
constexpr bool kHost = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Exec::memory_space>::accessible;

// The runs r in [0, runs) on the host (on instance `exec`), run(r, p, n) giving the run's first cell p
// and length n.
template <core::Integrator S, class K, class Runs>
void host_runs(const Exec& exec, const Impl& m, const K& k, const double* u, double* v, double coeff, long runs, const Runs& run,
               const char* label) {
  const long lead = m.lead;
  Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec>(exec, 0, runs), [=](const long r) {
    long p, n;
    run(r, p, n);
    detail::host_run<S>(k, u, v, p, n, coeff, lead);
  });
}

// The interior: on the host one iteration per line (z, y), each a run along x; on devices one thread
// per cell with x fastest, so neighbouring threads read neighbouring addresses.
template <core::Integrator S, class K>
void sweep_interior(const Impl& m, const K& k, const core::Field& in, core::Field& out, double coeff) {
  const core::FieldLayout& L = m.layout;
  const long sy = m.sy, sz = m.sz;
  const long nx = L.box.n[0], ny = L.box.n[1], nz = L.box.n[2];
  const long x0 = L.halo.lo[0], y0 = L.halo.lo[1], z0 = L.halo.lo[2];
  const double* u = in.view.data();
  double* v = out.view.data();
  if constexpr (kHost) {
    host_runs<S>(
        Exec(), m, k, u, v, coeff, ny * nz,
        [=](long r, long& p, long& n) {
          p = (r / ny + z0) * sz + (r % ny + y0) * sy + x0;
          n = nx;
        },
        m.interior_label.c_str());
  } else {
    Kokkos::parallel_for(
        m.interior_label, Kokkos::MDRangePolicy<Exec, Kokkos::Rank<3>>({0, 0, 0}, {nz, ny, nx}),
        KOKKOS_LAMBDA(const long kz, const long j, const long i) {
          const long p = (kz + z0) * sz + (j + y0) * sy + x0 + i;
          const double acc = k.template acc<double>(detail::Inline<double, K>{k, u + p});
          const double old = S == core::Integrator::kLeapfrog ? v[p] : 0.0;
          v[p] = detail::scheme_step<S, double>(u[p], old, acc, coeff);
        });
  }
}

// Any set of cells given as runs along x, launched on `exec`: on the host one iteration per run; on
// devices one team per run with vector lanes along the run.
template <core::Integrator S, class K>
void sweep_region(const Exec& exec, const Impl& m, const K& k, const core::Field& in, core::Field& out, double coeff,
                  const CellRegion& cells) {
  const double* u = in.view.data();
  double* v = out.view.data();
  const auto start = cells.start;
  const auto length = cells.length;
  const long runs = static_cast<long>(start.extent(0));
  if constexpr (kHost) {
    host_runs<S>(
        exec, m, k, u, v, coeff, runs,
        [=](long r, long& p, long& n) {
          p = start(r);
          n = length(r);
        },
        m.region_label.c_str());
  } else {
    using Team = Kokkos::TeamPolicy<Exec>::member_type;
    Kokkos::parallel_for(
        m.region_label, Kokkos::TeamPolicy<Exec>(exec, static_cast<int>(runs), Kokkos::AUTO),
        KOKKOS_LAMBDA(const Team& team) {
          const long r = team.league_rank();
          const long base = start(r);
          Kokkos::parallel_for(Kokkos::TeamVectorRange(team, length(r)), [&](const long i) {
            const long p = base + i;
            const double acc = k.template acc<double>(detail::Inline<double, K>{k, u + p});
            const double old = S == core::Integrator::kLeapfrog ? v[p] : 0.0;
            v[p] = detail::scheme_step<S, double>(u[p], old, acc, coeff);
          });
        });
  }
}

// Steps first .. last of a cycle on the host in skewed tiles with a wavefront over z (the scheme and
// why it gives the single steps' bits: cycle_regions.hpp). The rows of one (tile, stage, step) are
// independent: step q reads buffer q % 2 and writes buffer (q + 1) % 2, which no other row of it reads.
// So `rows(y0, y1, row)` may split them among threads, as long as it returns only when all are done;
// `single(f)` runs f on one thread and returns when it is done.
// With `walls`, each (tile, stage, step) then fills the refreshed walls' ghost cells its rows make
// due (WallFill::row_x per row, then rows_yz): each ghost cell step t + 1 reads holds, before it is
// read, the value Boundary::refresh gives it after step t, from the same reads in the same order
// (the z mirrors of a ghost plane step t + 1 reads lie within 2 rz planes of it, so step t + 2 has
// not overwritten them; the y ghost rows and their mirrors stay in one tile: CycleRegions).
// With `ghosts` kX or kXY, the last step gives each row of the block its periodic x ghosts right
// after computing it, while the row is in cache: no later (tile, stage, step) of the pass reads a row
// the last step wrote, for the same reason none reads its block cells. With kXY, the last tile's last
// step then copies the plane's y ghost rows from their images, on one thread once its rows are done:
// the images (block rows, x ghosts filled) are final in the plane by then, and of the ghost rows, the
// high ones are the last tile's (its earlier steps wrote the plane's before) and the low ones lie in
// the first tile, done; later steps of the pass read the written buffer only in later planes.
// Only tiles [tile0, tile1) of the pass run here, in order (a pass may be cut into several calls).
template <core::Integrator S, class K, class Rows, class Single>
void pass_blocked(const Impl& m, const K& k, core::Field& a, core::Field& b, double coeff, const CycleRegions& steps, int first,
                  int last, long tile0, long tile1, const PassWalls* walls, PeriodicGhosts ghosts, const Rows& rows,
                  const Single& single) {
  double* const field[2] = {a.view.data(), b.view.data()};
  const core::FieldLayout& l = m.layout;
  const long ez = l.extent(2), rz = steps.reach_z();
  const long xlo = l.halo.lo[0], nx = l.box.n[0], xhi = l.halo.hi[0];
  const long y0 = l.halo.lo[1], y1 = y0 + l.box.n[1], z0 = l.halo.lo[2], z1 = z0 + l.box.n[2];
  const long ex = l.extent(0), ey = l.extent(1), ny = l.box.n[1], yhi = l.halo.hi[1];
  const bool wrap = ghosts != PeriodicGhosts::kAsComputed;
  const int n = last - first + 1;
  for (long i = tile0; i < tile1; ++i) {
    for (long s = 0; s < ez + (n - 1) * rz; ++s) {
      for (int q = 0; q < n; ++q) {
        const long z = s - q * rz;
        if (z < 0 || z >= ez) continue;
        const double* u = field[q % 2];
        double* v = field[(q + 1) % 2];
        const int t = first + q;
        const long lead = q == 0 ? m.lead : 0;
        const WallFill* fill = walls ? &walls->fill(t) : nullptr;
        const bool wrap_rows = wrap && q == n - 1 && z >= z0 && z < z1;
        const bool wrap_plane = wrap_rows && ghosts == PeriodicGhosts::kXY && i == steps.tiles() - 1;
        const long ty0 = steps.tile_begin(i, q), ty1 = steps.tile_end(i, q);
        rows(ty0, ty1, [&](long y) {
          const long line = (z * l.extent(1) + y) * l.extent(0);
          for (long r = steps.line_first(t, y, z); r < steps.line_last(t, y, z); ++r)
            detail::host_run<S>(k, u, v, line + steps.run_x(t, r), steps.run_length(t, r), coeff, lead);
          if (fill) fill->row_x(v, y, z);
          if (wrap_rows && y >= y0 && y < y1) {
            for (long x = 0; x < xlo; ++x) v[line + x] = v[line + x + nx];
            for (long x = xlo + nx; x < xlo + nx + xhi; ++x) v[line + x] = v[line + x - nx];
          }
        });
        if (fill) single([&] { fill->rows_yz(v, z, ty0, ty1); });
        if (wrap_plane)
          single([&] {
            double* plane = v + z * ey * ex;
            std::copy(plane + ny * ex, plane + (y0 + ny) * ex, plane);
            std::copy(plane + y0 * ex, plane + (y0 + yhi) * ex, plane + y1 * ex);
          });
      }
    }
  }
}

// The pass as one host parallel_for labelled ".../blocked" (profiling tools see it as the update's
// kernel): one team of all host threads, which split the rows of each (tile, stage, step) and meet at
// a barrier before the next; with one thread the rows run in order on the calling thread. With
// `between`, one such launch per tile and `between` on the calling thread after each but the last.
template <core::Integrator S, class K>
void sweep_blocked(const Impl& m, const K& k, core::Field& a, core::Field& b, double coeff, const CycleRegions& steps, int first,
                   int last, const BetweenTiles& between, const PassWalls* walls, PeriodicGhosts ghosts) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  using Team = Kokkos::TeamPolicy<Host>::member_type;
  Kokkos::fence();  // the fields' last writers may still run
  const long tiles = steps.tiles(), per_launch = between ? 1 : tiles;
  for (long t0 = 0; t0 < tiles; t0 += per_launch) {
    Kokkos::parallel_for(m.blocked_label, Kokkos::TeamPolicy<Host>(1, blocked_pass_threads()), [&](const Team& team) {
      pass_blocked<S>(
          m, k, a, b, coeff, steps, first, last, t0, t0 + per_launch, walls, ghosts,
          [&](long y0, long y1, const auto& row) {
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, y0, y1), row);
            team.team_barrier();
          },
          [&](const auto& f) {
            Kokkos::single(Kokkos::PerTeam(team), f);
            team.team_barrier();
          });
    });
    Host().fence();
    if (between && t0 + per_launch < tiles) between();
  }
}

}  // namespace

void StencilOperator::apply_steps(core::Field& a, core::Field& b, double coeff, const CycleRegions& steps, int first, int last,
                                  const BetweenTiles& between, const PassWalls* walls, PeriodicGhosts ghosts) const {
  const Impl& m = *impl_;
  check_same_layout(m.layout, a, b);
  const core::FieldLayout& l = m.layout;
  if (ghosts != PeriodicGhosts::kAsComputed)
    core::require(l.box.n[0] >= std::max(l.halo.lo[0], l.halo.hi[0]),
                  "StencilOperator::apply_steps: periodic x ghosts asked of a block narrower than the x halo");
  if (ghosts == PeriodicGhosts::kXY) {
    core::require(l.box.n[1] >= std::max(l.halo.lo[1], l.halo.hi[1]),
                  "StencilOperator::apply_steps: periodic y ghost rows asked of a block shorter than the y halo");
    core::require(!walls, "StencilOperator::apply_steps: periodic y ghost rows asked with refreshed walls");
  }
  if constexpr (kHost) {
    if (steps.tiling().tile_y > 0) {
      with_kernel(m, [&](const auto& k) {
        if (m.scheme == core::Integrator::kExplicitEuler)
          sweep_blocked<core::Integrator::kExplicitEuler>(m, k, a, b, coeff, steps, first, last, between, walls, ghosts);
        else
          sweep_blocked<core::Integrator::kLeapfrog>(m, k, a, b, coeff, steps, first, last, between, walls, ghosts);
      });
      return;
    }
  }
  // Devices (no blocked kernel there yet) and untiled cycles: one region sweep per step.
  for (int t = first; t <= last; ++t) {
    const bool even = (t - first) % 2 == 0;
    apply(even ? a : b, even ? b : a, coeff, steps.cells(t));
    if (ghosts != PeriodicGhosts::kAsComputed && t == last) {  // before the walls: they mirror these cells
      fill_periodic_x(even ? b : a);
      if (ghosts == PeriodicGhosts::kXY) fill_periodic_y(even ? b : a);  // after x: the rows carry their x ghosts
    }
    if (walls) {
      Kokkos::fence();
      walls->refresh(even ? b : a, t);
    }
    if (between && t < last) {
      Kokkos::fence();  // between sees the step done
      between();
    }
  }
}

void StencilOperator::apply(const core::Field& in, core::Field& out, double coeff) const {
  const Impl& m = *impl_;
  check_same_layout(m.layout, in, out);
  with_kernel(m, [&](const auto& k) {
    if (m.scheme == core::Integrator::kExplicitEuler)
      sweep_interior<core::Integrator::kExplicitEuler>(m, k, in, out, coeff);
    else
      sweep_interior<core::Integrator::kLeapfrog>(m, k, in, out, coeff);
  });
}

void StencilOperator::apply(const core::Field& in, core::Field& out, double coeff, const CellRegion& cells, const Exec& exec) const {
  const Impl& m = *impl_;
  check_same_layout(m.layout, in, out);
  with_kernel(m, [&](const auto& k) {
    if (m.scheme == core::Integrator::kExplicitEuler)
      sweep_region<core::Integrator::kExplicitEuler>(exec, m, k, in, out, coeff, cells);
    else
      sweep_region<core::Integrator::kLeapfrog>(exec, m, k, in, out, coeff, cells);
  });
}

}  // namespace cartex::kernels
