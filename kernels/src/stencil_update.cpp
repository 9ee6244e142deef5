#include "cartex/kernels/stencil_update.hpp"

#include <fmt/format.h>

#include "cartex/core/error.hpp"

namespace cartex {

StencilOperator::StencilOperator(const Stencil& stencil, const FieldLayout& layout, Kernel kernel)
    : stencil_(stencil),
      layout_(layout),
      fixed_points_(0),
      lin_("cartex::stencil_offsets", stencil.size()),
      weights_("cartex::stencil_weights", stencil.size()) {
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

void StencilOperator::apply(const Field& in, Field& out, double coeff) const {
  require(in.layout.box == layout_.box && in.layout.halo == layout_.halo && out.layout.box == layout_.box &&
              out.layout.halo == layout_.halo,
          "StencilOperator::apply: field layout differs from the one the operator was built for");
  switch (fixed_points_) {
    case 5: return run<5>(in, out, coeff);
    case 7: return run<7>(in, out, coeff);
    case 9: return run<9>(in, out, coeff);
    case 27: return run<27>(in, out, coeff);
    default: return run<0>(in, out, coeff);
  }
}

// One team per (z, y) line of the interior, vector lanes along x (contiguous).
template <int N>
void StencilOperator::run(const Field& in, Field& out, double coeff) const {
  using Team = Kokkos::TeamPolicy<>::member_type;
  const FieldLayout& L = layout_;
  const long sy = L.extent(0), sz = L.extent(0) * L.extent(1);
  const long nx = L.box.n[0], ny = L.box.n[1], nz = L.box.n[2];
  const long x0 = L.halo.lo[0], y0 = L.halo.lo[1], z0 = L.halo.lo[2];
  const double* src = in.view.data();
  double* dst = out.view.data();
  const int t = stencil_.size();
  const auto lin = lin_;
  const auto w = weights_;
  Kokkos::Array<long, N == 0 ? 1 : N> lc{};
  Kokkos::Array<double, N == 0 ? 1 : N> wc{};
  if constexpr (N > 0) {
    for (int q = 0; q < N; ++q) {
      lc[q] = lin_host_[q];
      wc[q] = stencil_.weights[q];
    }
  }
  Kokkos::parallel_for(
      "cartex::stencil_update", Kokkos::TeamPolicy<>(static_cast<int>(ny * nz), Kokkos::AUTO),
      KOKKOS_LAMBDA(const Team& team) {
        const long line = team.league_rank();
        const long base = (line / ny + z0) * sz + (line % ny + y0) * sy + x0;
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, nx), [&](const long i) {
          const long p = base + i;
          double acc = 0.0;
          if constexpr (N > 0) {
            for (int q = 0; q < N; ++q) acc += wc[q] * src[p + lc[q]];
          } else {
            for (int q = 0; q < t; ++q) acc += w(q) * src[p + lin(q)];
          }
          dst[p] = src[p] + coeff * acc;
        });
      });
}

}  // namespace cartex
