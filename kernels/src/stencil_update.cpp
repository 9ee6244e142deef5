#include "cartex/kernels/stencil_update.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <type_traits>
#include <utility>

#include "cartex/core/error.hpp"
#include "cartex/core/kokkos_compat.hpp"

namespace cartex {

StencilOperator::StencilOperator(const Stencil& stencil, const FieldLayout& layout, Kernel kernel, Scheme scheme)
    : stencil_(stencil),
      layout_(layout),
      fixed_points_(0),
      scheme_(scheme),
      lin_("cartex::stencil_offsets", stencil.size()),
      weights_("cartex::stencil_weights", stencil.size()) {
  require(stencil.size() >= 1, "StencilOperator: stencil " + stencil.name + " has no points");
  const auto r = stencil.reach();
  for (int d = 0; d < 3; ++d)
    require(layout.halo.lo[d] >= r.lo[d] && layout.halo.hi[d] >= r.hi[d],
            fmt::format("StencilOperator: stencil {} reaches {}/{} cells in dimension {} but the halo is {}/{}",
                        stencil.name, r.lo[d], r.hi[d], "xyz"[d], layout.halo.lo[d], layout.halo.hi[d]));
  const long sy = layout.extent(0), sz = layout.extent(0) * layout.extent(1);
  auto lh = Kokkos::create_mirror_view(lin_);
  auto wh = Kokkos::create_mirror_view(weights_);
  for (int q = 0; q < stencil.size(); ++q) {
    lh(q) = stencil.offsets[q][0] + stencil.offsets[q][1] * sy + stencil.offsets[q][2] * sz;
    wh(q) = stencil.weights[q];
    lin_host_.push_back(lh(q));
  }
  Kokkos::deep_copy(lin_, lh);
  Kokkos::deep_copy(weights_, wh);
  const int t = stencil.size();
  if (kernel == Kernel::kAuto && (t == 5 || t == 7 || t == 9 || t == 27)) fixed_points_ = t;
}

const char* StencilOperator::kernel_name() const {
  switch (fixed_points_) {
    case 5: return "fixed<5>";
    case 7: return "fixed<7>";
    case 9: return "fixed<9>";
    case 27: return "fixed<27>";
    default: return "generic";
  }
}

namespace {

void check_same_layout(const FieldLayout& op, const Field& in, const Field& out) {
  require(in.layout.box == op.box && in.layout.halo == op.halo && out.layout.box == op.box && out.layout.halo == op.halo,
          "StencilOperator::apply: field layout differs from the one the operator was built for");
}

}  // namespace

template <class F>
void StencilOperator::dispatch(F&& f) const {
  const auto with_points = [&](auto scheme) {
    switch (fixed_points_) {
      case 5: return f(std::integral_constant<int, 5>{}, scheme);
      case 7: return f(std::integral_constant<int, 7>{}, scheme);
      case 9: return f(std::integral_constant<int, 9>{}, scheme);
      case 27: return f(std::integral_constant<int, 27>{}, scheme);
      default: return f(std::integral_constant<int, 0>{}, scheme);
    }
  };
  if (scheme_ == Scheme::kEuler)
    with_points(std::integral_constant<Scheme, Scheme::kEuler>{});
  else
    with_points(std::integral_constant<Scheme, Scheme::kLeapfrog>{});
}

void StencilOperator::apply(const Field& in, Field& out, double coeff) const {
  check_same_layout(layout_, in, out);
  dispatch([&](auto n, auto scheme) { run<decltype(n)::value, decltype(scheme)::value>(in, out, coeff); });
}

void StencilOperator::apply(const Field& in, Field& out, double coeff, const Region& region) const {
  check_same_layout(layout_, in, out);
  dispatch([&](auto n, auto scheme) { run_region<decltype(n)::value, decltype(scheme)::value>(in, out, coeff, region); });
}

StencilOperator::Region StencilOperator::region(const std::vector<LineRun>& runs) const {
  return make_cell_region(layout_, runs);
}

namespace {

// The update of one cell by scheme S (Euler: v[p] = u[p] + coeff * sum_q w_q u[p + lin_q]; leapfrog:
// v[p] = (2 u[p] - v[p]) + coeff * sum). N > 0: N points fixed at
// compile time; N == 0: the runtime table. The points are added in stencil order (t0 + t1 + ...)
// either way, so both give the same bits.
template <int N, Scheme S>
struct CellUpdate {
  Kokkos::Array<long, N == 0 ? 1 : N> lc;
  Kokkos::Array<double, N == 0 ? 1 : N> wc;
  Kokkos::View<long*> lin;
  Kokkos::View<double*> w;
  int t;
  double coeff;

  // The scheme's new value from u[p], the old v[p] and the stencil sum.
  KOKKOS_FORCEINLINE_FUNCTION double step(double u, double v_old, double acc) const {
    if constexpr (S == Scheme::kLeapfrog) return (2.0 * u - v_old) + coeff * acc;
    else return u + coeff * acc;
  }

  template <std::size_t... Q>
  KOKKOS_FORCEINLINE_FUNCTION double fixed_sum(const double* u, std::index_sequence<Q...>) const {
    return (... + (wc[Q] * u[lc[Q]]));  // a left fold: ((t0 + t1) + t2) + ...
  }

  KOKKOS_FORCEINLINE_FUNCTION void operator()(const double* KOKKOS_RESTRICT u, double* KOKKOS_RESTRICT v, long p) const {
    double acc;
    if constexpr (N > 0) {
      acc = fixed_sum(u + p, std::make_index_sequence<N>{});
    } else {
      acc = w(0) * u[p + lin(0)];
      for (int q = 1; q < t; ++q) acc += w(q) * u[p + lin(q)];
    }
    v[p] = step(u[p], v[p], acc);
  }

  // Cells [p, p + n) of one line on the host: the vectorised x loop (fixed size) or line() (generic).
  KOKKOS_INLINE_FUNCTION void host_run(const double* u, double* v, long p, long n) const {
    if constexpr (N > 0) {
      CARTEX_IVDEP
      for (long i = 0; i < n; ++i) (*this)(u, v, p + i);
    } else {
      line(u, v, p, n);
    }
  }

  // The runtime-size update of cells [p, p + n) of one line on the host: point by point over chunks
  // of the line, so the loop along x vectorises; per cell the points are added in the same order.
  KOKKOS_INLINE_FUNCTION void line(const double* KOKKOS_RESTRICT u, double* KOKKOS_RESTRICT v, long p, long n) const {
    constexpr long kChunk = 256;
    double acc[kChunk];
    for (long c0 = 0; c0 < n; c0 += kChunk) {
      const long m = n - c0 < kChunk ? n - c0 : kChunk;
      const double* KOKKOS_RESTRICT up = u + p + c0;
      CARTEX_IVDEP
      for (long i = 0; i < m; ++i) acc[i] = w(0) * up[i + lin(0)];
      for (int q = 1; q < t; ++q) {
        const double wq = w(q);
        const long lq = lin(q);
        CARTEX_IVDEP
        for (long i = 0; i < m; ++i) acc[i] += wq * up[i + lq];
      }
      double* KOKKOS_RESTRICT vp = v + p + c0;
      CARTEX_IVDEP
      for (long i = 0; i < m; ++i) vp[i] = step(up[i], vp[i], acc[i]);
    }
  }
};

// The CellUpdate of an operator's stencil with `coeff`.
template <int N, Scheme S>
CellUpdate<N, S> make_cell(const Kokkos::View<long*>& lin, const Kokkos::View<double*>& w, const std::vector<long>& lin_host,
                        const Stencil& s, double coeff) {
  CellUpdate<N, S> cell{{}, {}, lin, w, s.size(), coeff};
  if constexpr (N > 0) {
    for (int q = 0; q < N; ++q) {
      cell.lc[q] = lin_host[q];
      cell.wc[q] = s.weights[q];
    }
  }
  return cell;
}

// Lines (along y) per tile on host: three planes of a tile stay in a 256 KiB cache while the sweep
// moves along z, so each input value is read from memory about once.
long tile_lines(long line_length, long ny) {
  const long lines = 262144 / (3 * 8 * line_length);
  return std::max(1L, std::min(ny, lines));
}

}  // namespace

// Host execution spaces: one iteration per (y tile, z) pair, each sweeping its lines with a plain loop
// along x that the compiler vectorises. Device execution spaces: one thread per cell with x fastest, so
// neighbouring threads read neighbouring addresses. Both evaluate the same CellUpdate.
template <int N, Scheme S>
void StencilOperator::run(const Field& in, Field& out, double coeff) const {
  using Exec = Kokkos::DefaultExecutionSpace;
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Exec::memory_space>::accessible;
  const FieldLayout& L = layout_;
  const long sy = L.extent(0), sz = L.extent(0) * L.extent(1);
  const long nx = L.box.n[0], ny = L.box.n[1], nz = L.box.n[2];
  const long x0 = L.halo.lo[0], y0 = L.halo.lo[1], z0 = L.halo.lo[2];
  const double* src = in.view.data();
  double* dst = out.view.data();
  const CellUpdate<N, S> cell = make_cell<N, S>(lin_, weights_, lin_host_, stencil_, coeff);
  if constexpr (host) {
    const long ty = tile_lines(sy, ny), tiles = (ny + ty - 1) / ty;
    Kokkos::parallel_for(
        "cartex::stencil_update", Kokkos::RangePolicy<Exec>(0, tiles * nz), KOKKOS_LAMBDA(const long it) {
          const long tile = it / nz, k = it % nz;
          const long j_end = std::min(ny, (tile + 1) * ty);
          for (long j = tile * ty; j < j_end; ++j) {
            const long base = (k + z0) * sz + (j + y0) * sy + x0;
            cell.host_run(src, dst, base, nx);
          }
        });
  } else {
    Kokkos::parallel_for(
        "cartex::stencil_update", Kokkos::MDRangePolicy<Exec, Kokkos::Rank<3>>({0, 0, 0}, {nz, ny, nx}),
        KOKKOS_LAMBDA(const long k, const long j, const long i) { cell(src, dst, (k + z0) * sz + (j + y0) * sy + x0 + i); });
  }
}

// Any set of cells given as runs along x: on the host one iteration per run with the same x loop as
// the interior sweep; on devices one team per run with vector lanes along the run.
template <int N, Scheme S>
void StencilOperator::run_region(const Field& in, Field& out, double coeff, const Region& region) const {
  using Exec = Kokkos::DefaultExecutionSpace;
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Exec::memory_space>::accessible;
  const double* src = in.view.data();
  double* dst = out.view.data();
  const CellUpdate<N, S> cell = make_cell<N, S>(lin_, weights_, lin_host_, stencil_, coeff);
  const auto start = region.start;
  const auto length = region.length;
  const long runs = static_cast<long>(start.extent(0));
  if constexpr (host) {
    Kokkos::parallel_for(
        "cartex::stencil_update_region", Kokkos::RangePolicy<Exec>(0, runs), KOKKOS_LAMBDA(const long r) {
          const long base = start(r), n = length(r);
          cell.host_run(src, dst, base, n);
        });
  } else {
    using Team = Kokkos::TeamPolicy<Exec>::member_type;
    Kokkos::parallel_for(
        "cartex::stencil_update_region", Kokkos::TeamPolicy<Exec>(static_cast<int>(runs), Kokkos::AUTO),
        KOKKOS_LAMBDA(const Team& team) {
          const long r = team.league_rank();
          const long base = start(r);
          Kokkos::parallel_for(Kokkos::TeamVectorRange(team, length(r)), [&](const long i) { cell(src, dst, base + i); });
        });
  }
}

}  // namespace cartex
