// my_heat: heat3d plus two things cartex does not ship, registered before the driver runs.
//
//   stencil: cross13   the 4th-order star Laplacian (13 points in 3D) spelled out as offsets and weights
//   stencil: varcoef   a point update for u_t = div(a(x) grad u) with a(x) = 1 + eps sin(2 pi x / L_x),
//                      in flux form, so the total heat is conserved on a periodic grid
//
// Both are chosen by name in the YAML input (cross13.yaml, varcoef.yaml); the halo and process
// neighborhood follow from the registered footprint.
#include <Kokkos_Core.hpp>
#include <cartex/app/driver.hpp>
#include <cartex/core/kokkos_compat.hpp>
#include <cartex/core/stencil_registry.hpp>
#include <cartex/kernels/update_registry.hpp>

#include <cmath>

namespace {

// Centre first, then per dimension the offsets -1, +1, -2, +2 (the star point order of docs/stencils.md).
cartex::core::Stencil cross13(const cartex::core::GlobalGrid& g) {
  cartex::core::Stencil s;
  s.name = "cross13";
  s.dim = g.dim;
  s.offsets.push_back({0, 0, 0});
  s.weights.push_back(0.0);
  const double c1 = 4.0 / 3.0, c2 = -1.0 / 12.0;
  for (int d = 0; d < g.dim; ++d) {
    const double h2 = g.spacing(d) * g.spacing(d);
    s.weights[0] += -2.0 * (c1 + c2) / h2;
    for (int k = 1; k <= 2; ++k)
      for (int side : {-1, 1}) {
        cartex::core::Offset o{0, 0, 0};
        o[d] = side * k;
        s.offsets.push_back(o);
        s.weights.push_back((k == 1 ? c1 : c2) / h2);
      }
  }
  return s;
}

// The footprint of varcoef: the 7pt (5pt in 2D) star, with the weights of a(x) <= 1 + eps, so the
// time-step limit derived from it is safe.
constexpr double kEps = 0.5;

cartex::core::Stencil varcoef_footprint(const cartex::core::GlobalGrid& g) {
  cartex::core::Stencil s;
  s.name = "varcoef";
  s.dim = g.dim;
  s.offsets.push_back({0, 0, 0});
  s.weights.push_back(0.0);
  for (int d = 0; d < g.dim; ++d) {
    const double w = (1.0 + kEps) / (g.spacing(d) * g.spacing(d));
    s.weights[0] -= 2.0 * w;
    for (int side : {-1, 1}) {
      cartex::core::Offset o{0, 0, 0};
      o[d] = side;
      s.offsets.push_back(o);
      s.weights.push_back(w);
    }
  }
  return s;
}

// u' = u + dt * sum_d [a(x+h/2)(u_+ - u) - a(x-h/2)(u - u_-)] / h_d^2, with a varying along x only.
struct VariableDiffusion {
  double dt;
  double inv_h2[3];
  double hx, kx;  // spacing and wave number 2 pi / L_x of a(x)
  double x0;      // position of cell 0 along x
  int dim;

  KOKKOS_FUNCTION double a(double x) const { return 1.0 + kEps * cartex::core::kmath::sin(kx * x); }

  KOKKOS_FUNCTION double operator()(const cartex::kernels::PointContext& c) const {
    const double u = c(0, 0, 0);
    const double x = x0 + c.i * hx;
    double flux = (a(x + 0.5 * hx) * (c(1, 0, 0) - u) - a(x - 0.5 * hx) * (u - c(-1, 0, 0))) * inv_h2[0];
    flux += (c(0, 1, 0) - 2.0 * u + c(0, -1, 0)) * inv_h2[1];
    if (dim == 3) flux += (c(0, 0, 1) - 2.0 * u + c(0, 0, -1)) * inv_h2[2];
    return u + dt * flux;
  }
};

}  // namespace

int main(int argc, char** argv) {
  cartex::core::register_stencil("cross13", cross13, "4th-order star Laplacian, spelled out (example)");
  cartex::kernels::register_point_update<VariableDiffusion>(
      "varcoef", varcoef_footprint,
      [](const cartex::core::Config& cfg) {
        const auto& g = cfg.grid;
        VariableDiffusion f{};
        f.dt = cfg.dt * cartex::core::physics_number(cfg, "alpha");
        for (int d = 0; d < 3; ++d) f.inv_h2[d] = d < g.dim ? 1.0 / (g.spacing(d) * g.spacing(d)) : 0.0;
        f.hx = g.spacing(0);
        f.kx = 2.0 * std::acos(-1.0) / g.length[0];
        f.x0 = g.position(0, 0);
        f.dim = g.dim;
        return f;
      },
      "div(a(x) grad u), a = 1 + 0.5 sin(2 pi x / L) (example)");
  return cartex::app::app_main("my_heat", cartex::physics::find_equation("heat"), argc, argv);
}
