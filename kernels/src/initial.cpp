#include "cartex/kernels/initial.hpp"

#include "cartex/core/kokkos_compat.hpp"
#include "sine_factors.hpp"

#include <cmath>

namespace cartex::kernels {

namespace {

// Per-dimension affine map from global index to position: x = x0 + g * h.
struct Positions {
  Kokkos::Array<double, 3> x0, h;
  Kokkos::Array<long, 3> lo;  // global index of the first interior cell
  Kokkos::Array<long, 3> off; // view index of the first interior cell
};

Positions positions(const core::GlobalGrid& grid, const core::FieldLayout& l) {
  Positions p;
  for (int d = 0; d < 3; ++d) {
    p.h[d] = grid.spacing(d);
    p.x0[d] = grid.position(d, 0);
    p.lo[d] = l.box.lo[d];
    p.off[d] = l.halo.lo[d];
  }
  return p;
}

}  // namespace

std::array<double, 3> sine_wave_numbers(const core::GlobalGrid& grid, const core::InitConfig& init) {
  const double pi = std::acos(-1.0);
  std::array<double, 3> k{0, 0, 0};
  for (int d = 0; d < grid.dim; ++d) {
    // A quarter wave fits between a sine (Dirichlet) and a cosine (Neumann) wall: (m - 1/2) half waves.
    const bool mixed = !grid.periodic[d] && core::wall_kind_row(grid.wall[d][0]).sine_cosine !=
                                                core::wall_kind_row(grid.wall[d][1]).sine_cosine;
    k[d] = (grid.periodic[d] ? 2.0 * pi * init.modes[d] : mixed ? pi * (init.modes[d] - 0.5) : pi * init.modes[d]) / grid.length[d];
  }
  return k;
}

std::array<bool, 3> sine_mode_cosines(const core::GlobalGrid& grid) {
  std::array<bool, 3> c{false, false, false};
  for (int d = 0; d < grid.dim; ++d) c[d] = !grid.periodic[d] && core::wall_kind_row(grid.wall[d][0]).sine_cosine;
  return c;
}

bool sine_mode_is_exact(const core::Config& cfg) {
  if (cfg.init.type != "sine" || !cfg.stencil.is_mirror_symmetric()) return false;
  if (core::has_field_coefficient(cfg)) return false;  // no sine mode with a field coefficient
  const auto r = cfg.stencil.reach();
  for (int d = 0; d < cfg.grid.dim; ++d) {
    for (int side = 0; side < 2; ++side) {
      const core::BoundaryFace& f = cfg.boundary[d][side];
      const long reach = side == 0 ? r.lo[d] : r.hi[d];
      // Every ghost layer must be the mode's mirror continuation: even at an insulated wall, odd (the
      // exact solution) at a Dirichlet one, where a constant 0 is that only on the wall itself.
      if (!core::wall_kind_row(f.kind).continues_sine(f, reach)) return false;
    }
  }
  return true;
}

void fill_initial(core::Field& f, const core::GlobalGrid& grid, const core::InitConfig& init) {
  const Positions p = positions(grid, f.layout);
  const auto v = f.view;
  const double A = init.amplitude;
  const int dim = grid.dim;
  const auto& L = f.layout.box;
  Kokkos::MDRangePolicy<Kokkos::Rank<3>> range({0, 0, 0}, {L.n[2], L.n[1], L.n[0]});
  if (init.type == "sine") {
    const detail::SineFactors mode(grid, f.layout, sine_wave_numbers(grid, init));
    Kokkos::parallel_for(
        "cartex::init::sine", range,
        KOKKOS_LAMBDA(const long z, const long y, const long x) { v(z + p.off[2], y + p.off[1], x + p.off[0]) = mode(A, x, y, z); });
  } else {
    const Kokkos::Array<double, 3> c{init.center[0], init.center[1], init.center[2]};
    const double w2 = 2.0 * init.width * init.width;
    Kokkos::parallel_for(
        "cartex::init::gaussian", range, KOKKOS_LAMBDA(const long z, const long y, const long x) {
          const long g[3] = {p.lo[0] + x, p.lo[1] + y, p.lo[2] + z};
          double r2 = 0;
          for (int d = 0; d < dim; ++d) {
            const double dx = p.x0[d] + g[d] * p.h[d] - c[d];
            r2 += dx * dx;
          }
          v(z + p.off[2], y + p.off[1], x + p.off[0]) = A * core::kmath::exp(-r2 / w2);
        });
  }
}

}  // namespace cartex::kernels
